package org.medjava.store.ingest;

import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.DicomInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.medjava.codec.dicom.DicomCodec;
import org.medjava.codec.dicom.DicomPreScan;
import org.medjava.codec.dicom.DicomStructureException;

/**
 * A received Part 10 object, read from its staging file once: its bytes, and its data set parsed once (pixel data
 * left as encoded) for the checks against the announcement, the archive path, the index entry (columns and DICOM
 * JSON) and the check of uncompressed pixel data. Only pixel data that must be decoded to be checked (compressed, or
 * in an unusual layout) are parsed again, by the decoder.
 */
record ReceivedDataSet(byte[] bytes, AttributeList dataSet) {

    /**
     * The bytes of a received object.
     *
     * @param maxBytes the store's upload limit: a larger object is refused before it is read
     * @throws IngestFailure OUT_OF_RESOURCES when over the limit, CANNOT_UNDERSTAND when not Part 10
     */
    static byte[] readBytes(Path file, long maxBytes) throws IngestFailure, IOException {
        long size = Files.size(file);
        if (size > maxBytes) {
            throw new IngestFailure(IngestFailure.Reason.OUT_OF_RESOURCES, "the object (" + size + " bytes) is over"
                    + " the store's upload limit of " + maxBytes + " bytes (medjava.upload.max-bytes)");
        }
        byte[] bytes = Files.readAllBytes(file);
        if (!DicomCodec.isDicom(bytes)) {
            throw new IngestFailure(IngestFailure.Reason.CANNOT_UNDERSTAND, bytes.length == 0 ? "the object is empty"
                    : "not a DICOM Part 10 object (no \"DICM\" after the 128-byte preamble)");
        }
        return bytes;
    }

    /**
     * The identifying attributes.
     *
     * @throws IngestFailure CANNOT_UNDERSTAND when the transfer syntax or a UID is missing, or a UID malformed
     */
    ReceivedHeader identity() throws IngestFailure {
        return ReceivedHeader.of(dataSet);
    }

    /**
     * Parses a Part 10 object.
     *
     * @throws IngestFailure CANNOT_UNDERSTAND when the data set does not parse to its end
     */
    static ReceivedDataSet parse(byte[] bytes) throws IngestFailure {
        try {
            DicomPreScan.checkPart10(bytes); // before PixelMed recurses into nesting that would overflow the stack
        } catch (DicomStructureException e) {
            throw new IngestFailure(IngestFailure.Reason.CANNOT_UNDERSTAND, e.getMessage(), e);
        }
        AttributeList list = new AttributeList();
        list.setDecompressPixelData(false);
        try (DicomInputStream in = new DicomInputStream(new ByteArrayInputStream(bytes))) {
            list.read(in);
        } catch (DicomException | RuntimeException e) {
            throw new IngestFailure(IngestFailure.Reason.CANNOT_UNDERSTAND, "the data set does not parse: "
                    + e.getMessage(), e);
        } catch (IOException e) {
            throw new IngestFailure(IngestFailure.Reason.CANNOT_UNDERSTAND, "the data set does not parse: " + e, e);
        }
        return new ReceivedDataSet(bytes, list);
    }
}
