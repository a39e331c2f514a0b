package org.medjava.viewer.image;

import org.medjava.codec.dicom.Window;
import org.medjava.filter.Raster;
import org.medjava.viewer.model.FilterStep;
import org.medjava.viewer.model.History;

/**
 * An open image with its undo history and, for grey DICOM, the current window. Filters work on the 8-bit image:
 * the first one fixes the window the grey frame is rendered through (recorded in the state); undoing back to the
 * original makes window/level live again. Event thread only; the rasters themselves are immutable once stored.
 */
public final class ImageDocument {
    private OpenedImage image;
    private final History<DocState> history;
    private Window window;
    private ImageOrigin origin;

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

    /** Window/level applies now: a grey DICOM frame not yet filtered. */
    public boolean windowLive() {
        return image.isGreyDicom() && state().isOriginal();
    }

    /** The current window (grey DICOM), or null. */
    public Window window() {
        return window;
    }

    public void setWindow(Window window) {
        if (!windowLive()) {
            throw new IllegalStateException("window/level is fixed once a filter has been applied; undo to change it");
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

    /** The 8-bit image the next filter starts from (renders a grey original through the current window). */
    public Raster filterInput() {
        DocState s = state();
        return s.isOriginal() ? image.toRaster(window) : s.pixels();
    }

    /** Records a filter result as a new undoable state. */
    public DocState applied(Raster result, FilterStep step) {
        DocState s = state();
        Window renderedWith = s.isOriginal() ? (image.isGreyDicom() ? window : null) : s.renderedWith();
        DocState next = new DocState(result, s.chain().then(step), renderedWith);
        history.push(next, next.bytes());
        return next;
    }

    /** The image to upload or save: the latest filter result, or the original rendered through the window. */
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
