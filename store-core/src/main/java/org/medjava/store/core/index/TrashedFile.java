package org.medjava.store.core.index;

import java.time.Instant;

/**
 * A file in the trash (see {@link DicomIndex#trash}).
 *
 * @param level        what its deletion named: STUDY, SERIES or INSTANCE; or {@value #VERSION}: the previous version
 *                     of an instance a correction rewrote, kept where it is or as a copy (see {@link DicomIndex#hold})
 * @param size         its size when it was trashed
 * @param lastModified when it had been written (epoch milliseconds), as the storage said when it was indexed: with
 *                     the size, what tells this file from one written at its path since
 */
public record TrashedFile(String path, String trashId, String level, String studyInstanceUid,
        String seriesInstanceUid, String sopInstanceUid, long size, long lastModified, Instant trashedAt,
        Instant purgeAfter, String trashedBy, String reason) {

    /** The level of a previous version kept by a correction. */
    public static final String VERSION = "VERSION";

    /** Whether the storage's entry ({@code size}, {@code modifiedMillis}) is still this file. */
    public boolean isFile(long size, long modifiedMillis) {
        return this.size == size && this.lastModified == modifiedMillis;
    }
}
