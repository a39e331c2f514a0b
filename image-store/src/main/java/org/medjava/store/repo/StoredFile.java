package org.medjava.store.repo;

import java.nio.file.Path;
import java.time.Instant;

/**
 * What the repository knows about one stored file or directory, read from the file system in one stat.
 *
 * @param etag        strong entity tag (quoted); a new one for every write, because every write is a new file
 * @param contentType the media type served for a file; null for directories
 */
public record StoredFile(StorePath path, Path file, boolean directory, long size, Instant modified, String etag,
                         String contentType) {
}
