package org.medjava.viewer.ui;

import java.awt.BorderLayout;
import javax.swing.BoxLayout;
import javax.swing.JPanel;
import org.medjava.viewer.image.ImageDocument;
import org.medjava.viewer.image.ImageOrigin;
import org.medjava.viewer.image.OpenedImage;
import org.medjava.viewer.store.IndexRows;
import org.medjava.viewer.store.StoreClient;

/**
 * Issue 19 part 1 in the window: series and stacks. Follows the controller — an image opened from the store brings
 * its series as a {@link StackController stack} and its study's series into the {@link SeriesStrip}, a multi-frame
 * object its frames — and shows the stack's images through {@link ViewerController#showSlice}, which keeps window,
 * zoom and pan. Adds the {@link StackBar} and the strip under the image, the stack's keys and wheel on the image,
 * and "Image n / N" to the overlay. Event thread.
 */
final class SeriesView implements ViewerController.Listener, StackController.Host {
    private final ViewerController controller;
    private final StackController stack;
    private final StackBar bar;
    private final SeriesStrip strip;
    private final JPanel panel = new JPanel();
    private final Overlays overlays;

    SeriesView(ViewerController controller, Overlays overlays) {
        this.controller = controller;
        this.overlays = overlays;
        this.stack = new StackController(controller.tasks(), this, StackController.defaultBudget());
        this.bar = new StackBar(stack);
        this.strip = new SeriesStrip(controller.tasks(), this::openSeries);
        panel.setLayout(new BoxLayout(panel, BoxLayout.Y_AXIS));
        panel.setName("seriesPanel");
        panel.add(bar);
        panel.add(strip);
        StackKeys.install(controller.view(), stack);
        overlays.addBottomLeftLine(() -> stack.isOpen() ? "Image " + (stack.wanted() + 1) + " / " + stack.count()
                : "");
        controller.addListener(this);
    }

    /** The stack bar and the series strip, to go under the image. */
    JPanel panel() {
        return panel;
    }

    StackController stack() {
        return stack;
    }

    SeriesStrip strip() {
        return strip;
    }

    void shutdown() {
        stack.shutdown();
    }

    // ------------------------------------------------------------------ following the controller

    @Override
    public void opened(ImageDocument doc) {
        OpenedImage image = doc.image();
        stack.opened(controller.client(), image);
        showStudySeries(image);
    }

    @Override
    public void changed() {
        // another frame chosen with the Frame spinner: the stack follows
        ImageDocument doc = controller.document();
        if (doc != null && stack.isOpen() && !stack.isCurrent(doc.image())) {
            stack.adopt(doc.image());
        }
    }

    private void showStudySeries(OpenedImage image) {
        StoreClient c = controller.client();
        if (c == null || !image.isDicom() || !(image.origin() instanceof ImageOrigin.StoreFile)) {
            strip.clear();
            return;
        }
        String study = image.dicom().attributes().studyInstanceUid();
        if (study.isBlank()) {
            strip.clear();
        } else if (!study.equals(strip.study())) {
            stack.studySeries(c, study, series -> {
                ImageDocument doc = controller.document();
                if (doc != null && doc.image().isDicom()
                        && study.equals(doc.image().dicom().attributes().studyInstanceUid())) {
                    strip.show(c, study, series, doc.image().dicom().attributes().seriesInstanceUid());
                }
            });
        } else {
            strip.mark(image.dicom().attributes().seriesInstanceUid());
        }
    }

    private void openSeries(IndexRows.Series series) {
        openSeries(strip.study(), series.seriesInstanceUid());
    }

    /** Opens a store series as a stack at its first image (the strip, the DICOM tree). */
    void openSeries(String studyUid, String seriesUid) {
        StoreClient c = controller.client();
        if (c == null) {
            controller.status().message("Connect to a store first");
            return;
        }
        stack.openSeries(c, studyUid, seriesUid);
    }

    // ------------------------------------------------------------------ the stack's host

    @Override
    public boolean maySwitchImage() {
        ImageDocument doc = controller.document();
        if (doc != null && !doc.state().isOriginal()) {
            controller.status().message("Undo the filters (or upload the result) before moving to another image: "
                    + "they belong to this one");
            return false;
        }
        return true;
    }

    @Override
    public void showSlice(OpenedImage image, int index, int count, boolean first) {
        if (!first) {
            controller.showSlice(image);
            return;
        }
        // a series just opened: its own window and presets, fitted, as any opened image
        controller.tasks().background(p -> PreparedImage.of(image), prepared -> {
            if (stack.wanted() == index) {
                controller.show(prepared);
            }
        }, e -> controller.status().message("Could not show image " + (index + 1) + ": " + e.getMessage()));
    }

    @Override
    public void stackChanged() {
        controller.view().setWheelScroll(stack.isOpen() ? stack::step : null);
        bar.refresh();
        strip.mark(stack.seriesUid());
        // only the overlay's "Image n / N": controller.changed() would rebuild the tool bar's controls while the
        // reader may be typing in them (a frame number), and prefetched images arrive at any time
        overlays.refresh();
    }

    @Override
    public void message(String text) {
        controller.status().message(text);
    }
}
