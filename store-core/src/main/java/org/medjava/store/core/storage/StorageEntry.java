package org.medjava.store.core.storage;

import java.time.Instant;

/**
 * An object or a directory in an {@link ObjectStorage}.
 *
 * @param key      the key ({@code ""} for the root)
 * @param size     bytes; 0 for directories
 * @param modified when the object was installed (directories: as the storage knows, may be {@link Instant#EPOCH})
 * @param etag     a strong, quoted entity tag, new for every install; null for directories
 */
public record StorageEntry(String key, boolean directory, long size, Instant modified, String etag) {

    /** The last segment of the key. */
    public String name() {
        return key.substring(key.lastIndexOf('/') + 1);
    }
}
