package org.medjava.viewer.ui;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Component;
import java.awt.Container;
import java.awt.Dimension;
import java.awt.Font;
import java.awt.Graphics;
import java.awt.Graphics2D;
import java.awt.LayoutManager;
import java.awt.Rectangle;
import java.awt.RenderingHints;
import java.awt.event.MouseAdapter;
import java.awt.event.MouseEvent;
import java.awt.event.MouseWheelEvent;
import java.awt.image.BufferedImage;
import java.util.function.Consumer;
import javax.swing.JComponent;
import javax.swing.JPanel;
import javax.swing.SwingUtilities;
import org.medjava.codec.dicom.DicomImage;
import org.medjava.codec.dicom.Window;
import org.medjava.filter.Region;
import org.medjava.viewer.image.ImageDocument;
import org.medjava.viewer.image.OpenedImage;
import org.medjava.viewer.image.Rasters;

/**
 * Before/after and side by side: the image view with, when asked, the source of the current filter chain (the
 * image as opened, through the window now applied — or, once an 8-bit filter fixed it, the window it was fixed at)
 * instead of or beside the result. The source is drawn by a mirror of the image view: the same zoom and pan (it
 * paints with the view's own transform) and every mouse gesture on it is the view's (pan, zoom, window/level drag),
 * so both sides always stay synchronised. The source is rendered off the event thread, coalesced while the window is
 * dragged. Event thread.
 */
final class CompareView extends JPanel {
    private static final long serialVersionUID = 1L;

    /** What the image area shows. */
    enum Mode {
        /** The current state only (the usual view). */
        RESULT,
        /** The source only, where the result was: toggled with B to flick between the two. */
        BEFORE,
        /** The source on the left, the result on the right. */
        SIDE_BY_SIDE
    }

    private final ImageView result;
    private final SourceView source = new SourceView();
    private final transient WindowRenderer renderer;
    private final transient Tasks tasks;
    private transient ImageDocument doc;
    private transient Object shownKey;
    private transient Object pendingKey;
    private transient Consumer<Mode> modeListener = m -> { };
    private Mode mode = Mode.RESULT;

    CompareView(ImageView result, Tasks tasks) {
        super(null);
        this.result = result;
        this.tasks = tasks;
        this.renderer = new WindowRenderer(this::rendered);
        setName("compareView");
        setLayout(new CompareLayout());
        setBackground(Color.BLACK);
        add(source);
        add(result);
        source.setVisible(false);
        // the result view's own gestures (pan, zoom, fit) move the shared geometry: the mirror follows
        MouseAdapter follow = new MouseAdapter() {
            @Override
            public void mouseDragged(MouseEvent e) {
                source.repaint();
            }

            @Override
            public void mouseReleased(MouseEvent e) {
                source.repaint();
            }

            @Override
            public void mouseWheelMoved(MouseWheelEvent e) {
                source.repaint();
            }
        };
        result.addMouseListener(follow);
        result.addMouseMotionListener(follow);
        result.addMouseWheelListener(follow);
    }

    Mode mode() {
        return mode;
    }

    /** Called with the new mode after every change (for the toolbar's toggles). */
    void onModeChange(Consumer<Mode> listener) {
        modeListener = listener;
    }

    void setMode(Mode next) {
        if (next == mode) {
            return;
        }
        mode = next;
        boolean focused = result.isFocusOwner() || source.isFocusOwner();
        source.setVisible(mode != Mode.RESULT);
        result.setVisible(mode != Mode.BEFORE);
        if (focused) { // the keys (B again) stay with the image when the focused side is hidden
            (mode == Mode.BEFORE ? source : result).requestFocusInWindow();
        }
        revalidate();
        repaint();
        refresh();
        modeListener.accept(mode);
    }

    /** B: between the result and its source (from side by side, to the source alone). */
    void toggleBefore() {
        setMode(mode == Mode.BEFORE ? Mode.RESULT : Mode.BEFORE);
    }

    void toggleSideBySide() {
        setMode(mode == Mode.SIDE_BY_SIDE ? Mode.RESULT : Mode.SIDE_BY_SIDE);
    }

    /** The document, its state, its window or the view changed: re-render the source if it is shown. */
    void documentChanged(ImageDocument document) {
        doc = document;
        refresh();
    }

    /** The mirror of the source (for tests): its image, or null before it was rendered. */
    BufferedImage sourceImage() {
        return source.image;
    }

    JComponent sourceView() {
        return source;
    }

    /** What the source is rendered through: the live window, or the one an 8-bit filter fixed; null for colour. */
    static Window sourceWindow(ImageDocument d) {
        if (!d.image().isGreyDicom()) {
            return null;
        }
        return d.windowLive() ? d.window() : d.state().renderedWith();
    }

    private record Key(OpenedImage image, Window window) {
    }

    private void refresh() {
        source.repaint();
        if (mode == Mode.RESULT || doc == null) {
            return;
        }
        OpenedImage image = doc.image();
        Window window = sourceWindow(doc);
        Key key = new Key(image, window);
        if (key.equals(shownKey) || key.equals(pendingKey)) {
            return;
        }
        pendingKey = key;
        if (image.isGreyDicom() && window != null) {
            renderer.request(image.dicom(), null, window);
        } else {
            tasks.background(p -> Rasters.toDisplay(image.toRaster(window)), display -> show(key, display),
                    e -> pendingKey = null);
        }
    }

    private void rendered(WindowRenderer.Request request, BufferedImage image) {
        show(new Key(doc == null ? null : doc.image(), request.window()), image, request.image());
    }

    private void show(Key key, BufferedImage display, DicomImage renderedFrom) {
        if (doc != null && doc.image().isDicom() && doc.image().dicom() == renderedFrom) {
            show(key, display);
        }
    }

    private void show(Key key, BufferedImage display) {
        if (doc == null || key.image() != doc.image()) {
            return; // another image was opened meanwhile
        }
        if (key.equals(pendingKey)) {
            pendingKey = null;
        }
        shownKey = key;
        source.image = display;
        source.repaint();
    }

    /** Frees the renderer's thread. */
    void shutdown() {
        renderer.shutdown();
    }

    /** The result fills the area, or the source does, or the source takes the left half and the result the right. */
    private final class CompareLayout implements LayoutManager {
        @Override
        public void layoutContainer(Container parent) {
            int w = parent.getWidth();
            int h = parent.getHeight();
            if (mode == Mode.SIDE_BY_SIDE) {
                int left = (w - 2) / 2;
                source.setBounds(0, 0, left, h);
                result.setBounds(w - left, 0, left, h);
            } else {
                // the hidden one keeps the same bounds, so the shared geometry fits both
                source.setBounds(0, 0, w, h);
                result.setBounds(0, 0, w, h);
            }
        }

        @Override
        public Dimension preferredLayoutSize(Container parent) {
            return result.getPreferredSize();
        }

        @Override
        public Dimension minimumLayoutSize(Container parent) {
            return new Dimension(0, 0);
        }

        @Override
        public void addLayoutComponent(String name, Component comp) {
        }

        @Override
        public void removeLayoutComponent(Component comp) {
        }
    }

    /**
     * Paints the source with the result view's transform and hands every mouse gesture to the result view at the
     * same point, so panning, zooming and window/level dragging on either side act on both.
     */
    private final class SourceView extends JComponent {
        private static final long serialVersionUID = 1L;
        private transient BufferedImage image;

        SourceView() {
            setName("sourceView");
            setFocusable(true);
            setOpaque(true);
            setBackground(Color.BLACK);
            MouseAdapter forward = new MouseAdapter() {
                @Override
                public void mousePressed(MouseEvent e) {
                    pass(e);
                }

                @Override
                public void mouseReleased(MouseEvent e) {
                    pass(e);
                }

                @Override
                public void mouseClicked(MouseEvent e) {
                    pass(e);
                }

                @Override
                public void mouseDragged(MouseEvent e) {
                    pass(e);
                }

                @Override
                public void mouseWheelMoved(MouseWheelEvent e) {
                    pass(e);
                }
            };
            addMouseListener(forward);
            addMouseMotionListener(forward);
            addMouseWheelListener(forward);
        }

        /** The same gesture at the same view point of the result view (both have the same geometry). */
        private void pass(MouseEvent e) {
            if (e.getID() == MouseEvent.MOUSE_PRESSED) {
                requestFocusInWindow(); // keys (B) follow the side clicked, as with the view itself
            }
            MouseEvent moved = e instanceof MouseWheelEvent w
                    ? new MouseWheelEvent(result, w.getID(), w.getWhen(), w.getModifiersEx(), w.getX(), w.getY(),
                    w.getXOnScreen(), w.getYOnScreen(), w.getClickCount(), w.isPopupTrigger(), w.getScrollType(),
                    w.getScrollAmount(), w.getWheelRotation(), w.getPreciseWheelRotation())
                    : new MouseEvent(result, e.getID(), e.getWhen(), e.getModifiersEx(), e.getX(), e.getY(),
                    e.getXOnScreen(), e.getYOnScreen(), e.getClickCount(), e.isPopupTrigger(), e.getButton());
            result.dispatchEvent(moved);
            repaint();
            result.repaint();
        }

        @Override
        protected void paintComponent(Graphics g0) {
            Graphics2D g = (Graphics2D) g0.create();
            try {
                g.setColor(getBackground());
                g.fillRect(0, 0, getWidth(), getHeight());
                BufferedImage shown = image;
                if (shown == null) {
                    return;
                }
                var transform = result.transform();
                g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, transform.scale() >= 1
                        ? RenderingHints.VALUE_INTERPOLATION_NEAREST_NEIGHBOR
                        : RenderingHints.VALUE_INTERPOLATION_BILINEAR);
                Rectangle r = transform.toView(0, 0, shown.getWidth(), shown.getHeight());
                g.drawImage(shown, r.x, r.y, r.width, r.height, null);
                Region selection = result.selection();
                if (selection != null) {
                    Rectangle s = transform.toView(selection.x(), selection.y(), selection.width(),
                            selection.height());
                    g.setStroke(new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                            new float[] {6f, 4f}, 0f));
                    g.setColor(new Color(255, 200, 0));
                    g.drawRect(s.x, s.y, s.width, s.height);
                }
                label(g, "BEFORE — source of the filter chain");
            } finally {
                g.dispose();
            }
        }

        private void label(Graphics2D g, String text) {
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setFont(getFont().deriveFont(Font.BOLD, 12f));
            int x = (getWidth() - g.getFontMetrics().stringWidth(text)) / 2;
            int y = getHeight() - 10;
            g.setColor(Color.BLACK);
            g.drawString(text, x + 1, y + 1);
            g.setColor(new Color(255, 200, 0));
            g.drawString(text, x, y);
        }
    }
}
