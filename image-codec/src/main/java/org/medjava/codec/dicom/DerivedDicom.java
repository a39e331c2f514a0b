package org.medjava.codec.dicom;

import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.DicomInputStream;
import com.pixelmed.dicom.TagFromName;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;
import org.medjava.codec.ImageCodec;
import org.medjava.codec.ImageDecodeException;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Raster;

/**
 * Writes a filtered raster as a derived DICOM object, so that a PACS shows the processed image as a new series of
 * the source's study: a Secondary Capture Image (8-bit MONOCHROME2 or RGB, Explicit VR Little Endian, uncompressed)
 * that keeps the source's patient and study, has new SOP Instance and Series Instance UIDs ({@link Uids}) and
 * references the source in its Source Image Sequence. See image-codec/README.md for every attribute written.
 * <pre>
 *   DerivedDicom.Request request = DerivedDicom.from(sourceFile)
 *           .derivationDescription("MedJava filters: blur n=3 + sharpen p=50");
 *   request.write(filtered, Path.of("out.dcm"));   // more writes of the same request share its series
 * </pre>
 * Rasters of a non-DICOM source (PNG, GIF upload) go into a new study: {@link #newStudy(String, String)}.
 */
public final class DerivedDicom {
    /** Secondary Capture Image Storage. */
    public static final String SECONDARY_CAPTURE = "1.2.840.10008.5.1.4.1.1.7";
    /** CT Image Storage: a grey derived image of a CT stays a CT (ImageType DERIVED\SECONDARY). */
    public static final String CT_IMAGE = "1.2.840.10008.5.1.4.1.1.2";
    /** MR Image Storage: a grey derived image of an MR stays an MR (ImageType DERIVED\SECONDARY). */
    public static final String MR_IMAGE = "1.2.840.10008.5.1.4.1.1.4";

    /**
     * Software that changed the pixels, recorded as one item of the Contributing Equipment Sequence (0018,A001):
     * Manufacturer "MedJava", Manufacturer's Model Name = {@code modelName} (a filter plugin's id), Software Versions
     * = {@code version} and the 64 hex digits of {@code sha256} (LO holds 64 characters, so the digits go without a
     * "sha256:" prefix; the Contribution Description repeats them with it), Purpose of Reference (DCM 109103
     * "Modifying Equipment"), Contribution Date Time, and Contribution Description = {@code description} (e.g. the
     * filter step) followed by "; sha256:&lt;hex&gt;".
     *
     * @param sha256 64 hex digits, or null/empty when unknown
     */
    public record Contributor(String modelName, String version, String sha256, String description) {
        public Contributor {
            java.util.Objects.requireNonNull(modelName, "modelName");
            if (sha256 != null && !sha256.isEmpty() && !sha256.matches("[0-9a-fA-F]{64}")) {
                throw new IllegalArgumentException("sha256 must be 64 hex digits, got \"" + sha256 + "\"");
            }
            sha256 = sha256 == null ? "" : sha256.toLowerCase(java.util.Locale.ROOT);
            version = version == null ? "" : version;
            description = description == null ? "" : description;
        }

        /**
         * "filter-blur 1.0 sha256:&lt;hex&gt;, filter-despeckle 1.0 sha256:&lt;hex&gt;": each contributor's model name,
         * version and SHA-256 once, in order of first appearance, for a Derivation Description; empty for none.
         */
        public static String summary(List<Contributor> contributors) {
            return contributors.stream().map(c -> (c.modelName() + " " + c.version()).trim()
                            + (c.sha256().isEmpty() ? "" : " sha256:" + c.sha256()))
                    .distinct().collect(java.util.stream.Collectors.joining(", "));
        }
    }
    /** Derivation Description is ST: at most 1024 characters; longer text is cut. */
    public static final int MAX_DERIVATION_DESCRIPTION = 1024;
    /** LO values (Series Description) hold at most 64 characters. */
    static final int MAX_LO = 64;

    private static final System.Logger LOG = System.getLogger(DerivedDicom.class.getName());

    private DerivedDicom() {
    }

    /** A derived object of the DICOM Part 10 file {@code sourceFile}; only its header is read. */
    public static Request from(Path sourceFile) throws IOException {
        try (InputStream in = new BufferedInputStream(Files.newInputStream(sourceFile), 1 << 16)) {
            return fromHeader(readHeader(in));
        } catch (ImageDecodeException e) {
            throw new ImageDecodeException(sourceFile + ": " + e.getMessage(), e);
        }
    }

    /** A derived object of a whole DICOM Part 10 file held in memory. */
    public static Request from(byte[] sourceFile) throws IOException {
        return fromHeader(readHeader(new ByteArrayInputStream(sourceFile)));
    }

    /** A derived object of the decoded frame {@code image}; multi-frame sources are referenced with its frame. */
    public static Request from(DicomImage image) {
        return from(image.header()).sourceFrame(image.frame());
    }

    /**
     * A derived object of the dataset {@code source} (not modified; it may lack Pixel Data).
     *
     * @throws IllegalArgumentException if it lacks the Study Instance, SOP Class or SOP Instance UID that the
     *     derived object must carry or reference
     */
    public static Request from(AttributeList source) {
        for (var tag : List.of(TagFromName.StudyInstanceUID, TagFromName.SOPClassUID, TagFromName.SOPInstanceUID)) {
            if (DicomCodec.string(source, tag).isEmpty()) {
                throw new IllegalArgumentException("the source DICOM object has no " + AttributeList.getDictionary()
                        .getNameFromTag(tag) + " " + tag + ", so a derived object cannot refer to it");
            }
        }
        return new Request(source, true);
    }

    /**
     * A derived object of an image that is not DICOM (an uploaded PNG or GIF): it starts a new study, with a new
     * Study Instance UID, for the patient given here, and has no Source Image Sequence.
     *
     * @param patientId Patient ID, or null/empty when unknown
     * @param patientName Patient's Name in DICOM form ("Family^Given"), or null/empty when unknown
     */
    public static Request newStudy(String patientId, String patientName) {
        LocalDateTime now = LocalDateTime.now();
        String id = patientId == null ? "" : patientId;
        String name = patientName == null ? "" : patientName;
        AttributeList study = new AttributeList();
        try {
            if (!DerivedDataset.isAscii(id + name)) {
                DerivedDataset.put(study, TagFromName.SpecificCharacterSet, DerivedDataset.UTF8, null);
            }
            var charset = DerivedDataset.charsetOf(study);
            DerivedDataset.put(study, TagFromName.PatientID, id, charset);
            DerivedDataset.put(study, TagFromName.PatientName, name, charset);
            DerivedDataset.put(study, TagFromName.StudyInstanceUID, Uids.newUid(), null);
            DerivedDataset.put(study, TagFromName.StudyDate, DerivedDataset.date(now), null);
            DerivedDataset.put(study, TagFromName.StudyTime, DerivedDataset.time(now), null);
        } catch (DicomException e) {
            throw new IllegalArgumentException("patient ID or name not encodable: " + e.getMessage(), e);
        }
        return new Request(study, false);
    }

    /** The dataset before Pixel Data, refusing what is not a Part 10 file as {@link DicomCodec} does. */
    private static AttributeList readHeader(InputStream in) throws IOException {
        in.mark(132);
        byte[] head = in.readNBytes(132);
        in.reset();
        if (!DicomCodec.isDicom(head)) {
            throw new ImageDecodeException("the source is not a DICOM Part 10 file (no \"DICM\" at offset 128); for "
                    + "a non-DICOM image use DerivedDicom.newStudy(patientId, patientName)");
        }
        AttributeList list = new AttributeList();
        list.setDecompressPixelData(false);
        try (DicomInputStream dicom = new DicomInputStream(in)) {
            list.read(dicom, TagFromName.PixelData);
        } catch (DicomException | IOException | RuntimeException e) {
            throw new ImageDecodeException("DICOM dataset is damaged or truncated: " + e.getMessage(), e);
        }
        return list;
    }

    private static Request fromHeader(AttributeList list) throws ImageDecodeException {
        try {
            return from(list);
        } catch (IllegalArgumentException e) {
            throw new ImageDecodeException(e.getMessage(), e);
        }
    }

    /**
     * What to derive and how; write as many rasters with it as needed. Its Series Instance UID (and for
     * {@link #newStudy} its Study Instance UID) is fixed when it is created, so all objects written with one request
     * form one series, each with a new SOP Instance UID. Not thread-safe.
     */
    public static final class Request {
        final AttributeList source;
        final boolean referencesSource;
        final LocalDateTime seriesCreated = LocalDateTime.now();
        String seriesInstanceUid = Uids.newUid();
        String seriesDescription;
        String derivationDescription;
        List<DerivationCode> derivationCodes = List.of();
        List<Contributor> contributors = List.of();
        Window window;
        int sourceFrame = -1;
        int instanceNumber = -1;
        String sourceAeTitle;
        String nextSopInstanceUid;

        private Request(AttributeList source, boolean referencesSource) {
            this.source = source;
            this.referencesSource = referencesSource;
        }

        /** Free text of what was done, typically the filter chain; cut to 1024 characters. Null for none. */
        public Request derivationDescription(String text) {
            this.derivationDescription = text;
            return this;
        }

        /** CID 7203 codes for the Derivation Code Sequence; none by default (the sequence is then left out). */
        public Request derivationCodes(DerivationCode... codes) {
            this.derivationCodes = List.of(codes);
            return this;
        }

        /**
         * The software that changed the pixels, one Contributing Equipment Sequence item each, in order; none by
         * default.
         */
        public Request contributors(List<Contributor> contributors) {
            this.contributors = List.copyOf(contributors);
            return this;
        }

        /**
         * The Window Center/Width of grey objects written at the source's depth ({@link #write(GrayRaster16,
         * OutputStream)}); null (default) keeps the source's own windows. 8-bit objects always carry the identity
         * window.
         */
        public Request window(Window window) {
            this.window = window;
            return this;
        }

        /**
         * Puts the objects into an existing series (e.g. another frame filtered in the same session); null makes a
         * new one.
         *
         * @throws IllegalArgumentException if {@code uid} is not a valid UID
         */
        public Request seriesInstanceUid(String uid) {
            if (uid != null && !Uids.isValid(uid)) {
                throw new IllegalArgumentException("not a valid DICOM UID: \"" + uid + "\"");
            }
            this.seriesInstanceUid = uid == null ? Uids.newUid() : uid;
            return this;
        }

        /** Null for the default "&lt;source's Series Description&gt; (filtered)"; cut to 64 characters. */
        public Request seriesDescription(String description) {
            this.seriesDescription = description;
            return this;
        }

        /**
         * The source frame (from 0) that was filtered. For a multi-frame source it becomes the Referenced Frame
         * Number, and frame + 1 the default Instance Number, so the frames of one source get distinct numbers.
         */
        public Request sourceFrame(int frame) {
            int frames = DerivedDataset.frameCount(source);
            if (frame < 0 || frame >= frames) {
                throw new IllegalArgumentException("frame " + frame + " does not exist: the source has " + frames
                        + " frame(s)");
            }
            this.sourceFrame = frame;
            return this;
        }

        /** Instance Number (at least 1); by default the source's, or frame + 1 of a multi-frame source, or 1. */
        public Request instanceNumber(int number) {
            if (number < 1) {
                throw new IllegalArgumentException("Instance Number must be at least 1, got " + number);
            }
            this.instanceNumber = number;
            return this;
        }

        /** Source Application Entity Title (0002,0016) of the file meta information; null (default) for none. */
        public Request sourceApplicationEntityTitle(String aeTitle) {
            if (aeTitle != null && !aeTitle.matches("[\\x20-\\x5B\\x5D-\\x7E]{1,16}")) {
                throw new IllegalArgumentException("AE title must be 1-16 printable ASCII characters without '\\': \""
                        + aeTitle + "\"");
            }
            this.sourceAeTitle = aeTitle;
            return this;
        }

        /**
         * The SOP Instance UID of the next object written (later ones get new UIDs again): for a client that must name
         * the object's place (e.g. the store's {@code dicom/} layout) before writing it.
         *
         * @throws IllegalArgumentException if {@code uid} is not a valid UID
         */
        public Request sopInstanceUid(String uid) {
            if (uid != null && !Uids.isValid(uid)) {
                throw new IllegalArgumentException("not a valid DICOM UID: \"" + uid + "\"");
            }
            this.nextSopInstanceUid = uid;
            return this;
        }

        String takeSopInstanceUid() {
            String uid = nextSopInstanceUid != null ? nextSopInstanceUid : Uids.newUid();
            nextSopInstanceUid = null;
            return uid;
        }

        public String seriesInstanceUid() {
            return seriesInstanceUid;
        }

        public String studyInstanceUid() {
            return DicomCodec.string(source, TagFromName.StudyInstanceUID);
        }

        /**
         * The complete object for {@code raster}, file meta information included, with a new SOP Instance UID: for
         * sending it over the network rather than writing a file. Attributes kept from the source are the source's own
         * objects: replace them, do not change them in place.
         */
        public AttributeList attributes(Raster raster) throws IOException {
            try {
                return DerivedDataset.build(this, raster, LocalDateTime.now());
            } catch (DicomException e) {
                throw new IOException("cannot build the derived DICOM object: " + e.getMessage(), e);
            }
        }

        /**
         * The complete object for grey stored values at the source's depth ({@link #write(GrayRaster16,
         * OutputStream)}), file meta information included, with a new SOP Instance UID.
         */
        public AttributeList attributes(GrayRaster16 raster) throws IOException {
            try {
                return DerivedDataset.buildGrey(this, raster, LocalDateTime.now());
            } catch (DicomException e) {
                throw new IOException("cannot build the derived DICOM object: " + e.getMessage(), e);
            }
        }

        /**
         * Writes a new object holding grey stored values (e.g. the filtered {@link DicomImage#grayRaster()}) at the
         * raster's depth: Bits Stored and Pixel Representation of the raster, Bits Allocated 16 (8 for rasters of up
         * to 8 bits from 8-bit sources), the source's photometric interpretation, rescale and spacing. A CT or MR
         * source gives a CT or MR Image Storage object (ImageType DERIVED\SECONDARY), anything else a Secondary
         * Capture. {@code out} stays open.
         */
        public DicomAttributes write(GrayRaster16 raster, OutputStream out) throws IOException {
            return write(attributes(raster), out, raster.width(), raster.height());
        }

        /** The bytes of a new object for grey {@code raster} ({@link #write(GrayRaster16, OutputStream)}). */
        public byte[] toBytes(GrayRaster16 raster) throws IOException {
            ByteArrayOutputStream out = new ByteArrayOutputStream(2 * raster.width() * raster.height() + 8192);
            write(raster, out);
            return out.toByteArray();
        }

        /** Writes a new object for grey {@code raster} to {@code file} atomically. */
        public DicomAttributes write(GrayRaster16 raster, Path file) throws IOException {
            Objects.requireNonNull(raster, "raster");
            DicomAttributes[] written = new DicomAttributes[1];
            ImageCodec.writeAtomically(file, out -> {
                written[0] = write(raster, out);
                out.flush();
            });
            return written[0];
        }

        /** Writes a new object for {@code raster} to {@code out}, which stays open. */
        public DicomAttributes write(Raster raster, OutputStream out) throws IOException {
            return write(attributes(raster), out, raster.width(), raster.height());
        }

        private DicomAttributes write(AttributeList list, OutputStream out, int width, int height)
                throws IOException {
            OutputStream unclosed = new FilterOutputStream(out) {
                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    out.write(b, off, len);
                }

                @Override
                public void close() throws IOException {
                    flush(); // PixelMed closes the stream it writes to; the caller's stream is the caller's
                }
            };
            try {
                list.write(unclosed, DicomCodec.EXPLICIT_LE, true, true, false);
            } catch (DicomException e) {
                throw new IOException("cannot write the derived DICOM object: " + e.getMessage(), e);
            }
            DicomAttributes written = DerivedDataset.describe(list);
            LOG.log(Level.DEBUG, "wrote derived {0} {1} of series {2}, {3}x{4}", written.sopClassUid(),
                    written.sopInstanceUid(), written.seriesInstanceUid(), width, height);
            return written;
        }

        /** The bytes of a new object for {@code raster}. */
        public byte[] toBytes(Raster raster) throws IOException {
            ByteArrayOutputStream out = new ByteArrayOutputStream(3 * raster.width() * raster.height() + 4096);
            write(raster, out);
            return out.toByteArray();
        }

        /**
         * Writes a new object for {@code raster} to {@code file} through a temp file, fsync and an atomic rename, like
         * {@code ImageCodec.write}: a failed write leaves no partial file.
         */
        public DicomAttributes write(Raster raster, Path file) throws IOException {
            Objects.requireNonNull(raster, "raster");
            DicomAttributes[] written = new DicomAttributes[1];
            ImageCodec.writeAtomically(file, out -> {
                written[0] = write(raster, out);
                out.flush();
            });
            return written[0];
        }
    }
}
