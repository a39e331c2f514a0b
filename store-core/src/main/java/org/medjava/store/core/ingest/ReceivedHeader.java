package org.medjava.store.core.ingest;

import java.util.regex.Pattern;

/**
 * The identifying attributes of a received object: enough to check it against what the sender announced and to
 * place it in the store; made by {@link DicomRules#header}, which checks them.
 */
record ReceivedHeader(String transferSyntaxUid, String sopClassUid, String sopInstanceUid, String studyInstanceUid,
                      String seriesInstanceUid, String patientId) {

    private static final Pattern UID = Pattern.compile("(0|[1-9][0-9]*)(\\.(0|[1-9][0-9]*))*");

    /** Whether {@code value} is a well-formed UID: digits and dots, no leading zeros, at most 64 characters. */
    static boolean isUid(String value) {
        return value != null && value.length() <= 64 && UID.matcher(value).matches();
    }
}
