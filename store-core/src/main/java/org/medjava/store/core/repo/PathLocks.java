package org.medjava.store.core.repo;

import org.medjava.store.core.model.StorePath;

/**
 * Serializes the writers of one store path: within this process ({@link LocalPathLocks}) or across every node of
 * a cluster ({@code cluster.PostgresPathLocks}, which implements it above the repository). Writers of different
 * paths do not wait for each other (beyond sharing a stripe).
 */
public interface PathLocks {

    /** Held until closed. */
    interface Held extends AutoCloseable {

        /**
         * Checks that the lock is still held, just before the write it guards becomes visible: a node cut off from
         * the shared database (whose session, and so whose lock, the database may have ended) must not go on to
         * write what another node may be writing now.
         *
         * @throws org.medjava.store.core.StoreException UNAVAILABLE when the lock was lost
         */
        default void verify() {
        }

        /**
         * Says that the index agrees with the object at this path now (the write under this lock was indexed, or the
         * path was reconciled). A lock closed without it after {@link #verify} (its write may have changed the
         * object while the index was away, or its node died) leaves the path {@linkplain #unsettled() unsettled}.
         */
        default void settled() {
        }

        @Override
        void close();
    }

    /**
     * Waits for the lock of {@code path}.
     *
     * @throws org.medjava.store.core.StoreException UNAVAILABLE when the lock cannot be had (the shared database is
     *                                          unreachable): the write must not go ahead
     */
    Held lock(StorePath path);

    /** Takes the lock of {@code path} if nobody holds it now (one try), else empty. */
    default java.util.Optional<Held> tryLock(StorePath path) {
        return java.util.Optional.of(lock(path));
    }

    /**
     * Paths whose last write (on any node) ended, or whose node died, before the index agreed with the object: to be
     * reconciled by whoever sees them. This process's own writes are in its intent journal: none here.
     */
    default java.util.List<StorePath> unsettled() {
        return java.util.List.of();
    }

    /** The key all locks of a path share, whether it is written as a file or a directory. */
    static String keyOf(StorePath path) {
        return String.join("/", path.segments());
    }
}
