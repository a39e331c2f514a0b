package org.medjava.store.core.ingest;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.SOPClass;
import com.pixelmed.dicom.SOPClassDescriptions;
import com.pixelmed.dicom.TagFromName;
import java.io.IOException;
import java.util.Locale;
import org.medjava.codec.ImageDecodeException;
import org.medjava.codec.dicom.CodedFrameSize;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.repo.UploadValidator;

/**
 * The one rule set a DICOM object must pass to be stored, whichever door it comes through (HTTP PUT, C-STORE,
 * STOW-RS, retrieves: all through {@link Ingest}), so the same bytes get the same verdict everywhere. An object is
 * validated as DICOM, not as an image: it must be Part 10 and parse to its end, be of a storage SOP class (every one
 * of PS3.4 Annex B), and carry the UIDs that identify and place it (SOP Class, SOP Instance, Study and Series
 * Instance UIDs). Pixel Data are checked only where they exist (they must decode, or be of a syntax the store keeps
 * without decoding); an object of an image SOP class must have them.
 *
 * <p>Every refusal names its {@link Problem} first ("truncated: …", "missing required attribute: …"), so the
 * reason reads the same in an HTTP error body, a C-STORE Error Comment and the store's log.
 */
public final class DicomRules {

    /** The root of the storage SOP classes of PS3.4 Annex B; newer classes than PixelMed's list are under it too. */
    static final String STORAGE_ROOT = "1.2.840.10008.5.1.4.1.1.";

    /** What was wrong with a refused object: the first words of every refusal's reason. */
    public enum Problem {
        /** Not a Part 10 file (no preamble and "DICM"). */
        NOT_PART10("not DICOM Part 10"),
        /** The data set ends before a value or element it declares. */
        TRUNCATED("truncated"),
        /** Complete, but not well-formed DICOM (impossible lengths, bad nesting, values that cannot be read). */
        MALFORMED("malformed"),
        /** A UID or other attribute every stored object needs is absent or empty. */
        MISSING_ATTRIBUTE("missing required attribute"),
        /** An identifying UID is present but not a UID. */
        INVALID_UID("invalid UID"),
        /** The SOP class is not a storage SOP class. */
        NOT_STORAGE("not a storage SOP class"),
        /** A storage SOP class whose objects belong to no patient and study, where the store keeps everything. */
        NOT_KEPT("SOP class not kept"),
        /** An image SOP class without Pixel Data (the data set is complete: not truncated). */
        MISSING_PIXEL_DATA("missing Pixel Data"),
        /** Pixel Data described by attributes DICOM does not define (a Photometric Interpretation "BOGUS"). */
        INVALID_PIXEL_DESCRIPTION("invalid pixel description"),
        /** Pixel Data present that do not decode. */
        UNDECODABLE_PIXEL_DATA("pixel data do not decode");

        /** How the reason begins. */
        public final String words;

        Problem(String words) {
            this.words = words;
        }

        /** The problem a reason names (by its first words), if any. */
        public static java.util.Optional<Problem> of(String reason) {
            if (reason != null) {
                for (Problem p : values()) {
                    if (reason.startsWith(p.words + ":")) {
                        return java.util.Optional.of(p);
                    }
                }
            }
            return java.util.Optional.empty();
        }
    }

    /**
     * Storage SOP classes the store does not keep although PS3.4 lists them: their objects belong to no patient and
     * no study (PS3.3's non-patient objects: colour palettes, implant templates, defined procedure protocols and
     * their approvals; and the DICOMDIR, whose data set is a media directory without a SOP Class UID of its own),
     * while the store keeps every object under its patient, study and series. Refused at every door, C-STORE
     * negotiation included, and not listed as accepted in the conformance statement.
     */
    static final java.util.Map<String, String> NOT_KEPT = java.util.Map.of(
            "1.2.840.10008.1.3.10", "a media storage directory (DICOMDIR) describes files on a medium",
            "1.2.840.10008.5.1.4.39.1", "a colour palette",
            "1.2.840.10008.5.1.4.43.1", "an implant template",
            "1.2.840.10008.5.1.4.44.1", "an implant assembly template",
            "1.2.840.10008.5.1.4.45.1", "an implant template group",
            "1.2.840.10008.5.1.4.1.1.200.1", "a defined procedure protocol",
            "1.2.840.10008.5.1.4.1.1.200.3", "a protocol approval",
            "1.2.840.10008.5.1.4.1.1.200.7", "a defined procedure protocol");

    /**
     * The Photometric Interpretations DICOM defines (PS3.3 C.7.6.3.1.2, retired ones included): pixel data described
     * by one the store cannot render are kept and served as they are; pixel data described by anything else are not
     * DICOM and refused.
     */
    static final java.util.Set<String> PHOTOMETRIC_INTERPRETATIONS = java.util.Set.of("MONOCHROME1", "MONOCHROME2",
            "PALETTE COLOR", "RGB", "YBR_FULL", "YBR_FULL_422", "YBR_PARTIAL_420", "YBR_ICT", "YBR_RCT", "XYB",
            "HSV", "ARGB", "CMYK", "YBR_PARTIAL_422");

    private DicomRules() {
    }

    /**
     * Whether the store keeps objects of this SOP class: every storage SOP class PixelMed knows (PS3.4 Annex B, with
     * the retired and the common private ones) and any other under the Annex B root (classes newer than PixelMed).
     * The DIMSE service offers exactly these in negotiation.
     */
    public static boolean isStorageSopClass(String sopClassUid) {
        if (sopClassUid == null || sopClassUid.isBlank()) {
            return false;
        }
        String uid = sopClassUid.trim();
        return SOPClass.isStorage(uid) || (uid.startsWith(STORAGE_ROOT) && ReceivedHeader.isUid(uid));
    }

    /**
     * Whether the store keeps objects of this SOP class: a storage SOP class ({@link #isStorageSopClass}) whose
     * objects belong to a patient and a study (not one of {@link #NOT_KEPT}). The DIMSE service accepts exactly these
     * in negotiation.
     */
    public static boolean isKept(String sopClassUid) {
        return isStorageSopClass(sopClassUid) && !NOT_KEPT.containsKey(sopClassUid.trim());
    }

    /** Why objects of a storage SOP class the store does not keep ({@link #isKept}) are refused. */
    public static String notKept(String sopClassUid) {
        String uid = sopClassUid.trim();
        return Problem.NOT_KEPT.words + ": " + SOPClassDescriptions.getDescriptionFromUID(uid) + " (" + uid + "): "
                + NOT_KEPT.getOrDefault(uid, "an object") + " and belongs to no patient or study; the store keeps"
                + " objects under their patient, study and series only";
    }

    /** Whether an object of this class must hold pixels: the image storage SOP classes. */
    public static boolean needsPixelData(String sopClassUid) {
        return SOPClass.isImageStorage(sopClassUid);
    }

    /** The SOP class by name in lower case ("comprehensive sr storage" becomes "structured report"), or its UID. */
    public static String describe(String sopClassUid) {
        if (SOPClass.isStructuredReport(sopClassUid) || SOPClass.isKeyObjectSelectionDocument(sopClassUid)) {
            return SOPClass.isKeyObjectSelectionDocument(sopClassUid) ? "key object selection" : "structured report";
        }
        String name = SOPClassDescriptions.getDescriptionFromUID(sopClassUid);
        if (name == null || name.isBlank()) {
            return "SOP class " + sopClassUid;
        }
        return name.replaceFirst(" Storage$", "");
    }

    /** Whether a data set holds pixels of any kind (integer, float or double float Pixel Data). */
    public static boolean hasPixelData(AttributeList dataSet) {
        return dataSet.get(TagFromName.PixelData) != null || dataSet.get(TagFromName.FloatPixelData) != null
                || dataSet.get(TagFromName.DoubleFloatPixelData) != null;
    }

    /**
     * Why a stored DICOM object cannot be rendered when the reason is that it has no pixels: "no pixel data:
     * structured report (…)"; null when it has Pixel Data, or cannot be read (the decoder's reason stands then).
     * Asked only once a decode failed, so a rendering pays nothing for it.
     */
    public static String noPixelData(java.nio.file.Path file) {
        try (java.io.InputStream head = java.nio.file.Files.newInputStream(file)) {
            if (!org.medjava.codec.dicom.DicomCodec.isDicom(head.readNBytes(132))) {
                return null; // not DICOM (a PNG, …): the decoder's reason stands
            }
        } catch (IOException e) {
            return null;
        }
        try (java.io.InputStream in = new java.io.BufferedInputStream(org.medjava.store.core.memory.SmallReads.open(file))) {
            // before PixelMed recurses: nesting deeper than the pre-scan allows would overflow its stack
            org.medjava.codec.dicom.DicomPreScan.checkPart10(in, java.nio.file.Files.size(file), true);
        } catch (IOException | RuntimeException e) {
            return null; // malformed: the decoder's reason stands
        }
        AttributeList list = new AttributeList();
        list.setDecompressPixelData(false);
        try (com.pixelmed.dicom.DicomInputStream in = org.medjava.codec.dicom.PixelMedInput.open(
                org.medjava.store.core.memory.SmallReads.open(file))) {
            list.read(in);
        } catch (IOException | com.pixelmed.dicom.DicomException | RuntimeException e) {
            return null;
        }
        return hasPixelData(list) ? null : noPixelData(value(list, TagFromName.SOPClassUID));
    }

    /** "no pixel data: structured report (Comprehensive SR Storage): nothing to render". */
    public static String noPixelData(String sopClassUid) {
        String name = SOPClassDescriptions.getDescriptionFromUID(sopClassUid);
        String kind = describe(sopClassUid);
        return "no pixel data: " + kind + (name != null && !name.isBlank() && !name.startsWith(kind) ? " (" + name
                + ")" : "") + ": nothing to render; the object is kept and served as stored";
    }

    /**
     * The header rules, on a data set parsed to its end: transfer syntax, SOP class (present, a UID, a storage
     * class), SOP Instance, Study and Series Instance UIDs, and Pixel Data where the class needs them.
     *
     * @throws IngestFailure CANNOT_UNDERSTAND or SOP_CLASS_NOT_SUPPORTED with the problem named first
     */
    static ReceivedHeader header(AttributeList list) throws IngestFailure {
        String ts = value(list, TagFromName.TransferSyntaxUID);
        if (ts.isEmpty()) {
            throw refused(Problem.MALFORMED, "the file meta information has no Transfer Syntax UID (0002,0010)");
        }
        if (!ReceivedHeader.isUid(ts)) {
            throw refused(Problem.INVALID_UID, "TransferSyntaxUID (0002,0010) \"" + ts + "\" is not a valid UID, so"
                    + " the encoding of the data set is unknown");
        }
        String announced = value(list, TagFromName.MediaStorageSOPClassUID);
        if (value(list, TagFromName.SOPClassUID).isEmpty() && NOT_KEPT.containsKey(announced)) {
            throw new IngestFailure(IngestFailure.Reason.SOP_CLASS_NOT_SUPPORTED, notKept(announced)); // a DICOMDIR
        }
        String sopClass = uid(list, TagFromName.SOPClassUID, "SOPClassUID (0008,0016)");
        if (!isStorageSopClass(sopClass)) {
            throw new IngestFailure(IngestFailure.Reason.SOP_CLASS_NOT_SUPPORTED, Problem.NOT_STORAGE.words + ": "
                    + sopClass + " (" + describe(sopClass) + ") is not one of PS3.4 Annex B");
        }
        if (!isKept(sopClass)) {
            throw new IngestFailure(IngestFailure.Reason.SOP_CLASS_NOT_SUPPORTED, notKept(sopClass));
        }
        ReceivedHeader header = new ReceivedHeader(ts, sopClass,
                uid(list, TagFromName.SOPInstanceUID, "SOPInstanceUID (0008,0018)"),
                uid(list, TagFromName.StudyInstanceUID, "StudyInstanceUID (0020,000D)"),
                uid(list, TagFromName.SeriesInstanceUID, "SeriesInstanceUID (0020,000E)"),
                value(list, TagFromName.PatientID));
        if (needsPixelData(sopClass) && !hasPixelData(list)) {
            throw refused(Problem.MISSING_PIXEL_DATA, describe(sopClass) + " needs Pixel Data (7FE0,0010) and this"
                    + " data set, complete otherwise, has none");
        }
        if (list.get(TagFromName.PixelData) != null) {
            String photometric = value(list, TagFromName.PhotometricInterpretation);
            if (photometric.isEmpty()) {
                throw refused(Problem.MISSING_ATTRIBUTE, "PhotometricInterpretation (0028,0004), which Pixel Data"
                        + " (7FE0,0010) need");
            }
            if (!PHOTOMETRIC_INTERPRETATIONS.contains(photometric)) {
                throw refused(Problem.INVALID_PIXEL_DESCRIPTION, "PhotometricInterpretation (0028,0004) \""
                        + photometric + "\" is not one DICOM defines (" + String.join(", ",
                        new java.util.TreeSet<>(PHOTOMETRIC_INTERPRETATIONS)) + ")");
            }
        }
        return header;
    }

    /**
     * The size rule on a staged object, from its header (read up to the pixel data, as a rendering reads it):
     * an image that could never be rendered here ({@link UploadValidator#requireRenderable}) is refused before its
     * data set is parsed. An object without an image, or whose header the parse then refuses, passes here. Only for
     * objects with a top-level Pixel Data ({@code DicomPreScan}): the header read keeps every byte before them in
     * memory, so without them it would hold the whole object (a 1 GiB encapsulated PDF) once more.
     *
     * @throws IngestFailure OUT_OF_RESOURCES, with the image's size, the estimate and the decode budget
     */
    static void renderable(java.nio.file.Path file, long size, UploadValidator validator) throws IngestFailure,
            IOException {
        try {
            byte[] head;
            try (java.io.InputStream in = java.nio.file.Files.newInputStream(file)) {
                head = in.readNBytes(HEAD);
            }
            validator.requireRenderable(org.medjava.codec.ImageHeader.peek(file),
                    org.medjava.codec.dicom.DicomCodec.transferSyntaxOf(head), size);
        } catch (ImageDecodeException e) {
            // no image, or a header the parse refuses with its own reason
        } catch (StoreException e) {
            throw new IngestFailure(IngestFailure.Reason.OUT_OF_RESOURCES, e.getMessage(), e);
        }
    }

    /** How much of a body {@link #renderableFromHead} looks at: every header this side of large private data. */
    static final int HEAD = 256 * 1024;

    /**
     * The size rule on the first bytes of a body still arriving ({@link #HEAD} of them, or all of a shorter one): a
     * DICOM image that could never be rendered here is refused before the rest of it is received. When the header
     * does not fit in these bytes, or cannot be read from them, the rule is applied to the whole object later.
     *
     * @param declaredLength the body's length if announced, else -1
     * @throws StoreException TOO_LARGE
     */
    static void renderableFromHead(byte[] head, long declaredLength, UploadValidator validator) {
        if (!org.medjava.codec.dicom.DicomCodec.isDicom(head)) {
            return;
        }
        try {
            String ts = org.medjava.codec.dicom.DicomCodec.transferSyntaxOf(head);
            org.medjava.codec.ImageHeader header = org.medjava.codec.ImageHeader.peek(
                    new java.io.ByteArrayInputStream(head));
            validator.requireRenderable(header, ts, Math.max(declaredLength, head.length));
        } catch (IOException e) {
            // not decidable from these bytes: decided on the whole object
        }
    }

    /**
     * The pixel rule: Pixel Data (7FE0,0010), where present, decode — or are of a kind the store keeps without
     * decoding it (JPEG-LS, 12-bit JPEG, …), which the validator lets pass.
     *
     * @throws IngestFailure CANNOT_UNDERSTAND: truncated or undecodable pixel data
     */
    static void pixels(ReceivedDataSet received, UploadValidator validator) throws IngestFailure, IOException {
        if (received.dataSet().get(TagFromName.PixelData) == null) {
            return; // nothing to decode: float pixel data and non-image objects are kept as they are
        }
        try { // frame 0 is decoded below; every frame must at least claim the size Rows x Columns say
            CodedFrameSize.requireEveryFrame(received.dataSet(), Attribute.getSingleStringValueOrEmptyString(
                    received.dataSet(), TagFromName.TransferSyntaxUID).trim());
        } catch (ImageDecodeException e) {
            throw refused(Problem.UNDECODABLE_PIXEL_DATA, e.getMessage());
        }
        try {
            validator.checkDicom(received.load());
        } catch (StoreException e) {
            String detail = e.getMessage().replace("the body is DICOM but does not decode: ", "");
            throw refused(detail.toLowerCase(Locale.ROOT).contains("truncated") ? Problem.TRUNCATED
                    : Problem.UNDECODABLE_PIXEL_DATA, detail);
        }
    }

    /** A failure of the parse ({@link ReceivedDataSet#read}) as the problem it is: truncated or malformed. */
    static IngestFailure unparsable(String detail, Throwable cause) {
        Problem p = detail != null && detail.toLowerCase(Locale.ROOT).contains("truncated")
                || cause instanceof java.io.EOFException ? Problem.TRUNCATED : Problem.MALFORMED;
        return new IngestFailure(IngestFailure.Reason.CANNOT_UNDERSTAND, p.words + ": " + detail, cause);
    }

    static IngestFailure refused(Problem problem, String detail) {
        return new IngestFailure(IngestFailure.Reason.CANNOT_UNDERSTAND, problem.words + ": " + detail);
    }

    /**
     * The HTTP form of a refusal: 422 with the same reason a C-STORE or STOW-RS sender gets (413 when over the
     * upload limit).
     */
    static StoreException asHttp(IngestFailure e) {
        StoreException.Kind kind = e.reason() == IngestFailure.Reason.OUT_OF_RESOURCES ? StoreException.Kind.TOO_LARGE
                : StoreException.Kind.UNPROCESSABLE;
        return new StoreException(kind, e.getMessage(), e);
    }

    private static String uid(AttributeList list, AttributeTag tag, String name) throws IngestFailure {
        String value = value(list, tag);
        if (value.isEmpty()) {
            throw refused(Problem.MISSING_ATTRIBUTE, name);
        }
        if (!ReceivedHeader.isUid(value)) {
            throw refused(Problem.INVALID_UID, name + " \"" + value + "\" is not a valid UID");
        }
        return value;
    }

    private static String value(AttributeList list, AttributeTag tag) {
        return Attribute.getSingleStringValueOrEmptyString(list, tag).trim();
    }
}
