package org.medjava.store.core.ingest;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.medjava.store.core.StoreException;

/**
 * The ingest door's pause for a backup snapshot: every change of the stored objects and the index (an install with
 * its index update, a delete with its unindex) passes it ({@link #pass}); a backup {@link #hold}s it while it takes
 * its snapshot. Holding waits for the changes in flight to finish; changes that arrive meanwhile wait until it is
 * released. Every wait is bounded by the longest pause, {@link #maxPause}: a backup that cannot drain the door within
 * it fails, a backup keeps the door closed no longer than it (it gives its snapshot up), and a change that waited
 * twice as long is refused as UNAVAILABLE (503: try again), so nothing waits forever.
 *
 * <p>A fair lock: once a backup waits, new changes queue behind it, so a steady stream of writes cannot starve it.
 * Only the installs are held, not the receiving of request bodies, so a slow upload never delays a snapshot.
 */
public final class WriteBarrier {

    /** One change passing the door; close it when the change is complete. */
    public interface Pass extends AutoCloseable {
        @Override
        void close();
    }

    /** The backup's hold on the door; close it to let changes continue. */
    public interface Hold extends AutoCloseable {
        @Override
        void close();
    }

    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock(true);
    private final Duration maxPause;

    /** @param maxPause the longest a backup may hold the door, and wait for the changes in flight */
    public WriteBarrier(Duration maxPause) {
        this.maxPause = maxPause;
    }

    public Duration maxPause() {
        return maxPause;
    }

    /**
     * Lets one change through, waiting while a backup holds the door.
     *
     * @throws StoreException UNAVAILABLE when the door stayed closed for twice {@link #maxPause}
     */
    public Pass pass() {
        ReentrantReadWriteLock.ReadLock read = lock.readLock();
        Duration wait = maxPause.multipliedBy(2);
        if (!tryLock(() -> read.tryLock(wait.toMillis(), TimeUnit.MILLISECONDS))) {
            throw new StoreException(StoreException.Kind.UNAVAILABLE, "writes are paused for a backup snapshot"
                    + " for longer than " + wait.toSeconds() + " s; nothing was changed, try again shortly");
        }
        return read::unlock;
    }

    /**
     * Closes the door for a snapshot: returns once the changes in flight have finished; new ones wait until the
     * hold is closed.
     *
     * @throws StoreException UNAVAILABLE when the changes in flight did not finish within {@link #maxPause}
     */
    public Hold hold() {
        ReentrantReadWriteLock.WriteLock write = lock.writeLock();
        if (!tryLock(() -> write.tryLock(maxPause.toMillis(), TimeUnit.MILLISECONDS))) {
            throw new StoreException(StoreException.Kind.UNAVAILABLE, "the writes in progress did not finish within "
                    + maxPause.toSeconds() + " s, so no snapshot was taken; try the backup again");
        }
        return write::unlock;
    }

    private interface Attempt {
        boolean run() throws InterruptedException;
    }

    private static boolean tryLock(Attempt attempt) {
        try {
            return attempt.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException(StoreException.Kind.UNAVAILABLE, "interrupted while waiting for a backup", e);
        }
    }
}
