package org.medjava.store.core.ingest;

import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.DicomInputStream;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.medjava.codec.dicom.DicomCodec;
import org.medjava.codec.dicom.DicomPreScan;
import org.medjava.codec.dicom.DicomStructureException;
import org.medjava.codec.dicom.PixelMedInput;
import org.medjava.store.core.memory.SmallReads;
import org.medjava.store.core.repo.UploadValidator;

/**
 * A received Part 10 object in its staging file, its data set parsed once from the file as a stream (pixel data
 * left as encoded; the file's bytes are not held) for the checks against the announcement, the archive path, the
 * index entry (columns and DICOM JSON) and the check of uncompressed pixel data. Only pixel data that must be decoded
 * to be checked (compressed, or in an unusual layout) are read again, by the decoder ({@link #load}).
 */
record ReceivedDataSet(AttributeList dataSet, Path file) {

    /** The object's bytes, read now in small pieces ({@link SmallReads}): for decoders only. */
    byte[] load() throws IOException {
        return SmallReads.readAllBytes(file);
    }

    /**
     * A received object parsed from its file as a stream, without holding the file's bytes ({@link #load} reads them
     * if a decoder needs them).
     *
     * @param maxBytes  the store's upload limit: a larger object is refused before it is read
     * @param validator what says, from the header, whether an image could ever be rendered here
     * @throws IngestFailure OUT_OF_RESOURCES when over the limit or an image that could never be rendered (from its
     *                       header, before the data set is parsed), CANNOT_UNDERSTAND when not Part 10, its meta
     *                       information's group length lies, or the data set does not parse to its end
     */
    static ReceivedDataSet read(Path file, long maxBytes, UploadValidator validator) throws IngestFailure,
            IOException {
        long size = Files.size(file);
        if (size > maxBytes) {
            throw new IngestFailure(IngestFailure.Reason.OUT_OF_RESOURCES, "the object (" + size + " bytes) is over"
                    + " the store's upload limit of " + maxBytes + " bytes (medjava.upload.max-bytes)");
        }
        byte[] head;
        try (InputStream in = Files.newInputStream(file)) {
            head = in.readNBytes(132);
        }
        if (!DicomCodec.isDicom(head)) {
            throw new IngestFailure(IngestFailure.Reason.CANNOT_UNDERSTAND, DicomRules.Problem.NOT_PART10.words + ": "
                    + (size == 0 ? "the object is empty" : "no \"DICM\" after the 128-byte preamble"));
        }
        String lie;
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file))) {
            lie = Part10File.metaGroupLengthProblem(in);
        }
        if (lie != null) {
            throw DicomRules.refused(DicomRules.Problem.MALFORMED, lie);
        }
        boolean pixelData;
        try (InputStream in = SmallReads.open(file)) {
            // before PixelMed recurses into nesting that would overflow
            pixelData = DicomPreScan.checkPart10(in, size, false);
        } catch (DicomStructureException e) {
            throw DicomRules.unparsable(e.getMessage(), e);
        }
        if (pixelData) { // a header read stops at Pixel Data; without them it would read (and hold) every value
            DicomRules.renderable(file, size, validator); // from the header, before the pixel data are parsed
        }
        AttributeList list = new AttributeList();
        list.setDecompressPixelData(false);
        try (DicomInputStream in = PixelMedInput.open(SmallReads.open(file))) { // HTJ2K too
            list.read(in);
        } catch (DicomException | RuntimeException e) {
            throw DicomRules.unparsable("the data set does not parse: " + e.getMessage(), e);
        } catch (IOException e) {
            throw DicomRules.unparsable("the data set does not parse: " + e.getMessage(), e);
        }
        return new ReceivedDataSet(list, file);
    }

    /**
     * The identifying attributes, checked by the header rules ({@link DicomRules#header}).
     *
     * @throws IngestFailure when a rule refuses the object
     */
    ReceivedHeader identity() throws IngestFailure {
        return DicomRules.header(dataSet);
    }
}
