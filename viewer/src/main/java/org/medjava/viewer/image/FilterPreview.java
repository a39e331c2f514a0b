package org.medjava.viewer.image;

import java.awt.image.BufferedImage;
import java.util.Map;
import org.medjava.codec.ImageDecodeException;
import org.medjava.codec.dicom.DicomImage;
import org.medjava.codec.dicom.Window;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;
import org.medjava.filter.runtime.CallControl;
import org.medjava.filter.runtime.FilterRegistry;

/**
 * A live preview of one filter on part of the open image: the selected region when it fits in {@link #MAX_SIDE}
 * square (then the preview is exactly what Apply gives), else a crop of at most that size from the centre of the
 * selection or of the image. The crop is taken once, from the state and window the filter would start from and by
 * the same route ({@link ImageDocument#route}: stored values or 8-bit pixels); each run filters only the crop
 * through the registry, cancellable by its {@link CallControl}. Runs off the event thread; immutable after
 * {@link #prepare}.
 */
public final class FilterPreview {
    /** The largest side of the crop: small enough to filter while a spinner turns, large enough to judge. */
    public static final int MAX_SIDE = 256;

    /** Set while a preview runs on a thread, so a benchmark log can leave previews out. */
    private static final ThreadLocal<Boolean> RUNNING = new ThreadLocal<>();

    private final FilterRegistry registry;
    private final String filterId;
    private final Region crop;
    private final boolean exact;
    private final Raster pixels;
    private final GrayRaster16 stored;
    private final DicomImage dicom;
    private final Window window;
    private final BufferedImage before;

    private FilterPreview(FilterRegistry registry, String filterId, Region crop, boolean exact, Raster pixels,
                          GrayRaster16 stored, DicomImage dicom, Window window) {
        this.registry = registry;
        this.filterId = filterId;
        this.crop = crop;
        this.exact = exact;
        this.pixels = pixels;
        this.stored = stored;
        this.dicom = dicom;
        this.window = window;
        this.before = stored != null ? GreyRenderer.renderPart(dicom, stored, window) : Rasters.toDisplay(pixels);
    }

    /**
     * The part of a {@code width}×{@code height} image a preview filters: the selection (clipped) when both its
     * sides are at most {@code maxSide}, else a centred crop of at most {@code maxSide} square inside the selection,
     * or inside the image when nothing is selected.
     */
    public static Region crop(int width, int height, Region selection, int maxSide) {
        Region within = selection == null ? Region.of(0, 0, width, height) : selection.clip(width, height);
        if (within.isEmpty()) {
            within = Region.of(0, 0, width, height);
        }
        int w = Math.min(within.width(), maxSide);
        int h = Math.min(within.height(), maxSide);
        return Region.of(within.x() + (within.width() - w) / 2, within.y() + (within.height() - h) / 2, w, h);
    }

    /**
     * Takes the crop from {@code state} (the filter's input: the current state through {@code window}). Off the
     * event thread.
     *
     * @param selection the selected region, or null for the whole image
     */
    public static FilterPreview prepare(FilterRegistry registry, String filterId, String filterName,
                                        OpenedImage image, DocState state, Window window, Region selection)
            throws ImageDecodeException {
        Region whole = Region.of(0, 0, image.width(), image.height());
        Region target = selection == null ? whole : selection.clip(image.width(), image.height());
        Region crop = crop(image.width(), image.height(), selection, MAX_SIDE);
        boolean exact = crop.equals(target);
        boolean grey = image.isGreyDicom() && registry.supportsGray16(filterId);
        if (ImageDocument.route(image, state, window, filterName, grey).storedValues()) {
            GrayRaster16 values = cropOf(ImageDocument.storedValues(image, state), crop);
            return new FilterPreview(registry, filterId, crop, exact, null, values, image.dicom(), window);
        }
        return new FilterPreview(registry, filterId, crop, exact, cropOf(ImageDocument.pixels(image, state, window),
                crop), null, null, null);
    }

    static Raster cropOf(Raster src, Region r) {
        Raster out = new Raster(r.width(), r.height());
        for (int y = 0; y < r.height(); y++) {
            System.arraycopy(src.rgb(), 3 * ((r.y() + y) * src.width() + r.x()), out.rgb(), 3 * y * r.width(),
                    3 * r.width());
        }
        return out;
    }

    static GrayRaster16 cropOf(GrayRaster16 src, Region r) {
        GrayRaster16 out = new GrayRaster16(r.width(), r.height(), src.bitsStored(), src.signed());
        for (int y = 0; y < r.height(); y++) {
            System.arraycopy(src.words(), (r.y() + y) * src.width() + r.x(), out.words(), y * r.width(), r.width());
        }
        return out;
    }

    /** The part of the image previewed, in image coordinates. */
    public Region crop() {
        return crop;
    }

    /** Whether the preview is exactly what Apply gives (the crop is the whole target, so its edges are the same). */
    public boolean exact() {
        return exact;
    }

    /** Whether the preview runs on the stored values (a grey DICOM with a filter that has grey kernels). */
    public boolean storedValues() {
        return stored != null;
    }

    /** The crop before filtering, as shown. */
    public BufferedImage before() {
        return before;
    }

    /** One line for the dialog: what is previewed, and how far it matches Apply. */
    public String describe() {
        String size = crop.width() + "×" + crop.height();
        return exact ? "Preview of the whole " + size + " target: exactly what Apply gives"
                : "Preview of a " + size + " crop from the centre: near its borders Apply on the whole target can "
                + "differ";
    }

    /**
     * Filters the crop with {@code raw} parameters. Off the event thread.
     *
     * @throws org.medjava.filter.InvalidParameterException a value breaks its rule
     * @throws org.medjava.filter.runtime.RegistryException.CallCancelledException {@code control} was cancelled
     */
    public BufferedImage run(Map<String, String> raw, Implementation implementation, CallControl control) {
        RUNNING.set(Boolean.TRUE);
        try {
            if (stored != null) {
                GrayRaster16 out = registry.apply(filterId, stored, null, raw, implementation, control);
                return GreyRenderer.renderPart(dicom, out, window);
            }
            return Rasters.toDisplay(registry.apply(filterId, pixels, null, raw, implementation, control));
        } finally {
            RUNNING.remove();
        }
    }

    /** Whether the calling thread is running a preview (registry listeners hear previews on that thread). */
    public static boolean isPreviewThread() {
        return RUNNING.get() != null;
    }
}
