package org.medjava.viewer.ui;

import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.List;
import javax.swing.JFrame;
import org.medjava.codec.dicom.DicomElements;
import org.medjava.codec.dicom.Window;
import org.medjava.filter.Region;
import org.medjava.viewer.image.DocState;
import org.medjava.viewer.image.GreyRenderer;
import org.medjava.viewer.image.ImageDocument;
import org.medjava.viewer.image.OpenedImage;
import org.medjava.viewer.image.Rasters;
import org.medjava.viewer.model.WindowLevel;
import org.medjava.viewer.store.StoreClient;

/**
 * Owns what the window shows: the store connection, the open document, its window/level, frame and undo history,
 * and puts their pictures into the {@link ImageView}. Flows and controls change them only through here, and learn
 * about every change through {@link Listener}s. Event thread only, except where a method says otherwise.
 */
final class ViewerController {
    /** What listeners hear; all on the event thread. */
    interface Listener {
        /** A new image was opened (the document object changed). */
        default void opened(ImageDocument doc) {
        }

        /** The document's state, the connection or anything the controls depend on changed. */
        default void changed() {
        }

        /** The window/level or the zoom changed (overlays only). */
        default void windowChanged() {
        }

        /**
         * Another image of the open stack became the document ({@link #showSlice}): window, zoom and pan were kept,
         * so the preset box and the like stay; what belongs to one image (measurements) may reset.
         */
        default void sliceShown(ImageDocument doc) {
        }
    }

    private final JFrame owner;
    private final ImageView view;
    private final AttributesPanel attributes;
    private final StatusBar status;
    private final Tasks tasks;
    private final WindowRenderer renderer;
    private final List<Listener> listeners = new ArrayList<>();
    private StoreClient client;
    private ImageDocument doc;
    private Window dragStart;
    private WindowLevel windowLevel = new WindowLevel(256);
    private int displayVersion;

    ViewerController(JFrame owner, ImageView view, AttributesPanel attributes, StatusBar status, Tasks tasks) {
        this.owner = owner;
        this.view = view;
        this.attributes = attributes;
        this.status = status;
        this.tasks = tasks;
        this.renderer = new WindowRenderer(this::rendered);
        view.setListener(new ViewListener());
    }

    void addListener(Listener listener) {
        listeners.add(listener);
    }

    ImageDocument document() {
        return doc;
    }

    StoreClient client() {
        return client;
    }

    /** The main window: the owner of dialogs. */
    JFrame owner() {
        return owner;
    }

    ImageView view() {
        return view;
    }

    StatusBar status() {
        return status;
    }

    Tasks tasks() {
        return tasks;
    }

    void setClient(StoreClient c) {
        client = c;
        changed();
    }

    /** Tells the listeners that controls must follow the document. */
    void changed() {
        List.copyOf(listeners).forEach(Listener::changed);
    }

    private void windowChanged() {
        List.copyOf(listeners).forEach(Listener::windowChanged);
    }

    // ------------------------------------------------------------------ opening

    /** Makes {@code p} the open document (its history starts empty). */
    void show(PreparedImage p) {
        doc = new ImageDocument(p.image(), Runtime.getRuntime().maxMemory() / 4);
        displayVersion++;
        windowLevel = new WindowLevel(p.range() == null ? 256 : p.range()[1] - p.range()[0]);
        view.setImage(p.display(), false);
        attributes.show(p.elements());
        ImageDocument opened = doc;
        List.copyOf(listeners).forEach(l -> l.opened(opened));
        status.message("Opened " + p.image().origin().name() + " (" + p.image().width() + "×" + p.image().height()
                + (p.image().isDicom() ? ", DICOM " + p.image().dicom().photometricInterpretation() : "") + ")");
        changed();
    }

    /**
     * Makes another image of the open stack (series or frames) the document, keeping the window, zoom and pan: it is
     * rendered through the current window off the event thread (the coalescing renderer, so fast scrolling renders
     * only the latest). Listeners hear {@link Listener#sliceShown} and {@link Listener#changed}.
     */
    void showSlice(OpenedImage image) {
        Window keep = doc != null && doc.windowLive() ? doc.window() : null;
        doc = new ImageDocument(image, Runtime.getRuntime().maxMemory() / 4);
        if (keep != null && doc.windowLive()) {
            doc.setWindow(keep);
        }
        int version = ++displayVersion;
        attributes.show(image.isDicom() ? DicomElements.of(image.dicom()) : List.of());
        if (doc.windowLive()) {
            renderer.request(image.dicom(), null, doc.window());
        } else {
            tasks.background(p -> Rasters.toDisplay(image.toRaster(null)), display -> {
                if (version == displayVersion) {
                    view.setImage(display, true);
                }
            }, e -> status.message(e.getMessage()));
        }
        ImageDocument shown = doc;
        List.copyOf(listeners).forEach(l -> l.sliceShown(shown));
        changed();
    }

    /** Shows a filter's result, which the document already holds as its state. */
    void showFiltered(BufferedImage display) {
        view.setImage(display, true);
        changed();
    }

    // ------------------------------------------------------------------ window/level and frames

    /** Sets the window of a grey DICOM original (or its stored-value state). */
    void setWindow(Window window) {
        if (doc == null || !doc.windowLive()) {
            status.message(doc == null ? "No image" : "Window/level is fixed: a filter ran on the 8-bit image; undo"
                    + " it to change the window");
            return;
        }
        doc.setWindow(window);
        renderer.request(doc.image().dicom(), doc.state().stored(), window);
        windowChanged();
    }

    /** Renders the document's current stored values through its current window again (off the event thread). */
    void renderAgain() {
        renderer.request(doc.image().dicom(), doc.state().stored(), doc.window());
    }

    /** The window over the smallest to largest modality value now shown (computed off the event thread). */
    void setFullRangeWindow() {
        if (doc == null || !doc.windowLive()) {
            setWindow(null);
            return;
        }
        ImageDocument d = doc;
        DocState s = d.state();
        var dicom = d.image().dicom();
        tasks.background(p -> s.stored() == null ? GreyRenderer.modalityRange(dicom)
                : GreyRenderer.modalityRange(dicom, s.stored()), range -> {
            if (doc == d && d.state() == s && d.windowLive()) {
                setWindow(Window.ofRange(range[0], range[1]));
            }
        }, e -> status.message(e.getMessage()));
    }

    private void rendered(WindowRenderer.Request request, BufferedImage image) {
        if (doc != null && doc.windowLive() && request.window().equals(doc.window())
                && request.image() == doc.image().dicom() && request.stored() == doc.state().stored()) {
            view.setImage(image, true);
        }
    }

    /** Shows frame {@code frame} (0-based) of a multi-frame original. */
    void changeFrame(int frame) {
        if (doc == null || !doc.image().isDicom() || frame == doc.image().dicom().frame()) {
            return;
        }
        if (!doc.state().isOriginal()) {
            status.message("Undo the filters before changing the frame");
            changed();
            return;
        }
        ImageDocument d = doc;
        Window w = d.window();
        tasks.foreground("Decoding frame " + (frame + 1), p -> {
            OpenedImage next = d.image().frame(frame);
            return new FrameShown(next, next.isGreyDicom() ? GreyRenderer.render(next.dicom(), w)
                    : Rasters.toDisplay(next.toRaster(null)));
        }, shown -> {
            if (doc == d && d.state().isOriginal()) {
                d.setFrame(shown.image());
                view.setImage(shown.display(), true);
                changed();
            }
        }, e -> {
            Dialogs.error(owner, "Frame " + (frame + 1), e.getMessage());
            changed();
        });
    }

    private record FrameShown(OpenedImage image, BufferedImage display) {
    }

    // ------------------------------------------------------------------ undo/redo

    void undo() {
        if (doc != null && doc.history().canUndo() && !tasks.busy()) {
            doc.history().undo();
            showState();
        }
    }

    void redo() {
        if (doc != null && doc.history().canRedo() && !tasks.busy()) {
            doc.history().redo();
            showState();
        }
    }

    /** Shows the document's current state (after undo/redo), converting off the event thread. */
    private void showState() {
        ImageDocument d = doc;
        DocState s = d.state();
        int version = ++displayVersion;
        changed();
        if (d.windowLive()) {
            renderer.request(d.image().dicom(), s.stored(), d.window());
            return;
        }
        OpenedImage image = d.image();
        tasks.background(p -> Rasters.toDisplay(s.isOriginal() ? image.toRaster(null) : s.pixels()), display -> {
            if (version == displayVersion) {
                view.setImage(display, true);
            }
        }, e -> status.message(e.getMessage()));
    }

    void shutdown() {
        renderer.shutdown();
    }

    private final class ViewListener implements ImageView.Listener {
        @Override
        public void windowDragStarted() {
            dragStart = doc != null && doc.windowLive() ? doc.window() : null;
        }

        @Override
        public void windowDragged(int dx, int dy) {
            if (dragStart != null) {
                setWindow(windowLevel.drag(dragStart, dx, dy));
            }
        }

        @Override
        public void selectionChanged(Region region) {
            status.message(region == null ? "Selection cleared: filters apply to the whole image"
                    : "Selected " + region.width() + "×" + region.height() + " at " + region.x() + "," + region.y()
                    + ": filters apply to it only");
        }

        @Override
        public void zoomChanged() {
            windowChanged();
        }
    }
}
