package org.medjava.store.ingest;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.TagFromName;
import java.util.regex.Pattern;

/**
 * The identifying attributes of a received object: enough to check it against what the sender announced and to
 * place it in the store.
 */
record ReceivedHeader(String transferSyntaxUid, String sopClassUid, String sopInstanceUid, String studyInstanceUid,
                      String seriesInstanceUid, String patientId) {

    private static final Pattern UID = Pattern.compile("(0|[1-9][0-9]*)(\\.(0|[1-9][0-9]*))*");

    /** @throws IngestFailure CANNOT_UNDERSTAND when the transfer syntax or a UID is missing, or a UID malformed */
    static ReceivedHeader of(AttributeList list) throws IngestFailure {
        String ts = value(list, TagFromName.TransferSyntaxUID);
        if (ts.isEmpty()) {
            throw new IngestFailure(IngestFailure.Reason.CANNOT_UNDERSTAND,
                    "the file meta information has no Transfer Syntax UID");
        }
        return new ReceivedHeader(ts, uid(list, TagFromName.SOPClassUID, "SOPClassUID"),
                uid(list, TagFromName.SOPInstanceUID, "SOPInstanceUID"),
                uid(list, TagFromName.StudyInstanceUID, "StudyInstanceUID"),
                uid(list, TagFromName.SeriesInstanceUID, "SeriesInstanceUID"), value(list, TagFromName.PatientID));
    }

    /** Whether {@code value} is a well-formed UID: digits and dots, no leading zeros, at most 64 characters. */
    static boolean isUid(String value) {
        return value != null && value.length() <= 64 && UID.matcher(value).matches();
    }

    private static String uid(AttributeList list, AttributeTag tag, String keyword) throws IngestFailure {
        String value = value(list, tag);
        if (value.isEmpty()) {
            throw new IngestFailure(IngestFailure.Reason.CANNOT_UNDERSTAND, "the data set has no " + keyword);
        }
        if (!isUid(value)) {
            throw new IngestFailure(IngestFailure.Reason.CANNOT_UNDERSTAND, keyword + " \"" + value
                    + "\" is not a valid UID");
        }
        return value;
    }

    private static String value(AttributeList list, AttributeTag tag) {
        return Attribute.getSingleStringValueOrEmptyString(list, tag).trim();
    }
}
