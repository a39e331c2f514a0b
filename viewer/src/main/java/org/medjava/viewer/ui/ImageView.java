package org.medjava.viewer.ui;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Cursor;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics;
import java.awt.Graphics2D;
import java.awt.Point;
import java.awt.Rectangle;
import java.awt.RenderingHints;
import java.awt.event.ComponentAdapter;
import java.awt.event.ComponentEvent;
import java.awt.event.MouseAdapter;
import java.awt.event.MouseEvent;
import java.awt.event.MouseWheelEvent;
import java.awt.geom.Point2D;
import java.awt.image.BufferedImage;
import javax.swing.JComponent;
import javax.swing.SwingUtilities;
import org.medjava.filter.Region;
import org.medjava.viewer.model.RegionSelection;
import org.medjava.viewer.model.ViewTransform;

/**
 * The image on a black background, zoomed and panned, with the radiologist's corner overlays and the selected
 * region. The left mouse button does what the current {@link Tool} says; the right button always pans, the wheel
 * zooms about the pointer (in a stack it scrolls the images and Ctrl+wheel zooms), a double click fits the image.
 * Event thread only.
 */
public final class ImageView extends JComponent {
    private static final long serialVersionUID = 1L;

    /** What a left drag does. */
    public enum Tool { WINDOW_LEVEL, PAN, SELECT }

    /** What the view tells its owner. */
    public interface Listener {
        void windowDragStarted();

        /** Total drag since the press, in screen pixels. */
        void windowDragged(int dx, int dy);

        void selectionChanged(Region region);

        void zoomChanged();
    }

    private final ViewTransform transform = new ViewTransform();
    private transient BufferedImage image;
    private transient Listener listener;
    private Tool tool = Tool.WINDOW_LEVEL;
    private boolean fitted = true;
    private Region selection;
    private Point press;
    private Point last;
    private Rectangle rubberBand;
    private boolean leftDrag;
    private final String[] corners = {"", "", "", ""};
    private String placeholder = "Open an image: File ▸ Open, or double-click one in the store browser";
    private transient java.util.function.IntConsumer wheelScroll;
    private double wheelRest;

    public ImageView() {
        setName("imageView");
        setOpaque(true);
        setBackground(Color.BLACK);
        setFocusable(true);
        MouseAdapter mouse = new Mouse();
        addMouseListener(mouse);
        addMouseMotionListener(mouse);
        addMouseWheelListener(mouse);
        addComponentListener(new ComponentAdapter() {
            @Override
            public void componentResized(ComponentEvent e) {
                if (fitted) {
                    fit();
                }
            }
        });
    }

    /**
     * While {@code scroll} is set (a stack is open) the wheel moves through the images, a notch an image (down =
     * next), and Ctrl+wheel zooms; null: the wheel zooms.
     */
    public void setWheelScroll(java.util.function.IntConsumer scroll) {
        wheelScroll = scroll;
        wheelRest = 0;
    }

    public void setListener(Listener listener) {
        this.listener = listener;
    }

    public Tool tool() {
        return tool;
    }

    public void setTool(Tool tool) {
        this.tool = tool;
        setCursor(Cursor.getPredefinedCursor(tool == Tool.PAN ? Cursor.MOVE_CURSOR
                : tool == Tool.SELECT ? Cursor.CROSSHAIR_CURSOR : Cursor.DEFAULT_CURSOR));
    }

    /** Shows a new image; {@code sameGeometry} keeps zoom and pan (window/level, filters), else it is fitted. */
    public void setImage(BufferedImage next, boolean sameGeometry) {
        boolean resized = image == null || next == null || image.getWidth() != next.getWidth()
                || image.getHeight() != next.getHeight();
        image = next;
        if (!sameGeometry || resized) {
            selection = null;
            fit();
        }
        repaint();
    }

    public BufferedImage image() {
        return image;
    }

    public void setPlaceholder(String text) {
        placeholder = text;
        repaint();
    }

    /** Corner texts: top-left, top-right, bottom-left, bottom-right; lines separated by '\n'. */
    public void setCorners(String topLeft, String topRight, String bottomLeft, String bottomRight) {
        corners[0] = topLeft;
        corners[1] = topRight;
        corners[2] = bottomLeft;
        corners[3] = bottomRight;
        repaint();
    }

    public String corner(int i) {
        return corners[i];
    }

    public Region selection() {
        return selection;
    }

    public void setSelection(Region region) {
        selection = region;
        repaint();
        if (listener != null) {
            listener.selectionChanged(region);
        }
    }

    public double scale() {
        return transform.scale();
    }

    public ViewTransform transform() {
        return transform;
    }

    public void fit() {
        if (image != null) {
            transform.fit(getWidth(), getHeight(), image.getWidth(), image.getHeight());
            fitted = true;
            changed();
        }
    }

    public void actualSize() {
        if (image != null) {
            transform.actualSize(getWidth(), getHeight(), image.getWidth(), image.getHeight());
            fitted = false;
            changed();
        }
    }

    public void zoom(double factor) {
        zoom(factor, new Point(getWidth() / 2, getHeight() / 2));
    }

    private void zoom(double factor, Point anchor) {
        if (image != null) {
            transform.zoom(factor, anchor);
            fitted = false;
            changed();
        }
    }

    private void changed() {
        repaint();
        if (listener != null) {
            listener.zoomChanged();
        }
    }

    /** The view point of image pixel (x, y)'s centre: for tests and tools that aim at pixels. */
    public Point viewPoint(double x, double y) {
        return new Point((int) Math.round(transform.originX() + x * transform.scale()),
                (int) Math.round(transform.originY() + y * transform.scale()));
    }

    @Override
    protected void paintComponent(Graphics g0) {
        Graphics2D g = (Graphics2D) g0.create();
        try {
            g.setColor(getBackground());
            g.fillRect(0, 0, getWidth(), getHeight());
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            if (image == null) {
                g.setColor(Color.GRAY);
                FontMetrics fm = g.getFontMetrics();
                g.drawString(placeholder, Math.max(8, (getWidth() - fm.stringWidth(placeholder)) / 2), getHeight() / 2);
                return;
            }
            // nearest neighbour when magnifying (pixels stay visible, as radiologists want), smooth when reducing
            g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, transform.scale() >= 1
                    ? RenderingHints.VALUE_INTERPOLATION_NEAREST_NEIGHBOR : RenderingHints.VALUE_INTERPOLATION_BILINEAR);
            Rectangle r = transform.toView(0, 0, image.getWidth(), image.getHeight());
            g.drawImage(image, r.x, r.y, r.width, r.height, null);
            paintSelection(g);
            paintCorners(g);
        } finally {
            g.dispose();
        }
    }

    private void paintSelection(Graphics2D g) {
        Rectangle r = rubberBand;
        if (r == null && selection != null) {
            r = transform.toView(selection.x(), selection.y(), selection.width(), selection.height());
        }
        if (r == null) {
            return;
        }
        g.setStroke(new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
        g.setColor(new Color(255, 200, 0));
        g.drawRect(r.x, r.y, r.width, r.height);
    }

    private void paintCorners(Graphics2D g) {
        g.setFont(getFont().deriveFont(Font.PLAIN, 12f));
        FontMetrics fm = g.getFontMetrics();
        int pad = 8;
        for (int c = 0; c < 4; c++) {
            if (corners[c] == null || corners[c].isEmpty()) {
                continue;
            }
            String[] lines = corners[c].split("\n");
            boolean right = c == 1 || c == 3;
            boolean bottom = c >= 2;
            int y = bottom ? getHeight() - pad - (lines.length - 1) * fm.getHeight() - fm.getDescent()
                    : pad + fm.getAscent();
            for (String line : lines) {
                int x = right ? getWidth() - pad - fm.stringWidth(line) : pad;
                g.setColor(Color.BLACK);
                g.drawString(line, x + 1, y + 1);
                g.setColor(new Color(230, 230, 160));
                g.drawString(line, x, y);
                y += fm.getHeight();
            }
        }
    }

    private final class Mouse extends MouseAdapter {
        @Override
        public void mousePressed(MouseEvent e) {
            requestFocusInWindow();
            press = e.getPoint();
            last = e.getPoint();
            leftDrag = SwingUtilities.isLeftMouseButton(e);
            if (leftDrag && tool == Tool.WINDOW_LEVEL && listener != null) {
                listener.windowDragStarted();
            }
        }

        @Override
        public void mouseDragged(MouseEvent e) {
            if (image == null || press == null) {
                return;
            }
            Tool effective = leftDrag ? tool : Tool.PAN;
            switch (effective) {
                case PAN -> {
                    transform.pan(e.getX() - last.x, e.getY() - last.y);
                    fitted = false;
                    repaint();
                }
                case WINDOW_LEVEL -> {
                    if (listener != null) {
                        listener.windowDragged(e.getX() - press.x, e.getY() - press.y);
                    }
                }
                case SELECT -> {
                    rubberBand = new Rectangle(Math.min(press.x, e.getX()), Math.min(press.y, e.getY()),
                            Math.abs(e.getX() - press.x), Math.abs(e.getY() - press.y));
                    repaint();
                }
            }
            last = e.getPoint();
        }

        @Override
        public void mouseReleased(MouseEvent e) {
            if (image != null && leftDrag && tool == Tool.SELECT && press != null) {
                rubberBand = null;
                Point2D a = transform.toImage(press.x, press.y);
                Point2D b = transform.toImage(e.getX(), e.getY());
                boolean click = press.distance(e.getPoint()) < 3;
                setSelection(click ? null : RegionSelection.between(a, b, image.getWidth(), image.getHeight()));
            }
            press = null;
        }

        @Override
        public void mouseClicked(MouseEvent e) {
            if (e.getClickCount() == 2 && SwingUtilities.isLeftMouseButton(e)) {
                fit();
            }
        }

        @Override
        public void mouseWheelMoved(MouseWheelEvent e) {
            if (wheelScroll != null && !e.isControlDown()) {
                // fine-grained wheels (touchpads) send fractions of a notch: an image per whole notch
                wheelRest += e.getPreciseWheelRotation();
                int steps = (int) wheelRest;
                wheelRest -= steps;
                if (steps != 0) {
                    wheelScroll.accept(steps);
                }
                return;
            }
            zoom(Math.pow(1.15, -e.getPreciseWheelRotation()), e.getPoint());
        }
    }
}
