package org.medjava.store.render;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.medjava.codec.ImageCodec;
import org.medjava.codec.ImageDecodeException;
import org.medjava.codec.dicom.DicomCodec;
import org.medjava.codec.dicom.DicomImage;
import org.medjava.filter.InvalidParameterException;
import org.medjava.filter.Raster;
import org.medjava.filter.runtime.FilterRegistry;
import org.medjava.filter.runtime.RegistryException;
import org.medjava.store.StoreException;

/**
 * Server-side rendering: decode a stored image (DICOM through its VOI window), run a filter chain through the
 * registry, encode as PNG, GIF or JPEG. The chain is validated before the image is read, so a typo costs nothing.
 */
public final class RenderService {

    private final FilterRegistry registry;
    private final long maxPixels;

    public RenderService(FilterRegistry registry, long maxPixels) {
        this.registry = registry;
        this.maxPixels = maxPixels;
    }

    /** @param dicom whether the stored file is DICOM (then window and frame apply) */
    public byte[] render(Path file, boolean dicom, RenderRequest request) throws IOException {
        return render(file, dicom, request, new Timings());
    }

    /** As {@link #render(Path, boolean, RenderRequest)}, noting in {@code timings} how long each phase took. */
    public byte[] render(Path file, boolean dicom, RenderRequest request, Timings timings) throws IOException {
        validate(request);
        long t0 = System.nanoTime();
        Raster raster = decode(file, dicom, request);
        long t1 = System.nanoTime();
        raster = filter(raster, request);
        long t2 = System.nanoTime();
        ByteArrayOutputStream out = new ByteArrayOutputStream(raster.width() * raster.height() + 1024);
        ImageCodec.write(raster, request.format(), out);
        timings.decodeNanos = t1 - t0;
        timings.filterNanos = t2 - t1;
        timings.encodeNanos = System.nanoTime() - t2;
        return out.toByteArray();
    }

    /** Where a rendering spent its time (for the {@code Server-Timing} header a client can show). */
    public static final class Timings {
        long decodeNanos;
        long filterNanos;
        long encodeNanos;

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
        for (RenderRequest.FilterStep step : request.filters()) {
            try {
                registry.validate(step.filterId(), step.params());
            } catch (RegistryException.UnknownIdException | InvalidParameterException e) {
                throw new StoreException(StoreException.Kind.BAD_REQUEST, e.getMessage());
            }
        }
    }

    /** Runs the request's filter chain, in order, over {@code raster} (within its region). */
    public Raster filter(Raster raster, RenderRequest request) {
        for (RenderRequest.FilterStep step : request.filters()) {
            raster = apply(step, raster, request);
        }
        return raster;
    }

    public long maxPixels() {
        return maxPixels;
    }

    /**
     * A DICOM image's frame ({@code frame} from 0) in its default window, fitted into {@code maxWidth x maxHeight}
     * with its aspect ratio kept ({@link Thumbnail}), encoded as {@code format}.
     */
    public byte[] thumbnail(Path file, int frame, int maxWidth, int maxHeight, org.medjava.codec.ImageFormat format)
            throws IOException {
        RenderRequest request = new RenderRequest(format, java.util.List.of(), null, null, frame,
                org.medjava.filter.Implementation.OPTIMIZED);
        Raster raster = Thumbnail.fit(decode(file, true, request), maxWidth, maxHeight);
        ByteArrayOutputStream out = new ByteArrayOutputStream(raster.width() * raster.height() + 1024);
        ImageCodec.write(raster, format, out);
        return out.toByteArray();
    }

    private Raster decode(Path file, boolean dicom, RenderRequest request) throws IOException {
        try {
            if (dicom) {
                DicomImage image = DicomCodec.read(Files.readAllBytes(file), request.frame(), maxPixels);
                return request.window() == null ? image.render() : image.render(request.window());
            }
            if (request.frame() != 0) {
                throw new StoreException(StoreException.Kind.BAD_REQUEST, "frame=" + request.frame()
                        + ": only DICOM images have frames");
            }
            if (request.window() != null) {
                throw new StoreException(StoreException.Kind.BAD_REQUEST, "window applies to DICOM images only");
            }
            try (InputStream in = Files.newInputStream(file)) {
                return ImageCodec.read(in, maxPixels);
            }
        } catch (ImageDecodeException e) {
            throw new StoreException(StoreException.Kind.UNPROCESSABLE, "cannot render: " + e.getMessage()
                    .replace(file.toString() + ": ", ""), e);
        }
    }

    private Raster apply(RenderRequest.FilterStep step, Raster raster, RenderRequest request) {
        try {
            return registry.apply(step.filterId(), raster, request.region(), step.params(), request.implementation());
        } catch (RegistryException.UnknownIdException | InvalidParameterException e) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, e.getMessage()); // removed since validation
        } catch (RegistryException.FilterUnavailableException e) {
            throw new StoreException(StoreException.Kind.CONFLICT, e.getMessage());
        } catch (RegistryException.FilterFailedException e) {
            throw new StoreException(StoreException.Kind.UNPROCESSABLE, "filter " + step.filterId() + " failed: "
                    + e.getMessage(), e);
        }
    }
}
