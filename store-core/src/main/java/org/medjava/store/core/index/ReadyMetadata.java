package org.medjava.store.core.index;

/**
 * The WADO-RS metadata of a whole series or study (a DICOM JSON array, gzip-compressed) as the index keeps it ready
 * for one public base URL (its BulkDataURIs are absolute). See {@link DicomIndex#readyMetadata}.
 *
 * @param studyUid   the study it belongs to (the study itself at study level)
 * @param patientId  the study's patient, for the audit trail
 * @param instances  how many instances it describes
 * @param version    the number of the newest change of the series or study when it was made: it is current while
 *                   that is still the newest
 * @param jsonLength the length of the JSON in bytes, uncompressed
 * @param gzip       the JSON, gzip-compressed
 */
public record ReadyMetadata(Level level, String uid, String studyUid, String patientId, int instances,
        long version, long jsonLength, byte[] gzip) {

    /** What it describes. */
    public enum Level { SERIES, STUDY }
}
