package org.medjava.store.core.index;

import jakarta.json.bind.annotation.JsonbProperty;
import java.time.Instant;

/**
 * One entry of the change feed ({@link DicomIndex#changes}).
 *
 * @param seq     its number: increasing in commit order across every node sharing the database, with gaps
 * @param kind    {@value #CREATED}, {@value #UPDATED}, {@value #DELETED}, {@value #REJECTED}, {@value #RESTORED},
 *                {@value #PURGED} or {@value #ROUTED}
 * @param trashId the trash deletion it belongs to (deleted into, restored or purged from the trash), else null
 */
public record Change(long seq, String kind, Instant at,
        @JsonbProperty("StudyInstanceUID") String studyInstanceUid,
        @JsonbProperty("SeriesInstanceUID") String seriesInstanceUid,
        @JsonbProperty("SOPInstanceUID") String sopInstanceUid, String path, String trashId) {
    /** An instance indexed where none was. */
    public static final String CREATED = "created";
    /** The file of an indexed instance replaced. */
    public static final String UPDATED = "updated";
    /** Gone for users: removed, or moved into the trash (then with its trash id). */
    public static final String DELETED = "deleted";
    /** Gone for users by an IOCM rejection note: moved into the trash (with its trash id), as a deletion. */
    public static final String REJECTED = "rejected";
    /** Back from the trash. */
    public static final String RESTORED = "restored";
    /** Removed from the trash for good (its grace period ended, an administrator purged it, or it was replaced). */
    public static final String PURGED = "purged";
    /** Sent to a routing rule's destination (one entry per instance and rule; the receiver may have held it). */
    public static final String ROUTED = "routed";

    /** Whether this change took the instance into the trash (a deletion or a rejection). */
    public boolean intoTrash() {
        return trashId != null && (kind.equals(DELETED) || kind.equals(REJECTED));
    }
}
