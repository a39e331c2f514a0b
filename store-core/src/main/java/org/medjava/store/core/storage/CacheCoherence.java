package org.medjava.store.core.storage;

import java.io.IOException;

/**
 * What keeps a node's {@link CachedStorage} from serving an object's older version after a write acknowledged on
 * another node: whether the cache may be believed now, and the writer's side, telling the others of a change and
 * returning only once none of them can still serve what it replaced.
 */
public interface CacheCoherence {

    /** Whether the cached objects may be served now (this node hears of every other writer's change in time). */
    boolean trusted();

    /**
     * This node changed (replaced or removed) the object at {@code key}; returns once no other node can serve its
     * older version any more.
     *
     * @throws StorageUnavailableException when that cannot be made sure of (the shared database is away)
     */
    void changed(String key) throws IOException;

    /** One store alone on its storage: its own writes are all there are. */
    CacheCoherence ALONE = new CacheCoherence() {
        @Override
        public boolean trusted() {
            return true;
        }

        @Override
        public void changed(String key) {
        }
    };

    /** Not yet told (a cluster node before it has joined): nothing is served from the cache. */
    CacheCoherence UNTRUSTED = new CacheCoherence() {
        @Override
        public boolean trusted() {
            return false;
        }

        @Override
        public void changed(String key) {
        }
    };
}
