package org.medjava.viewer.image;

import org.medjava.codec.ImageDecodeException;
import org.medjava.codec.dicom.DicomImage;
import org.medjava.codec.dicom.Window;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Raster;
import org.medjava.viewer.model.FilterStep;
import org.medjava.viewer.model.History;
import org.medjava.viewer.model.WindowLevel;

/**
 * An open image with its undo history and, for grey DICOM, the current window. A grey DICOM frame of up to 16 bits
 * stored is filtered on its stored values ({@link #route}): the states hold the filtered values and the display
 * windows them, so window/level stays live after any number of filters. A filter without grey kernels, a colour
 * image or grey of more than 16 bits takes the 8-bit path: the filter runs on the image rendered through the
 * current window, which is then fixed (recorded in the state) until undone. Event thread only; the rasters
 * themselves are immutable once stored.
 */
public final class ImageDocument {
    private OpenedImage image;
    private final History<DocState> history;
    private Window window;
    private ImageOrigin origin;

    /** How the next filter runs: on the stored values, or on 8-bit pixels, with why when a grey image loses data. */
    public record Route(boolean storedValues, String note) {
    }

    public ImageDocument(OpenedImage image, long historyBudgetBytes) {
        this.image = image;
        this.origin = image.origin();
        this.history = new History<>(DocState.original(), 0, historyBudgetBytes);
        this.window = image.isGreyDicom() ? image.dicom().defaultWindow().orElse(null) : null;
    }

    public OpenedImage image() {
        return image;
    }

    /** Where it came from; after an upload over the source, the store file with its new ETag. */
    public ImageOrigin origin() {
        return origin;
    }

    public void setOrigin(ImageOrigin origin) {
        this.origin = origin;
    }

    public DocState state() {
        return history.current();
    }

    public History<DocState> history() {
        return history;
    }

    /** Window/level applies now: a grey DICOM frame, as opened or filtered on its stored values. */
    public boolean windowLive() {
        return image.isGreyDicom() && !state().isPixels();
    }

    /** The current window (grey DICOM), or null. */
    public Window window() {
        return window;
    }

    public void setWindow(Window window) {
        if (!windowLive()) {
            throw new IllegalStateException("window/level is fixed once a filter has run on the 8-bit image; undo "
                    + "to change it");
        }
        this.window = window;
    }

    /** Another frame of a multi-frame DICOM; only before filtering (the history would describe the other frame). */
    public void setFrame(OpenedImage frame) {
        if (!state().isOriginal()) {
            throw new IllegalStateException("undo the filters before changing the frame");
        }
        this.image = frame;
    }

    /**
     * How a filter named {@code filterName} runs on the current state: on the stored values when the frame is grey of
     * up to 16 bits, no 8-bit step came before and the filter has grey kernels; otherwise on 8-bit pixels, with a
     * note saying why when a grey frame's window gets fixed by it (null for colour and non-DICOM images, which lose
     * nothing).
     */
    public Route route(String filterName, boolean filterSupportsGray16) {
        return route(image, state(), window, filterName, filterSupportsGray16);
    }

    /** {@link #route(String, boolean)} for a state taken earlier (off the event thread). */
    public static Route route(OpenedImage image, DocState s, Window window, String filterName,
                              boolean filterSupportsGray16) {
        if (!image.isGreyDicom()) {
            return new Route(false, null);
        }
        if (s.isPixels()) {
            return new Route(false, filterName + " ran on the 8-bit image: an earlier filter fixed the window ("
                    + WindowLevel.format(s.renderedWith()) + ")");
        }
        DicomImage dicom = image.dicom();
        String fixed = "; window/level is now fixed at " + WindowLevel.format(window) + " (undo to change it)";
        if (!dicom.isGray16()) {
            return new Route(false, filterName + " ran on the 8-bit image: filters take grey of at most 16 bits "
                    + "stored, this is " + dicom.dataDescription() + fixed);
        }
        if (!filterSupportsGray16) {
            return new Route(false, filterName + " has no 16-bit grey kernels, so it ran on the 8-bit image" + fixed);
        }
        return new Route(true, null);
    }

    /**
     * The stored values the next grey filter starts from (a copy for the original frame). Off the event thread is
     * fine: it reads only immutable values.
     */
    public static GrayRaster16 storedValues(OpenedImage image, DocState state) throws ImageDecodeException {
        return state.stored() != null ? state.stored() : image.dicom().grayRaster();
    }

    /**
     * The 8-bit image of {@code state}: its pixels, or its stored values (or the frame's own) rendered through
     * {@code window}; a colour or raster image as decoded. Off the event thread is fine.
     */
    public static Raster pixels(OpenedImage image, DocState state, Window window) {
        if (state.isPixels()) {
            return state.pixels();
        }
        if (state.stored() != null) {
            return image.dicom().withStoredValues(state.stored()).render(window);
        }
        return image.toRaster(window);
    }

    /** The 8-bit image the next 8-bit filter starts from (the current state through the current window). */
    public Raster filterInput() {
        return pixels(image, state(), window);
    }

    /** The frame with the current state's stored values (the frame itself before filtering); null for 8-bit states. */
    public DicomImage currentDicom() {
        DocState s = state();
        if (s.isPixels() || !image.isDicom()) {
            return null;
        }
        return s.stored() == null ? image.dicom() : image.dicom().withStoredValues(s.stored());
    }

    /** Records an 8-bit filter result as a new undoable state; a grey source's window is fixed from now on. */
    public DocState applied(Raster result, FilterStep step) {
        DocState s = state();
        Window renderedWith = s.isPixels() ? s.renderedWith() : (image.isGreyDicom() ? window : null);
        DocState next = new DocState(result, null, s.chain().then(step), renderedWith);
        history.push(next, next.bytes());
        return next;
    }

    /** Records filtered stored values as a new undoable state; the window stays live. */
    public DocState appliedStored(GrayRaster16 result, FilterStep step) {
        DocState s = state();
        if (s.isPixels()) {
            throw new IllegalStateException("stored values cannot follow an 8-bit filter result");
        }
        DicomImage dicom = image.dicom();
        if (dicom == null || !dicom.isGray16()) {
            throw new IllegalStateException(image.origin().name() + " has no 16-bit grey stored values");
        }
        if (result.width() != dicom.width() || result.height() != dicom.height()
                || result.bitsStored() != dicom.bitsStored() || result.signed() != dicom.isSigned()) {
            throw new IllegalArgumentException(result + " are not stored values of " + dicom);
        }
        DocState next = new DocState(null, result, s.chain().then(step), null);
        history.push(next, next.bytes());
        return next;
    }

    /** The 8-bit image to save as PNG/GIF: the current state through the current window. */
    public Raster currentRaster() {
        return filterInput();
    }

    public int width() {
        return image.width();
    }

    public int height() {
        return image.height();
    }
}
