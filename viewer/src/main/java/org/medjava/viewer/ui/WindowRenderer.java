package org.medjava.viewer.ui;

import java.awt.image.BufferedImage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import javax.swing.SwingUtilities;
import org.medjava.codec.dicom.DicomImage;
import org.medjava.codec.dicom.Window;
import org.medjava.filter.GrayRaster16;
import org.medjava.viewer.image.GreyRenderer;

/**
 * Re-renders a grey frame (or filtered stored values of it) as the window is dragged, off the event thread. Requests coalesce: while one render runs,
 * only the latest request waits, so a fast drag over a 4096x4096 frame never queues up stale work. Results arrive on
 * the event thread, tagged with their window.
 */
final class WindowRenderer {
    /** @param stored filtered stored values of {@code image}, or null for the frame's own */
    record Request(DicomImage image, GrayRaster16 stored, Window window) {
    }

    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "window-renderer");
        t.setDaemon(true);
        return t;
    });
    private final AtomicReference<Request> pending = new AtomicReference<>();
    private final BiConsumer<Request, BufferedImage> done;

    WindowRenderer(BiConsumer<Request, BufferedImage> done) {
        this.done = done;
    }

    void request(DicomImage image, GrayRaster16 stored, Window window) {
        if (pending.getAndSet(new Request(image, stored, window)) == null) {
            thread.submit(this::renderLatest);
        }
    }

    private void renderLatest() {
        Request r = pending.getAndSet(null);
        if (r == null) {
            return;
        }
        BufferedImage image = r.stored() == null ? GreyRenderer.render(r.image(), r.window())
                : GreyRenderer.render(r.image(), r.stored(), r.window());
        SwingUtilities.invokeLater(() -> done.accept(r, image));
    }

    void shutdown() {
        thread.shutdownNow();
    }
}
