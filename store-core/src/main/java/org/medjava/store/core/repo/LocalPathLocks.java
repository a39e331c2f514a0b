package org.medjava.store.core.repo;

import java.util.concurrent.locks.ReentrantLock;
import org.medjava.store.core.model.StorePath;

/** Path locks within one process: a fixed set of striped locks, so memory does not grow with the paths written. */
public final class LocalPathLocks implements PathLocks {

    private static final int STRIPES = 256;
    private final ReentrantLock[] locks = new ReentrantLock[STRIPES];

    public LocalPathLocks() {
        for (int i = 0; i < STRIPES; i++) {
            locks[i] = new ReentrantLock();
        }
    }

    @Override
    public Held lock(StorePath path) {
        ReentrantLock lock = locks[Math.floorMod(PathLocks.keyOf(path).hashCode(), STRIPES)];
        lock.lock();
        return lock::unlock;
    }
}
