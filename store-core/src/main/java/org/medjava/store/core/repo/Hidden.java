package org.medjava.store.core.repo;

import java.time.Instant;

/**
 * Stored files that readers must not see although their bytes are still in the storage (the trash's, until they
 * are purged or restored). A file is named by its key, size and modification time, so a file written at the same
 * path since is not hidden.
 */
@FunctionalInterface
public interface Hidden {
    Hidden NONE = (key, size, modified) -> false;

    boolean hides(String key, long size, Instant modified);
}
