package org.medjava.store.net.dicomweb;

import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.model.StoredFile;
import org.medjava.store.core.storage.LocalCopy;
import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.TagFromName;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.DicomJson;
import org.medjava.store.core.index.InstanceSummary;
import org.medjava.store.core.index.Visibility;
import org.medjava.store.core.query.ArchiveQuery;
import org.medjava.store.core.query.ArchiveSearch;
import org.medjava.store.core.query.QueryLevel;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.transcode.NotTranscodable;
import org.medjava.store.core.transcode.TransferSyntaxes;
import org.medjava.store.core.transcode.Transcoder;

/**
 * WADO-RS (PS3.18 10.4): studies, series and instances as {@code multipart/related; type="application/dicom"} (as
 * stored, or transcoded on request to a transfer syntax the store encodes: uncompressed, deflate, RLE, JPEG
 * Lossless SV1, JPEG 2000, and the lossy JPEG Baseline and JPEG 2000 only when named), their metadata as DICOM JSON
 * from the index, frames and bulk data (as stored, or decoded on request). What is sent is negotiated from the
 * Accept header ({@link Negotiation}); rendered images and thumbnails are {@link RenderedImages}.
 */
public final class WadoService {

    /**
     * A response body with its media type, written when the HTTP layer streams the response; {@code inPlace} too
     * when it is bytes and ranges of one stored file, which a server may send without copying them.
     */
    public record Body(String contentType, Writer output, InPlace inPlace) {

        Body(String contentType, Writer output) {
            this(contentType, output, null);
        }

        /** Writes the body (JAX-RS's StreamingOutput, without depending on JAX-RS). */
        @FunctionalInterface
        public interface Writer {
            void write(java.io.OutputStream out) throws IOException;
        }
    }

    /**
     * A body made of bytes and ranges of one open stored file. It owns the file: writing it ({@link #writeTo}) or
     * {@link #close} lets go of it.
     */
    public record InPlace(FileChannel file, List<Segment> segments) implements java.io.Closeable {

        /** The body's length in bytes. */
        public long length() {
            long n = 0;
            for (Segment s : segments) {
                n += s.length();
            }
            return n;
        }

        void writeTo(java.io.OutputStream out) throws IOException {
            try (this) {
                java.nio.channels.WritableByteChannel to = java.nio.channels.Channels.newChannel(out);
                for (Segment s : segments) {
                    if (s.bytes() != null) {
                        out.write(s.bytes());
                        continue;
                    }
                    for (long done = 0; done < s.length(); ) {
                        long n = file.transferTo(s.offset() + done, s.length() - done, to);
                        if (n <= 0) {
                            throw new IOException("the stored file ended early");
                        }
                        done += n;
                    }
                }
            }
        }

        @Override
        public void close() throws IOException {
            file.close();
        }
    }

    /** Bytes to send ({@code bytes}), or else {@code length} bytes of the file from {@code offset}. */
    public record Segment(byte[] bytes, long offset, long length) {

        static Segment of(byte[] bytes) {
            return new Segment(bytes, 0, bytes.length);
        }

        static Segment range(long offset, long length) {
            return new Segment(null, offset, length);
        }
    }

    private static final Logger LOG = Logger.getLogger(WadoService.class.getName());
    private static final String DICOM = "application/dicom";
    private static final int BULK_THRESHOLD = 1024;

    private final ArchiveSearch search;
    private final DicomIndex index;
    private final ImageRepository images;
    private final String aeTitle;
    private final Visibility visibility;

    public WadoService(ArchiveSearch search, DicomIndex index, ImageRepository images, String aeTitle) {
        this(search, index, images, aeTitle, Visibility.everything());
    }

    /** For a caller who may see what {@code visibility} lets them: other studies are not found (404). */
    public WadoService(ArchiveSearch search, DicomIndex index, ImageRepository images, String aeTitle,
                       Visibility visibility) {
        this.search = search;
        this.index = index;
        this.images = images;
        this.aeTitle = aeTitle;
        this.visibility = visibility;
    }

    /** The instances of a study, series or one instance (null for the levels not given); 404 when none. */
    public List<InstanceSummary> select(String study, String series, String instance) {
        if (series != null && instance != null) {
            return List.of(search.instance(Uids.check(study, "study"), Uids.check(series, "series"),
                    Uids.check(instance, "instance"), this::unchanged, visibility).orElseThrow(() -> new StoreException(
                    StoreException.Kind.NOT_FOUND, "no instance " + instance + " in the store")));
        }
        Map<String, String> keys = new HashMap<>();
        keys.put("StudyInstanceUID", Uids.check(study, "study"));
        if (series != null) {
            keys.put("SeriesInstanceUID", Uids.check(series, "series"));
        }
        if (instance != null) {
            keys.put("SOPInstanceUID", Uids.check(instance, "instance"));
        }
        List<InstanceSummary> found = search.instances(ArchiveQuery.of(QueryLevel.IMAGE, keys).visibleTo(visibility));
        if (found.isEmpty()) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, "no " + (instance != null ? "instance "
                    + instance : series != null ? "series " + series : "study " + study) + " in the store");
        }
        return found;
    }

    /** Whether the stored object is still the one the index described: its size and time unchanged. */
    private boolean unchanged(InstanceSummary i) {
        StoredFile file = images.stat(StorePath.parse(i.path())).orElse(null);
        return file != null && !file.directory() && file.size() == i.size() && i.lastModified() != null
                && file.modified().toEpochMilli() == i.lastModified().toEpochMilli();
    }

    /**
     * Instances of a study, series or one instance as {@code multipart/related; type="application/dicom"} (or a
     * single {@code application/dicom} body for one instance): as stored ({@code transfer-syntax=*}, or no
     * parameter) or converted to a syntax named by a UID (see {@link #CONVERTED_TO}). 406 when one of them cannot
     * be converted.
     */
    public Body retrieve(List<InstanceSummary> instances, AcceptHeader accept) {
        Representation form;
        try {
            form = Negotiation.choose(accept, dicomForms(instances), instances.size() == 1 ? "instance "
                    + instances.get(0).sopInstanceUid() : instances.size() + " instances");
        } catch (StoreException e) {
            LOG.log(Level.INFO, "WADO-RS: {0}", e.getMessage());
            throw e;
        }
        if (!form.multipart()) {
            InstanceSummary i = instances.get(0);
            if (!form.asStored() && !form.transferSyntax().equals(syntax(i))) {
                byte[] converted = convertedBeforeAnswering(i, form.transferSyntax());
                return new Body(DICOM + "; transfer-syntax=" + form.transferSyntax(), out -> out.write(converted));
            }
            return new Body(DICOM + "; transfer-syntax=" + (form.asStored() ? syntax(i) : form.transferSyntax()),
                    out -> writeInstance(i, form, (type, in) -> in.transferTo(out), bytes -> out.write(bytes)));
        }
        String boundary = MultipartWriter.newBoundary();
        return new Body(MultipartWriter.contentType(DICOM, boundary), out -> {
            MultipartWriter w = new MultipartWriter(out, boundary);
            for (InstanceSummary i : instances) {
                writeInstance(i, form, (type, in) -> w.part(type, null, in),
                        bytes -> w.part(DICOM + "; transfer-syntax=" + form.transferSyntax(), null, bytes));
            }
            w.finish();
        });
    }

    /** Where an instance goes: its stored bytes with their part type, or converted bytes. */
    private interface StoredSink {
        void write(String partType, InputStream in) throws IOException;
    }

    private interface ConvertedSink {
        void write(byte[] bytes) throws IOException;
    }

    private void writeInstance(InstanceSummary i, Representation form, StoredSink stored, ConvertedSink converted)
            throws IOException {
        try (LocalCopy file = copy(i)) {
            if (form.asStored() || form.transferSyntax().equals(syntax(i))) {
                try (InputStream in = Files.newInputStream(file.path())) {
                    stored.write(DICOM + "; transfer-syntax=" + syntax(i), in);
                }
            } else {
                converted.write(convert(file.path(), syntax(i), form.transferSyntax()));
            }
        }
    }

    /**
     * The forms of DICOM instances: as stored, or in each uncompressed syntax (unavailable, with the reason, when
     * one of the instances cannot be converted to it); single part too for one instance.
     */
    private static List<Representation> dicomForms(List<InstanceSummary> instances) {
        String common = instances.stream().map(WadoService::syntax).distinct().count() == 1
                ? syntax(instances.get(0)) : null;
        List<Representation> forms = new ArrayList<>();
        forms.add(Representation.multipart(DICOM, common, true, null));
        for (String ts : CONVERTED_TO) {
            if (!ts.equals(common)) {
                forms.add(Representation.multipart(DICOM, ts, false, whyNot(instances, ts)));
            }
        }
        if (instances.size() == 1) {
            forms.addAll(forms.stream().map(f -> f.asMultipart(false)).toList());
        }
        return forms;
    }

    private static String whyNot(List<InstanceSummary> instances, String ts) {
        for (InstanceSummary i : instances) {
            String why = TransferSyntaxes.whyNot(syntax(i), ts, i.bitsAllocated());
            if (why != null) {
                return "instance " + i.sopInstanceUid() + " not delivered in " + ts + ": " + why;
            }
        }
        return null;
    }

    /**
     * The syntaxes instances are converted to on request: uncompressed, then the compressed ones the store encodes
     * (lossy ones only when named, since {@code transfer-syntax=*} or none prefers the stored form).
     */
    private static final List<String> CONVERTED_TO = convertedTo();

    private static List<String> convertedTo() {
        List<String> all = new ArrayList<>(List.of(TransferSyntaxes.EXPLICIT_LE, TransferSyntaxes.IMPLICIT_LE,
                TransferSyntaxes.EXPLICIT_BE, TransferSyntaxes.DEFLATED_LE));
        all.addAll(TransferSyntaxes.LOSSLESS_ENCODED);
        all.addAll(TransferSyntaxes.HTJ2K_ENCODED);
        all.addAll(TransferSyntaxes.LOSSY_ENCODED);
        return List.copyOf(all);
    }

    /** One instance converted before the response begins, so that what cannot be encoded is a 406. */
    private byte[] convertedBeforeAnswering(InstanceSummary i, String to) {
        try (LocalCopy file = copy(i)) {
            return Transcoder.part10(file.path(), syntax(i), to, aeTitle, true);
        } catch (NotTranscodable e) {
            LOG.log(Level.INFO, "WADO-RS: instance {0} not converted: {1}", new Object[] {i.sopInstanceUid(),
                e.getMessage()});
            throw new StoreException(StoreException.Kind.NOT_ACCEPTABLE, "instance " + i.sopInstanceUid()
                    + " cannot be sent in " + TransferSyntaxes.name(to) + ": " + e.getMessage()
                    + "; it can be sent as stored (transfer-syntax=*)");
        } catch (IOException e) {
            throw new StoreException(StoreException.Kind.UNAVAILABLE, "cannot read " + i.path() + ": "
                    + e.getMessage(), e);
        }
    }

    /** Converted while the multipart answer is written: a lossy syntax here was named in the request. */
    private byte[] convert(Path file, String from, String to) throws IOException {
        try {
            return Transcoder.part10(file, from, to, aeTitle, true);
        } catch (NotTranscodable e) {
            // the syntaxes were checked before the response began; what the encoder refuses breaks the body off
            LOG.log(Level.INFO, "WADO-RS: {0} not converted, the answer breaks off: {1}", new Object[] {
                file.getFileName(), e.getMessage()});
            throw new IOException(e.getMessage(), e);
        }
    }

    /** The instances' metadata as a DICOM JSON array, from the index. */
    public String metadata(List<InstanceSummary> instances, DicomWebUrls urls) {
        Map<String, String> stored = index.metadata(instances.stream().map(InstanceSummary::path).toList());
        StringBuilder sb = new StringBuilder(instances.size() * 4096).append('[');
        for (InstanceSummary i : instances) {
            String json = stored.get(i.path());
            if (json == null) {
                json = metadataFromFile(i); // indexed before metadata was kept; a rebuild stores it
            }
            String url = urls.instance(i.studyInstanceUid(), i.seriesInstanceUid(), i.sopInstanceUid());
            if (sb.length() > 1) {
                sb.append(',');
            }
            sb.append(withPixelData(json.replace(DicomJson.INSTANCE_URL, url), i, url));
        }
        return sb.append(']').toString();
    }

    /** Pixel Data is never in the stored metadata: it is added as a bulk data reference. */
    private static String withPixelData(String json, InstanceSummary i, String url) {
        if (i.rows() == null) {
            return json;
        }
        boolean ob = !TransferSyntaxes.isNative(syntax(i)) || (i.bitsAllocated() != null && i.bitsAllocated() <= 8);
        String pixelData = "\"7FE00010\":{\"vr\":\"" + (ob ? "OB" : "OW") + "\",\"BulkDataURI\":\"" + url
                + "/bulk/7FE00010\"}";
        int close = json.lastIndexOf('}');
        return json.substring(0, close) + (json.trim().equals("{}") ? "" : ",") + pixelData + "}";
    }

    private String metadataFromFile(InstanceSummary i) {
        AttributeList list = new AttributeList();
        list.setDecompressPixelData(false);
        try (LocalCopy file = copy(i)) {
            list.read(file.path().toString(), TagFromName.PixelData);
        } catch (IOException | DicomException e) {
            throw new StoreException(StoreException.Kind.UNAVAILABLE, "cannot read " + i.path() + ": "
                    + e.getMessage(), e);
        }
        return DicomJson.toJson(list, BULK_THRESHOLD);
    }

    /**
     * Frames (counted from 1) of one instance: as stored (compressed bit streams with their image media type, or
     * as {@code application/octet-stream; transfer-syntax=...} when that is what was asked), or uncompressed
     * little-endian bytes (decoded when need be); multipart, or single part for one frame.
     */
    public Body frames(InstanceSummary i, List<Integer> numbers, AcceptHeader accept) {
        Representation form = Negotiation.choose(accept, pixelForms(i, numbers.size() == 1), (numbers.size() == 1
                ? "frame " + numbers.get(0) : "frames " + numbers) + " of instance " + i.sopInstanceUid());
        if (form.asStored()) {
            Body inPlace = inPlace(i, numbers, form);
            if (inPlace != null) {
                return inPlace;
            }
        }
        PixelFrames frames = framesOf(i, form);
        requireFrames(i, numbers, frames.count());
        if (!form.multipart()) {
            byte[] frame = frames.frame(numbers.get(0));
            return new Body(form.partContentType(), out -> out.write(frame));
        }
        String boundary = MultipartWriter.newBoundary();
        return new Body(MultipartWriter.contentType(form.mediaType(), boundary), out -> {
            MultipartWriter w = new MultipartWriter(out, boundary);
            for (int n : numbers) {
                w.part(form.partContentType(), null, frames.frame(n));
            }
            w.finish();
        });
    }

    private static void requireFrames(InstanceSummary i, List<Integer> numbers, int count) {
        for (int n : numbers) {
            if (n < 1 || n > count) {
                throw new StoreException(StoreException.Kind.NOT_FOUND, "frame " + n + " does not exist: instance "
                        + i.sopInstanceUid() + " has " + count + " frame(s), 1 to " + count);
            }
        }
    }

    /**
     * Frames (or, {@code numbers} null, the whole Pixel Data) of an uncompressed little-endian instance as ranges of
     * its stored file ({@link NativeFrames}); null when they are not found that way (or the storage has no local
     * file), and the caller reads them with PixelMed.
     */
    private Body inPlace(InstanceSummary i, List<Integer> numbers, Representation form) {
        if (!TransferSyntaxes.isNative(syntax(i))) {
            return null;
        }
        FileChannel file = null;
        try {
            StoredFile stored = images.stat(StorePath.parse(i.path())).orElse(null);
            file = stored == null || stored.directory() ? null : images.openChannel(stored).orElse(null);
            NativeFrames.Layout layout = file == null ? null : NativeFrames.locate(file, i);
            if (layout == null) {
                return null;
            }
            List<Segment> segments = new ArrayList<>();
            String boundary = form.multipart() ? MultipartWriter.newBoundary() : null;
            List<long[]> ranges = new ArrayList<>();
            if (numbers == null) {
                ranges.add(new long[] {layout.offset(), layout.frameLength() * layout.count()});
            } else {
                requireFrames(i, numbers, layout.count());
                for (int n : numbers) {
                    ranges.add(new long[] {layout.offset() + (n - 1) * layout.frameLength(), layout.frameLength()});
                }
            }
            for (long[] r : ranges) {
                if (boundary != null) {
                    segments.add(Segment.of(MultipartWriter.head(boundary, form.partContentType(), null)));
                }
                segments.add(Segment.range(r[0], r[1]));
                if (boundary != null) {
                    segments.add(Segment.of(MultipartWriter.CRLF));
                }
            }
            if (boundary != null) {
                segments.add(Segment.of(MultipartWriter.close(boundary)));
            }
            InPlace body = new InPlace(file, List.copyOf(segments));
            file = null; // the body owns it
            return new Body(boundary == null ? form.partContentType()
                    : MultipartWriter.contentType(form.mediaType(), boundary), body::writeTo, body);
        } catch (IOException e) {
            LOG.log(Level.FINE, "frames of {0} not located in place: {1}", new Object[] {i.path(), e});
            return null;
        } finally {
            if (file != null) {
                try {
                    file.close();
                } catch (IOException e) {
                    LOG.log(Level.FINE, "closing " + i.path(), e);
                }
            }
        }
    }

    /**
     * The forms of an instance's pixel data. Uncompressed: little-endian bytes. Compressed: the bit streams with
     * their image media type, the same as application/octet-stream, or decoded to little-endian bytes (when the
     * store can decode them). Single part too when {@code single}.
     */
    private static List<Representation> pixelForms(InstanceSummary i, boolean single) {
        String stored = syntax(i);
        List<Representation> forms = new ArrayList<>();
        if (TransferSyntaxes.isNative(stored)) {
            forms.add(Representation.multipart(Negotiation.OCTET_STREAM, TransferSyntaxes.EXPLICIT_LE, true, null));
        } else {
            String image = PixelFrames.mediaTypeOf(stored);
            forms.add(Representation.multipart(image, stored, true, null));
            if (!image.equals(Negotiation.OCTET_STREAM)) {
                forms.add(Representation.multipart(Negotiation.OCTET_STREAM, stored, true, null));
            }
            String why = TransferSyntaxes.whyNot(stored, TransferSyntaxes.EXPLICIT_LE, i.bitsAllocated());
            forms.add(Representation.multipart(Negotiation.OCTET_STREAM, TransferSyntaxes.EXPLICIT_LE, false,
                    why == null ? null : "the frames of instance " + i.sopInstanceUid() + " cannot be decompressed: "
                    + why));
        }
        if (single) {
            forms.addAll(forms.stream().map(f -> f.asMultipart(false)).toList());
        }
        return forms;
    }

    /**
     * A top-level bulk data element of one instance: Pixel Data as its frames (single part: all of an uncompressed
     * one, or a compressed one's only frame), others as their bytes.
     */
    public Body bulk(InstanceSummary i, String tagText, AcceptHeader accept) {
        if (!tagText.matches("[0-9A-Fa-f]{8}")) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "bulk data is addressed by tag, GGGGEEEE");
        }
        AttributeTag tag = QidoParams.tag(tagText);
        if (tag.equals(TagFromName.PixelData)) {
            return pixelData(i, accept);
        }
        byte[] value = topLevelValue(i, tag);
        Representation form = Negotiation.choose(accept, List.of(
                Representation.multipart(Negotiation.OCTET_STREAM, TransferSyntaxes.EXPLICIT_LE, true, null),
                Representation.single(Negotiation.OCTET_STREAM, TransferSyntaxes.EXPLICIT_LE, true, null)),
                DicomJson.key(tag) + " of instance " + i.sopInstanceUid());
        if (!form.multipart()) {
            return new Body(Negotiation.OCTET_STREAM, out -> out.write(value));
        }
        String boundary = MultipartWriter.newBoundary();
        return new Body(MultipartWriter.contentType(Negotiation.OCTET_STREAM, boundary), out -> {
            MultipartWriter w = new MultipartWriter(out, boundary);
            w.part(Negotiation.OCTET_STREAM, null, value);
            w.finish();
        });
    }

    /**
     * Pixel Data as bulk data: uncompressed (or decoded), its whole value, one part or single part; compressed,
     * one part per frame (single part only for a single frame).
     */
    private Body pixelData(InstanceSummary i, AcceptHeader accept) {
        int count = i.numberOfFrames() == null ? 1 : Math.max(1, i.numberOfFrames());
        Representation form = Negotiation.choose(accept, pixelForms(i, count == 1
                || TransferSyntaxes.isNative(syntax(i))), "the Pixel Data of instance " + i.sopInstanceUid());
        if (form.asStored()) {
            Body inPlace = inPlace(i, null, form);
            if (inPlace != null) {
                return inPlace;
            }
        }
        PixelFrames frames = framesOf(i, form);
        boolean whole = TransferSyntaxes.EXPLICIT_LE.equals(frames.transferSyntax());
        if (!form.multipart()) {
            byte[] value = whole ? frames.all() : frames.frame(1);
            return new Body(form.partContentType(), out -> out.write(value));
        }
        String boundary = MultipartWriter.newBoundary();
        return new Body(MultipartWriter.contentType(form.mediaType(), boundary), out -> {
            MultipartWriter w = new MultipartWriter(out, boundary);
            if (whole) {
                w.part(form.partContentType(), null, frames.all());
            } else {
                for (int n = 1; n <= frames.count(); n++) {
                    w.part(form.partContentType(), null, frames.frame(n));
                }
            }
            w.finish();
        });
    }

    private byte[] topLevelValue(InstanceSummary i, AttributeTag tag) {
        AttributeList list = new AttributeList();
        list.setDecompressPixelData(false);
        try (LocalCopy file = copy(i)) {
            list.read(file.path().toString(), TagFromName.PixelData);
            Attribute a = list.get(tag);
            if (a == null) {
                throw new StoreException(StoreException.Kind.NOT_FOUND, "instance " + i.sopInstanceUid()
                        + " has no " + DicomJson.key(tag));
            }
            return DicomJson.valueBytes(a, a.getVRAsString());
        } catch (IOException | DicomException e) {
            throw new StoreException(StoreException.Kind.UNAVAILABLE, "cannot read " + i.path() + ": "
                    + e.getMessage(), e);
        }
    }

    private PixelFrames framesOf(InstanceSummary i, Representation form) {
        try (LocalCopy file = copy(i)) {
            return form.asStored() ? PixelFrames.read(file.path(), syntax(i))
                    : PixelFrames.decoded(file.path(), syntax(i));
        } catch (DicomException | NotTranscodable e) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, "instance " + i.sopInstanceUid() + ": "
                    + e.getMessage());
        } catch (IOException e) {
            throw new StoreException(StoreException.Kind.UNAVAILABLE, "cannot read " + i.path() + ": "
                    + e.getMessage(), e);
        }
    }

    /** The stored instance as a local file (the stored file itself, or a temporary copy from object storage). */
    private LocalCopy copy(InstanceSummary i) throws IOException {
        return images.localCopy(StorePath.parse(i.path()));
    }

    private static String syntax(InstanceSummary i) {
        return i.transferSyntaxUid() == null ? "1.2.840.10008.1.2.1" : i.transferSyntaxUid();
    }
}
