package org.medjava.store.core.memory;

import java.util.concurrent.TimeUnit;
import org.medjava.store.core.BusyException;
import org.medjava.store.core.StoreException;

/**
 * The store-wide budget of memory for decoding images (a semaphore counted in bytes): every decode — upload
 * validation, rendering, derived objects, thumbnails — first takes the bytes its decoded image will hold
 * ({@link DecodeCost}) and gives them back when done, so that concurrent decodes together never hold more than the
 * budget, whatever the images declare. An image that needs more than the whole budget is refused for good (413,
 * with the numbers); when the budget is only in use by others, a request waits briefly and is then refused with 503
 * and {@code Retry-After}. Thread-safe.
 */
public final class DecodeBudget {

    /** No limit (tools and tests that do not share a heap with other requests). */
    public static final DecodeBudget UNLIMITED = new DecodeBudget(Long.MAX_VALUE, 0);

    /** The setting that sets the budget, named in refusals. */
    public static final String SETTING = "medjava.memory.decode-budget-bytes";

    private final long capacity;
    private final long waitMillis;
    private long inUse;

    /**
     * @param capacity   bytes all decodes together may hold
     * @param waitMillis how long a decode waits for room before it is refused with 503
     */
    public DecodeBudget(long capacity, long waitMillis) {
        if (capacity < 1 || waitMillis < 0) {
            throw new IllegalArgumentException("decode budget " + capacity + " bytes, wait " + waitMillis + " ms");
        }
        this.capacity = capacity;
        this.waitMillis = waitMillis;
    }

    /** The default: a quarter of the maximum heap, so that decoding never crowds out the rest of the store. */
    public static long defaultCapacity() {
        return Runtime.getRuntime().maxMemory() / 4;
    }

    public long capacity() {
        return capacity;
    }

    /** Bytes held by decodes now. */
    public synchronized long inUse() {
        return inUse;
    }

    /** What a decode holds until it closes it. */
    public interface Permit extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Refuses for good what needs more than the whole budget.
     *
     * @throws StoreException TOO_LARGE naming both numbers and the setting
     */
    public void requireFits(long bytes, String what) {
        if (bytes > capacity) {
            throw new StoreException(StoreException.Kind.TOO_LARGE, what + " needs about " + mib(bytes)
                    + " of memory to decode, more than the store's decode budget of " + mib(capacity) + " (" + SETTING
                    + ")");
        }
    }

    /**
     * Takes {@code bytes} of the budget for a decode of {@code what}.
     *
     * @throws StoreException TOO_LARGE when {@code bytes} exceed the whole budget (the image can never be decoded
     *                        here); {@link BusyException} (503) when there is no room within the wait
     */
    public Permit admit(long bytes, String what) {
        long needed = Math.max(0, bytes);
        requireFits(needed, what);
        synchronized (this) {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
            while (inUse + needed > capacity) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new BusyException("the store is decoding other large images (" + mib(inUse) + " of its "
                            + mib(capacity) + " decode budget in use; " + what + " needs " + mib(needed)
                            + "): try again in a few seconds", retryAfterSeconds());
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new BusyException("interrupted while waiting for the decode budget", retryAfterSeconds());
                }
            }
            inUse += needed;
        }
        return new Permit() {
            private boolean closed;

            @Override
            public void close() {
                synchronized (DecodeBudget.this) {
                    if (!closed) {
                        closed = true;
                        inUse -= needed;
                        DecodeBudget.this.notifyAll();
                    }
                }
            }
        };
    }

    private long retryAfterSeconds() {
        return Math.max(1, (waitMillis + 999) / 1000);
    }

    static String mib(long bytes) {
        return bytes >= 10L << 20 ? (bytes >> 20) + " MiB" : String.format(java.util.Locale.ROOT, "%.1f MiB",
                bytes / 1048576.0);
    }
}
