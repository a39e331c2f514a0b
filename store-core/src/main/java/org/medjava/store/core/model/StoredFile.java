package org.medjava.store.core.model;

import java.time.Instant;

/**
 * What the repository knows about one stored file or directory.
 *
 * @param etag        strong entity tag (quoted); a new one for every write
 * @param contentType the media type served for a file; null for directories
 */
public record StoredFile(StorePath path, boolean directory, long size, Instant modified, String etag,
                         String contentType) {
}
