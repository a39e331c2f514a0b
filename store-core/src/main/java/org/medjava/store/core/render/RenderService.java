package org.medjava.store.core.render;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.medjava.codec.ImageCodec;
import org.medjava.codec.ImageDecodeException;
import org.medjava.codec.ImageFormat;
import org.medjava.codec.ImageHeader;
import org.medjava.codec.dicom.DicomCodec;
import org.medjava.store.core.ingest.DicomRules;
import org.medjava.codec.dicom.DicomImage;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.InvalidParameterException;
import org.medjava.filter.UnsupportedDataException;
import org.medjava.filter.Raster;
import org.medjava.filter.runtime.CallControl;
import org.medjava.filter.runtime.FilterRegistry;
import org.medjava.filter.runtime.RegistryException;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.memory.DecodeBudget;
import org.medjava.store.core.memory.SmallReads;
import org.medjava.store.core.memory.DecodeCost;
import org.medjava.store.core.metrics.StoreMetrics;

/**
 * Server-side rendering: decode a stored image, run a filter chain through the registry, encode as PNG, GIF or JPEG.
 * Grey DICOM is filtered on its stored values, then windowed; everything else is windowed (DICOM colour ignores
 * windows) or decoded to 8-bit RGB, then filtered (see {@link #render(Path, boolean, RenderRequest, Timings,
 * CallControl)}). The chain is validated before the image is read, so a typo costs nothing.
 *
 * <p>Every filter call runs on the registry's bounded pool under its deadline and the {@link CallControl} its
 * caller passes (a request's {@code timeout=} and a cancel when its client hangs up, {@link #forJob()} for a
 * background job, {@link CallControl#unlimited()} for the registry's deadline alone): 503 when every slot is busy
 * (with Retry-After) or the deadline passed, 409 when the plugin went away during the call.
 */
public final class RenderService {

    /** How long a background job's filter call waits for a free slot: a job would rather wait than fail. */
    public static final java.time.Duration JOB_SLOT_WAIT = java.time.Duration.ofMinutes(2);

    private final FilterRegistry registry;
    private final long maxPixels;
    private final StoreMetrics metrics;
    private final DecodeBudget budget;
    private final int maxChain;

    public RenderService(FilterRegistry registry, long maxPixels) {
        this(registry, maxPixels, StoreMetrics.NONE);
    }

    /** @param metrics where the time of each rendering and of each filter in it is recorded */
    public RenderService(FilterRegistry registry, long maxPixels, StoreMetrics metrics) {
        this(registry, maxPixels, metrics, DecodeBudget.UNLIMITED, RenderRequest.DEFAULT_MAX_CHAIN);
    }

    /**
     * @param budget   what every decode takes its memory from, for as long as the rendering holds the pixels
     * @param maxChain the most filters one request may chain (medjava.filters.max-chain)
     */
    public RenderService(FilterRegistry registry, long maxPixels, StoreMetrics metrics, DecodeBudget budget,
                         int maxChain) {
        this.registry = registry;
        this.maxPixels = maxPixels;
        this.metrics = metrics;
        this.budget = budget;
        this.maxChain = maxChain;
    }

    /**
     * For background jobs: each call under the registry's deadline, waiting up to {@link #JOB_SLOT_WAIT} for a
     * slot where a request would be refused with 503 after a short wait.
     */
    public static CallControl forJob() {
        return new CallControl(null, JOB_SLOT_WAIT);
    }

    /**
     * @param dicom   whether the stored file is DICOM (then window and frame apply)
     * @param control the deadline and cancellation of the rendering's filter calls
     */
    public byte[] render(Path file, boolean dicom, RenderRequest request, CallControl control) throws IOException {
        return render(file, dicom, request, new Timings(), control);
    }

    /**
     * As {@link #render(Path, boolean, RenderRequest, CallControl)}, noting in {@code timings} how long each phase
     * took.
     *
     * <p>Order: a grey DICOM frame with filters is filtered on its stored values (a 16-bit grey raster, so
     * Hounsfield units survive), then windowed (the request's window, else the image's own, else the range of the
     * filtered values) to 8 bits. Everything else (colour DICOM, PNG, GIF, ...) is decoded to 8-bit RGB (DICOM
     * through its window), then filtered.
     */
    public byte[] render(Path file, boolean dicom, RenderRequest request, Timings timings, CallControl control)
            throws IOException {
        validate(request);
        try (DecodeBudget.Permit permit = admit(file, request)) {
            return renderAdmitted(file, dicom, request, timings, control);
        }
    }

    private byte[] renderAdmitted(Path file, boolean dicom, RenderRequest request, Timings timings,
                                  CallControl control) throws IOException {
        if (request.format() == ImageFormat.DICOM) { // a derived object, made by DerivedImages
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "render=dicom is not an image rendering here;"
                    + " ask GET /images/{path}?render=dicom for a derived DICOM object");
        }
        long t0 = System.nanoTime();
        Raster raster;
        long t1;
        long t2;
        if (dicom) {
            DicomImage image = read(file, request);
            t1 = System.nanoTime();
            if (!request.filters().isEmpty() && image.isGrey()) {
                DicomImage filtered = filterStoredValues(image, request, control);
                t2 = System.nanoTime();
                raster = window(filtered, request);
            } else {
                requireFilterable(image, request);
                raster = filter(window(image, request), request, control);
                t2 = System.nanoTime();
            }
        } else {
            raster = decode(file, false, request);
            t1 = System.nanoTime();
            raster = filter(raster, request, control);
            t2 = System.nanoTime();
        }
        long t3 = System.nanoTime();
        ByteArrayOutputStream out = new ByteArrayOutputStream(raster.width() * raster.height() + 1024);
        ImageCodec.write(raster, request.format(), out);
        long end = System.nanoTime();
        timings.record(t1 - t0, t2 - t1, end - t3 + (t3 - t2));
        metrics.rendered(request.format().name().toLowerCase(java.util.Locale.ROOT), end - t0);
        return out.toByteArray();
    }

    /**
     * Runs the request's chain, in order, on the stored values of a grey DICOM frame ({@link DicomImage#grayRaster()},
     * docs/xv-filters-16bit.md): the result has the frame's rescale, windows and photometric interpretation.
     *
     * @throws StoreException 422 for data no filter serves (grey of more than 16 bits) or a filter that does not
     *     filter grey data, naming the data and the filter; 400 for a bad parameter; 409 for a suspended filter
     */
    public DicomImage filterStoredValues(DicomImage image, RenderRequest request, CallControl control) {
        RenderQuery.requireInside(request.region(), image.width(), image.height());
        if (request.filters().isEmpty()) {
            return image;
        }
        if (!image.isGray16()) {
            throw unsupported(request.filters().get(0).filterId(), image);
        }
        GrayRaster16 raster;
        try {
            raster = image.grayRaster();
        } catch (ImageDecodeException e) {
            throw new StoreException(StoreException.Kind.UNPROCESSABLE, e.getMessage(), e);
        }
        for (RenderRequest.FilterStep step : request.filters()) {
            GrayRaster16 in = raster;
            raster = call(step, request, () -> registry.apply(step.filterId(), in, request.region(), step.params(),
                    request.implementation(), control));
        }
        return image.withStoredValues(raster);
    }

    /** A frame through the request's window, else its own default (for grey frames; colour ignores windows). */
    public static Raster window(DicomImage image, RenderRequest request) {
        return request.window() == null ? image.render() : image.render(request.window());
    }

    /**
     * Colour DICOM of more than 8 bits per channel and grey of more than 16 bits stored are shown, but not filtered:
     * 422 naming the data and the first filter when the request filters them.
     */
    public static void requireFilterable(DicomImage image, RenderRequest request) {
        if (!request.filters().isEmpty() && !image.isGray16() && !image.isRgb8()) {
            throw unsupported(request.filters().get(0).filterId(), image);
        }
    }

    private static StoreException unsupported(String filterId, DicomImage image) {
        return new StoreException(StoreException.Kind.UNPROCESSABLE, new UnsupportedDataException(filterId,
                image.dataDescription(), "8-bit RGB and 1..16-bit signed or unsigned grey only").getMessage());
    }

    /** Where a rendering spent its time (for the {@code Server-Timing} header a client can show). */
    public static final class Timings {
        long decodeNanos;
        long filterNanos;
        long encodeNanos;

        /** Records the three phases (for work done outside this class: a derived object's write). */
        public void record(long decodeNanos, long filterNanos, long encodeNanos) {
            this.decodeNanos = decodeNanos;
            this.filterNanos = filterNanos;
            this.encodeNanos = encodeNanos;
        }

        /** The value of an HTTP {@code Server-Timing} header, durations in milliseconds. */
        public String serverTiming() {
            return "decode;dur=" + millis(decodeNanos) + ", filter;dur=" + millis(filterNanos) + ", encode;dur="
                    + millis(encodeNanos);
        }

        private static String millis(long nanos) {
            return String.format(java.util.Locale.ROOT, "%.2f", nanos / 1e6);
        }
    }

    /** Checks the request's filter chain (ids and parameters) before any image is read: 400 naming the problem. */
    public void validate(RenderRequest request) {
        request.requireChainAtMost(maxChain);
        for (RenderRequest.FilterStep step : request.filters()) {
            try {
                registry.validate(step.filterId(), step.params());
            } catch (RegistryException.UnknownIdException | InvalidParameterException e) {
                throw new StoreException(StoreException.Kind.BAD_REQUEST, e.getMessage());
            }
        }
    }

    /** Runs the request's filter chain, in order, over {@code raster} (within its region), under {@code control}. */
    public Raster filter(Raster raster, RenderRequest request, CallControl control) {
        RenderQuery.requireInside(request.region(), raster.width(), raster.height());
        for (RenderRequest.FilterStep step : request.filters()) {
            raster = apply(step, raster, request, control);
        }
        return raster;
    }

    public long maxPixels() {
        return maxPixels;
    }

    /**
     * Takes from the decode budget what rendering {@code file} will hold, estimated from its header: to be closed
     * when its pixels are no longer needed. Every decode of a stored image passes here (renderings, thumbnails,
     * derived objects).
     *
     * @throws StoreException 413 when the image needs more than the whole budget, 503 (with Retry-After) when the
     *                        budget is busy, 422 when its header is damaged
     */
    public DecodeBudget.Permit admit(Path file, RenderRequest request) throws IOException {
        if (budget == DecodeBudget.UNLIMITED) {
            return () -> { };
        }
        ImageHeader header;
        try {
            header = ImageHeader.peek(file);
        } catch (ImageDecodeException e) {
            throw new StoreException(StoreException.Kind.UNPROCESSABLE, cannotRender(file, e), e);
        }
        long cost = request.filters().isEmpty() ? DecodeCost.ofDecode(header, Files.size(file))
                : DecodeCost.ofRender(header, Files.size(file));
        return budget.admit(cost, "this " + header);
    }

    /**
     * A DICOM image's frame ({@code frame} from 0) in its default window, fitted into {@code maxWidth x maxHeight}
     * with its aspect ratio kept ({@link Thumbnail}), encoded as {@code format}.
     */
    public byte[] thumbnail(Path file, int frame, int maxWidth, int maxHeight, org.medjava.codec.ImageFormat format)
            throws IOException {
        RenderRequest request = new RenderRequest(format, java.util.List.of(), null, null, frame,
                org.medjava.filter.Implementation.OPTIMIZED);
        Raster raster;
        try (DecodeBudget.Permit permit = admit(file, request)) {
            DicomImage image = read(file, request);
            raster = image.isGrey() ? Thumbnail.fitGrey(image.renderGrey(null), image.width(), image.height(),
                    maxWidth, maxHeight) : Thumbnail.fit(window(image, request), maxWidth, maxHeight);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(raster.width() * raster.height() + 1024);
        ImageCodec.write(raster, format, out);
        return out.toByteArray();
    }

    private DicomImage read(Path file, RenderRequest request) throws IOException {
        try {
            return DicomCodec.read(SmallReads.readAllBytes(file), request.frame(), maxPixels);
        } catch (ImageDecodeException e) {
            throw new StoreException(StoreException.Kind.UNPROCESSABLE, cannotRender(file, e), e);
        }
    }

    /**
     * Why a stored DICOM object does not render: an object without pixels (a structured report, an RT plan, …) says
     * so by its kind ({@link DicomRules#noPixelData}), else the decoder's reason.
     */
    private static String cannotRender(Path file, ImageDecodeException e) {
        String noPixels = DicomRules.noPixelData(file);
        return noPixels != null ? noPixels : "cannot render: " + e.getMessage().replace(file.toString() + ": ", "");
    }

    private Raster decode(Path file, boolean dicom, RenderRequest request) throws IOException {
        try {
            if (dicom) {
                return window(read(file, request), request);
            }
            if (request.frame() != 0) {
                throw new StoreException(StoreException.Kind.BAD_REQUEST, "frame=" + request.frame()
                        + ": only DICOM images have frames");
            }
            if (request.window() != null) {
                throw new StoreException(StoreException.Kind.BAD_REQUEST, "window applies to DICOM images only");
            }
            try (InputStream in = SmallReads.open(file)) {
                return ImageCodec.read(in, maxPixels);
            }
        } catch (ImageDecodeException e) {
            throw new StoreException(StoreException.Kind.UNPROCESSABLE, "cannot render: " + e.getMessage()
                    .replace(file.toString() + ": ", ""), e);
        }
    }

    private Raster apply(RenderRequest.FilterStep step, Raster raster, RenderRequest request, CallControl control) {
        return call(step, request, () -> registry.apply(step.filterId(), raster, request.region(), step.params(),
                request.implementation(), control));
    }

    /** A registry call, timed when it succeeds, its failures as the store's statuses. */
    private <T> T call(RenderRequest.FilterStep step, RenderRequest request, java.util.function.Supplier<T> body) {
        try {
            long t0 = System.nanoTime();
            T result = body.get();
            metrics.filtered(step.filterId(), request.implementation().id(), System.nanoTime() - t0);
            return result;
        } catch (UnsupportedDataException e) {
            throw new StoreException(StoreException.Kind.UNPROCESSABLE, e.getMessage(), e);
        } catch (RegistryException.UnknownIdException | InvalidParameterException e) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, e.getMessage()); // removed since validation
        } catch (RegistryException.FilterUnavailableException e) {
            throw new StoreException(StoreException.Kind.CONFLICT, e.getMessage());
        } catch (RegistryException.BusyException e) {
            metrics.filterRefused(step.filterId(), "busy");
            throw new FilterTimeException("every filter slot is busy (medjava.filters.max-concurrent); try again in "
                    + e.retryAfterSeconds() + " s", e.retryAfterSeconds(), e);
        } catch (RegistryException.DeadlineExceededException e) {
            metrics.filterRefused(step.filterId(), "deadline");
            throw new FilterTimeException("filtering stopped: " + e.getMessage() + " (the deadline is "
                    + "medjava.filters.deadline-seconds, or less with timeout=); ask for a smaller region or a "
                    + "cheaper chain", null, e);
        } catch (RegistryException.CallCancelledException e) {
            throw new StoreException(StoreException.Kind.CONFLICT, "filtering stopped: " + e.getMessage()
                    + "; try again", e);
        } catch (RegistryException.FilterFailedException e) {
            throw new StoreException(StoreException.Kind.UNPROCESSABLE, "filter " + step.filterId() + " failed: "
                    + e.getMessage(), e);
        }
    }
}
