package org.medjava.store.net.dicomweb;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.medjava.codec.ImageFormat;
import org.medjava.filter.runtime.CallControl;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.index.InstanceSummary;
import org.medjava.store.core.render.RenderQuery;
import org.medjava.store.core.render.RenderRequest;
import org.medjava.store.core.render.RenderService;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.model.StoredFile;
import org.medjava.store.core.storage.LocalCopy;
import org.medjava.store.core.transcode.TransferSyntaxes;

/**
 * WADO-RS rendered and thumbnail resources (PS3.18 10.4.1.1.3, 10.4.1.1.4) through the store's renderer: JPEG
 * (the default), PNG or GIF by Accept. A rendered image takes {@code window} and the store's {@code filter},
 * {@code region}, {@code impl}; a thumbnail is the image in its default window fitted into {@code viewport=w,h}
 * ({@value #THUMBNAIL_SIZE} pixels on the long side unless given), of a representative instance for a study or
 * series. Each answer has an entity tag made from the stored object's and the request's, so clients revalidate
 * cheaply: nothing is rendered before the tag is compared. Thumbnails made are kept ({@link ThumbnailCache}).
 */
public final class RenderedImages {

    /** What to send, once the entity tag did not match: its media type, its tag (unquoted), and how to make it. */
    public record Image(String contentType, String etag, Maker maker) {

        /** Renders the image, its filter calls under {@code control}; refusals are StoreExceptions. */
        @FunctionalInterface
        public interface Maker {
            byte[] make(CallControl control);
        }
    }

    static final int THUMBNAIL_SIZE = 128;
    static final int MAX_VIEWPORT = 4096;
    private static final List<Representation> FORMATS = List.of(Representation.single("image/jpeg"),
            Representation.single("image/png"), Representation.single("image/gif"));

    private final ImageRepository images;
    private final RenderService renderer;
    private final ThumbnailCache thumbnails;

    public RenderedImages(ImageRepository images, RenderService renderer, ThumbnailCache thumbnails) {
        this.images = images;
        this.renderer = renderer;
        this.thumbnails = thumbnails;
    }

    /** An instance's frame (from 1) rendered through the store's renderer and filters. */
    public Image rendered(InstanceSummary i, int frame, Map<String, List<String>> query, AcceptHeader accept) {
        RenderQuery.check(query);
        ImageFormat format = format(accept, "a rendered image");
        requireImage(i, frame);
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
        params.put("render", List.of(format.name().toLowerCase(Locale.ROOT)));
        params.put("frame", List.of(Integer.toString(frame - 1)));
        RenderRequest request = RenderRequest.parse(params);
        String etag = etag(stat(i), "rendered", format, new TreeMap<>(params).toString());
        return new Image(format.mediaType(), etag, control -> {
            try (LocalCopy file = copy(i)) {
                return renderer.render(file.path(), true, request, control);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /**
     * A thumbnail of {@code instances} (one instance, a series or a study): of the given frame (from 1) of the one
     * instance, or of the first frame of the {@link #representative} instance.
     */
    public Image thumbnail(List<InstanceSummary> instances, Integer frame, Map<String, List<String>> query,
                           AcceptHeader accept) {
        RenderQuery.check(query);
        ImageFormat format = format(accept, "a thumbnail");
        int[] viewport = viewport(query);
        InstanceSummary i = frame == null ? representative(instances) : instances.get(0);
        int n = frame == null ? 1 : frame;
        requireImage(i, n);
        String variant = viewport[0] + "x" + viewport[1] + "-" + n;
        StoredFile stored = stat(i);
        String key = format + "|" + variant + "|" + i.path() + "|" + stored.etag();
        return new Image(format.mediaType(), etag(stored, "thumbnail", format, variant), control -> {
            byte[] made = thumbnails.get(key);
            if (made != null) {
                return made;
            }
            try (LocalCopy file = copy(i)) {
                made = renderer.thumbnail(file.path(), n - 1, viewport[0], viewport[1], format);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            thumbnails.put(key, made);
            return made;
        });
    }

    /**
     * The instance that stands for a study or series: of the images (instances with pixels) the store can decode
     * (all images when it can decode none), the first series by Series Number, and in it the middle instance by
     * Instance Number. 404 when there is no image.
     */
    static InstanceSummary representative(List<InstanceSummary> instances) {
        Comparator<Integer> nullsLast = Comparator.nullsLast(Comparator.naturalOrder());
        List<InstanceSummary> imagesOnly = instances.stream().filter(i -> i.rows() != null).toList();
        if (imagesOnly.isEmpty()) {
            InstanceSummary any = instances.get(0);
            throw new StoreException(StoreException.Kind.NOT_FOUND, "no thumbnail: " + (instances.size() == 1
                    ? "instance " + any.sopInstanceUid() + " is not an image (no Pixel Data)"
                    : "none of the " + instances.size() + " instances of study " + any.studyInstanceUid()
                    + " is an image"));
        }
        List<InstanceSummary> decodable = imagesOnly.stream().filter(i -> TransferSyntaxes.whyNot(i.transferSyntaxUid()
                == null ? TransferSyntaxes.EXPLICIT_LE : i.transferSyntaxUid(), TransferSyntaxes.EXPLICIT_LE,
                i.bitsAllocated()) == null).toList();
        if (!decodable.isEmpty()) {
            imagesOnly = decodable;
        }
        String series = imagesOnly.stream().min(Comparator.comparing(InstanceSummary::seriesNumber, nullsLast)
                .thenComparing(InstanceSummary::seriesInstanceUid)).orElseThrow().seriesInstanceUid();
        List<InstanceSummary> inSeries = imagesOnly.stream().filter(i -> i.seriesInstanceUid().equals(series))
                .sorted(Comparator.comparing(InstanceSummary::instanceNumber, nullsLast)
                        .thenComparing(InstanceSummary::sopInstanceUid)).toList();
        return inSeries.get(inSeries.size() / 2);
    }

    /** {@code viewport=w,h}: the box the thumbnail is fitted into; {@value #THUMBNAIL_SIZE} square unless given. */
    static int[] viewport(Map<String, List<String>> query) {
        List<String> values = query.get("viewport");
        if (values == null || values.isEmpty() || values.get(0).isBlank()) {
            return new int[] {THUMBNAIL_SIZE, THUMBNAIL_SIZE};
        }
        String[] parts = values.get(0).split(",");
        try {
            int w = Integer.parseInt(parts[0].trim());
            int h = parts.length > 1 ? Integer.parseInt(parts[1].trim()) : w;
            if (parts.length <= 4 && w >= 1 && h >= 1 && w <= MAX_VIEWPORT && h <= MAX_VIEWPORT) {
                return new int[] {w, h};
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new StoreException(StoreException.Kind.BAD_REQUEST, "viewport=" + values.get(0) + " is not width,height"
                + " in pixels, 1 to " + MAX_VIEWPORT + " (for example viewport=128,128)");
    }

    private static ImageFormat format(AcceptHeader accept, String what) {
        String type = Negotiation.choose(accept, FORMATS, what).mediaType();
        return switch (type) {
            case "image/png" -> ImageFormat.PNG;
            case "image/gif" -> ImageFormat.GIF;
            default -> ImageFormat.JPEG;
        };
    }

    private static void requireImage(InstanceSummary i, int frame) {
        if (i.rows() == null) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, org.medjava.store.core.ingest.DicomRules.noPixelData(
                    i.sopClassUid()) + " (instance " + i.sopInstanceUid() + ")");
        }
        int frames = i.numberOfFrames() == null ? 1 : Math.max(1, i.numberOfFrames());
        if (frame < 1 || frame > frames) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, "frame " + frame + " does not exist: instance "
                    + i.sopInstanceUid() + " has " + frames + " frame(s), 1 to " + frames);
        }
    }

    private StoredFile stat(InstanceSummary i) {
        return images.stat(StorePath.parse(i.path())).orElseThrow(() -> new StoreException(
                StoreException.Kind.NOT_FOUND, "instance " + i.sopInstanceUid() + " is no longer in the store"));
    }

    /** The stored object's entity tag with what was asked of it. */
    private static String etag(StoredFile file, String kind, ImageFormat format, String variant) {
        String asked = kind + "|" + format + "|" + variant;
        return kind.charAt(0) + Integer.toHexString(asked.hashCode()) + "-" + file.etag().replace("\"", "");
    }

    private LocalCopy copy(InstanceSummary i) throws IOException {
        return images.localCopy(StorePath.parse(i.path()));
    }
}
