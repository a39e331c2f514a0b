package org.medjava.store.dicomweb;

import org.medjava.store.repo.ImageRepository;
import org.medjava.store.repo.StorePath;
import org.medjava.store.storage.LocalCopy;
import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.TagFromName;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.medjava.codec.ImageFormat;
import org.medjava.store.index.DicomIndex;
import org.medjava.store.index.DicomJson;
import org.medjava.store.index.InstanceSummary;
import org.medjava.store.query.ArchiveQuery;
import org.medjava.store.query.ArchiveSearch;
import org.medjava.store.query.QueryLevel;
import org.medjava.store.render.RenderRequest;
import org.medjava.store.render.RenderService;
import org.medjava.store.StoreException;
import org.medjava.store.transcode.NotTranscodable;
import org.medjava.store.transcode.TransferSyntaxes;
import org.medjava.store.transcode.Transcoder;

/**
 * WADO-RS (PS3.18 10.4): studies, series and instances as {@code multipart/related; type="application/dicom"} (as
 * stored, or in an uncompressed transfer syntax on request, decompressed if need be), their metadata as DICOM JSON from the
 * index, frames, bulk data, and rendered images through the store's renderer and filters.
 */
public final class WadoService {

    /** A response body with its media type, written when the HTTP layer streams the response. */
    public record Body(String contentType, Writer output) {

        /** Writes the body (JAX-RS's StreamingOutput, without depending on JAX-RS). */
        @FunctionalInterface
        public interface Writer {
            void write(java.io.OutputStream out) throws IOException;
        }
    }

    private static final Logger LOG = Logger.getLogger(WadoService.class.getName());
    private static final String DICOM = "application/dicom";
    private static final int BULK_THRESHOLD = 1024;

    private final ArchiveSearch search;
    private final DicomIndex index;
    private final ImageRepository images;
    private final RenderService renderer;
    private final String aeTitle;

    public WadoService(ArchiveSearch search, DicomIndex index, ImageRepository images, RenderService renderer,
                       String aeTitle) {
        this.search = search;
        this.index = index;
        this.images = images;
        this.renderer = renderer;
        this.aeTitle = aeTitle;
    }

    /** The instances of a study, series or one instance (null for the levels not given); 404 when none. */
    public List<InstanceSummary> select(String study, String series, String instance) {
        Map<String, String> keys = new HashMap<>();
        keys.put("StudyInstanceUID", Uids.check(study, "study"));
        if (series != null) {
            keys.put("SeriesInstanceUID", Uids.check(series, "series"));
        }
        if (instance != null) {
            keys.put("SOPInstanceUID", Uids.check(instance, "instance"));
        }
        List<InstanceSummary> found = search.instances(ArchiveQuery.of(QueryLevel.IMAGE, keys));
        if (found.isEmpty()) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, "no " + (instance != null ? "instance "
                    + instance : series != null ? "series " + series : "study " + study) + " in the store");
        }
        return found;
    }

    public Body retrieve(List<InstanceSummary> instances, String accept) {
        String wanted = retrieveSyntax(accept);
        for (InstanceSummary i : instances) {
            String why = wanted == null ? null : TransferSyntaxes.whyNot(syntax(i), wanted, i.bitsAllocated());
            if (why != null) {
                LOG.log(Level.INFO, "WADO-RS: instance {0} not delivered in {1}: {2}", new Object[] {
                        i.sopInstanceUid(), wanted, why});
                throw notAcceptable("instance " + i.sopInstanceUid() + " is stored in " + syntax(i)
                        + " and cannot be delivered in " + wanted + ": " + why + "; ask for transfer-syntax=*");
            }
        }
        String boundary = MultipartWriter.newBoundary();
        return new Body(MultipartWriter.contentType(DICOM, boundary), out -> {
            MultipartWriter w = new MultipartWriter(out, boundary);
            for (InstanceSummary i : instances) {
                try (LocalCopy file = copy(i)) {
                    if (wanted == null || wanted.equals(syntax(i))) {
                        try (InputStream in = Files.newInputStream(file.path())) {
                            w.part(DICOM + "; transfer-syntax=" + syntax(i), null, in);
                        }
                    } else {
                        w.part(DICOM + "; transfer-syntax=" + wanted, null, convert(file.path(), syntax(i), wanted));
                    }
                }
            }
            w.finish();
        });
    }

    /** The transfer syntax the Accept header asks for: null for "as stored". 406 when it wants no DICOM. */
    private static String retrieveSyntax(String accept) {
        for (MediaTypeParams range : MediaTypeParams.parseAccept(accept)) {
            boolean dicom = range.isWildcard() || range.type().equals(DICOM)
                    || (range.matches("multipart/related") && (range.param("type") == null
                    || range.param("type").equals(DICOM)));
            if (dicom) {
                String ts = range.param("transfer-syntax");
                return ts == null || ts.equals("*") ? null : ts;
            }
        }
        throw notAcceptable("instances are served as multipart/related; type=\"application/dicom\"");
    }

    private byte[] convert(Path file, String from, String to) throws IOException {
        try {
            return Transcoder.part10(file, from, to, aeTitle);
        } catch (NotTranscodable e) {
            // checked before the response began, so only a damaged file gets here: the multipart body breaks off
            LOG.log(Level.WARNING, "WADO-RS: " + e.getMessage(), e);
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

    /** Frames (counted from 1) of one instance, each a part. */
    public Body frames(InstanceSummary i, List<Integer> numbers, String accept) {
        PixelFrames frames = framesOf(i);
        for (int n : numbers) {
            if (n < 1 || n > frames.count()) {
                throw new StoreException(StoreException.Kind.NOT_FOUND, "frame " + n + " does not exist: instance "
                        + i.sopInstanceUid() + " has " + frames.count() + " frame(s), 1 to " + frames.count());
            }
        }
        requirePartType(accept, frames.mediaType());
        String boundary = MultipartWriter.newBoundary();
        String partType = frames.mediaType().split(";")[0];
        return new Body(MultipartWriter.contentType(partType, boundary), out -> {
            MultipartWriter w = new MultipartWriter(out, boundary);
            for (int n : numbers) {
                w.part(frames.mediaType(), null, frames.frame(n));
            }
            w.finish();
        });
    }

    /** A top-level bulk data element of one instance: Pixel Data as its frames, others as their bytes. */
    public Body bulk(InstanceSummary i, String tagText, String accept) {
        if (!tagText.matches("[0-9A-Fa-f]{8}")) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "bulk data is addressed by tag, GGGGEEEE");
        }
        AttributeTag tag = QidoParams.tag(tagText);
        if (tag.equals(TagFromName.PixelData)) {
            PixelFrames frames = framesOf(i);
            List<Integer> all = new ArrayList<>();
            for (int n = 1; n <= frames.count(); n++) {
                all.add(n);
            }
            return frames(i, all, accept);
        }
        byte[] value = topLevelValue(i, tag);
        requirePartType(accept, "application/octet-stream");
        String boundary = MultipartWriter.newBoundary();
        return new Body(MultipartWriter.contentType("application/octet-stream", boundary), out -> {
            MultipartWriter w = new MultipartWriter(out, boundary);
            w.part("application/octet-stream", null, value);
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

    /** An instance (frame from 1, or 0 for the first) rendered through the store's renderer and filters. */
    public Body rendered(InstanceSummary i, int frame, Map<String, List<String>> query, String accept) {
        ImageFormat format = renderFormat(accept);
        Map<String, List<String>> params = new HashMap<>();
        for (String key : List.of("filter", "region", "impl")) {
            if (query.containsKey(key)) {
                params.put(key, query.get(key));
            }
        }
        if (query.containsKey("window")) {
            String[] w = query.get("window").get(0).split(",");
            if (w.length == 3 && !w[2].trim().equalsIgnoreCase("linear")) {
                throw new StoreException(StoreException.Kind.BAD_REQUEST, "window function " + w[2]
                        + " is not supported; use linear");
            }
            params.put("window", List.of(w.length >= 2 ? w[0] + "," + w[1] : query.get("window").get(0)));
        }
        params.put("render", List.of(format.name().toLowerCase(java.util.Locale.ROOT)));
        params.put("frame", List.of(Integer.toString(Math.max(0, frame - 1))));
        RenderRequest request = RenderRequest.parse(params);
        byte[] image;
        try (LocalCopy file = copy(i)) {
            image = renderer.render(file.path(), true, request);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Body(format.mediaType(), out -> out.write(image));
    }

    private static ImageFormat renderFormat(String accept) {
        for (MediaTypeParams range : MediaTypeParams.parseAccept(accept)) {
            if (range.isWildcard() || range.type().equals("image/*") || range.type().equals("image/jpeg")) {
                return ImageFormat.JPEG;
            }
            if (range.type().equals("image/png")) {
                return ImageFormat.PNG;
            }
            if (range.type().equals("image/gif")) {
                return ImageFormat.GIF;
            }
        }
        throw notAcceptable("rendered images are image/jpeg, image/png or image/gif");
    }

    private static void requirePartType(String accept, String partMediaType) {
        String partType = partMediaType.split(";")[0];
        for (MediaTypeParams range : MediaTypeParams.parseAccept(accept)) {
            if (range.isWildcard() || (range.matches("multipart/related") && (range.param("type") == null
                    || range.param("type").equals(partType) || range.param("type").equals("*/*")))
                    || range.type().equals(partType)) {
                return;
            }
        }
        throw notAcceptable("these frames are " + partType + " (multipart/related; type=\"" + partType + "\")");
    }

    private PixelFrames framesOf(InstanceSummary i) {
        try (LocalCopy file = copy(i)) {
            return PixelFrames.read(file.path(), syntax(i));
        } catch (DicomException e) {
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

    private static StoreException notAcceptable(String message) {
        return new StoreException(StoreException.Kind.NOT_ACCEPTABLE, message);
    }
}
