package org.medjava.store.core.ingest;

/**
 * What the sender announced about an object before its bytes arrived, to be checked against the data set: the
 * SOP class and instance of a C-STORE request, the study of a STOW-RS request to {@code /studies/{uid}}. Null
 * fields are not checked.
 */
public record Expected(String sopClassUid, String sopInstanceUid, String studyInstanceUid) {

    public static final Expected NOTHING = new Expected(null, null, null);

    public static Expected sop(String sopClassUid, String sopInstanceUid) {
        return new Expected(sopClassUid, sopInstanceUid, null);
    }

    public static Expected study(String studyInstanceUid) {
        return new Expected(null, null, studyInstanceUid);
    }

    void check(ReceivedHeader header) throws IngestFailure {
        mismatch("SOP Class UID", sopClassUid, header.sopClassUid());
        mismatch("SOP Instance UID", sopInstanceUid, header.sopInstanceUid());
        mismatch("Study Instance UID", studyInstanceUid, header.studyInstanceUid());
    }

    private static void mismatch(String what, String announced, String actual) throws IngestFailure {
        if (announced != null && !announced.equals(actual)) {
            throw new IngestFailure(IngestFailure.Reason.DATA_SET_DOES_NOT_MATCH, "the data set's " + what + " "
                    + actual + " differs from the " + announced + " it was sent as");
        }
    }
}
