package org.medjava.store.ingest;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.DicomInputStream;
import com.pixelmed.dicom.TagFromName;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.medjava.codec.ImageFormat;
import org.medjava.codec.dicom.DicomCodec;

/**
 * The identifying attributes of a received Part 10 file, read up to (not including) Pixel Data without decoding
 * anything: enough to check it against what the sender announced and to place it in the store.
 */
record ReceivedHeader(String transferSyntaxUid, String sopClassUid, String sopInstanceUid, String studyInstanceUid,
                      String seriesInstanceUid, String patientId) {

    private static final Pattern UID = Pattern.compile("(0|[1-9][0-9]*)(\\.(0|[1-9][0-9]*))*");

    static ReceivedHeader read(Path file) throws IngestFailure, IOException {
        byte[] head;
        try (InputStream in = Files.newInputStream(file)) {
            head = in.readNBytes(ImageFormat.SNIFF_LENGTH);
        }
        if (!DicomCodec.isDicom(head)) {
            throw new IngestFailure(IngestFailure.Reason.CANNOT_UNDERSTAND, head.length == 0 ? "the object is empty"
                    : "not a DICOM Part 10 object (no \"DICM\" after the 128-byte preamble)");
        }
        AttributeList list = new AttributeList();
        list.setDecompressPixelData(false);
        try (DicomInputStream in = new DicomInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
            list.read(in, TagFromName.PixelData);
        } catch (DicomException | RuntimeException e) {
            throw new IngestFailure(IngestFailure.Reason.CANNOT_UNDERSTAND, "the data set does not parse: "
                    + e.getMessage(), e);
        } catch (IOException e) {
            throw new IngestFailure(IngestFailure.Reason.CANNOT_UNDERSTAND, "the data set does not parse: " + e, e);
        }
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
