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
import java.awt.geom.AffineTransform;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.Point2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import javax.swing.JComponent;
import javax.swing.SwingUtilities;
import org.medjava.filter.Region;
import org.medjava.viewer.measure.Measurement;
import org.medjava.viewer.measure.Measurements;
import org.medjava.viewer.measure.Measurer;
import org.medjava.viewer.measure.Orientation;
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
    /** View transforms of the image: they never touch the image, its values or the measurements. */
    private Orientation orientation = Orientation.IDENTITY;
    private boolean inverted;
    private transient BufferedImage invertedOf;
    private transient BufferedImage invertedImage;
    private final transient Measurements measurements = new Measurements();
    /** When set, a left drag draws this kind of measurement instead of doing {@link #tool}. */
    private Measurement.Kind measureTool;
    private transient Measurement drawing;
    /** What measurements are measured with, asked each time the image changes (a filter, undo, another frame). */
    private transient java.util.function.Supplier<Measurer> measurerSource;
    /** Observers besides the one listener: measurement features follow the view without taking it over. */
    private final transient java.util.List<java.util.function.Consumer<Measurer.Result>> measuredObservers =
            new java.util.concurrent.CopyOnWriteArrayList<>();
    private final transient java.util.List<Runnable> orientationObservers =
            new java.util.concurrent.CopyOnWriteArrayList<>();
    private final transient java.util.List<Runnable> windowDragObservers =
            new java.util.concurrent.CopyOnWriteArrayList<>();
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
        measurements.addListener(this::repaint);
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
        this.measureTool = null;
        setCursor(Cursor.getPredefinedCursor(tool == Tool.PAN ? Cursor.MOVE_CURSOR
                : tool == Tool.SELECT ? Cursor.CROSSHAIR_CURSOR : Cursor.DEFAULT_CURSOR));
    }

    /**
     * Shows a new image; {@code sameGeometry} keeps zoom and pan (window/level, filters), else it is fitted, upright,
     * without measurements.
     */
    public void setImage(BufferedImage next, boolean sameGeometry) {
        boolean resized = image == null || next == null || image.getWidth() != next.getWidth()
                || image.getHeight() != next.getHeight();
        image = next;
        if (!sameGeometry || resized) {
            selection = null;
            orientation = Orientation.IDENTITY;
            measurements.clear();
            drawing = null;
            fit();
        }
        if (measurerSource != null) {
            measurements.setMeasurer(measurerSource.get());
        }
        repaint();
    }

    /** Where the view gets the {@link Measurer} of what it shows (e.g. the document's current state). */
    public void setMeasurerSource(java.util.function.Supplier<Measurer> source) {
        measurerSource = source;
        if (source != null) {
            measurements.setMeasurer(source.get());
        }
    }

    /** Called with each measurement drawn, after it is added to {@link #measurements()}. */
    public void onMeasured(java.util.function.Consumer<Measurer.Result> observer) {
        measuredObservers.add(observer);
    }

    /** Called when rotation, flip or inversion changed. */
    public void onOrientationChanged(Runnable observer) {
        orientationObservers.add(observer);
    }

    /** Called after each step of a window/level drag has gone to the listener (the window is then the dragged one). */
    public void onWindowDragged(Runnable observer) {
        windowDragObservers.add(observer);
    }

    /** The measurements drawn on this image. */
    public Measurements measurements() {
        return measurements;
    }

    /** Makes a left drag draw {@code kind} (null: back to the current {@link Tool}). */
    public void setMeasureTool(Measurement.Kind kind) {
        measureTool = kind;
        setCursor(Cursor.getPredefinedCursor(kind != null || tool == Tool.SELECT ? Cursor.CROSSHAIR_CURSOR
                : tool == Tool.PAN ? Cursor.MOVE_CURSOR : Cursor.DEFAULT_CURSOR));
    }

    public Measurement.Kind measureTool() {
        return measureTool;
    }

    public Orientation orientation() {
        return orientation;
    }

    /** Turns or flips the view (refitted when fitted, else kept about the view's centre). */
    public void setOrientation(Orientation next) {
        if (next.equals(orientation)) {
            return;
        }
        orientation = next;
        if (image != null) {
            if (fitted) {
                fit();
            } else { // the same zoom, centred
                double scale = transform.scale();
                transform.actualSize(getWidth(), getHeight(), displayWidth(), displayHeight());
                transform.zoom(scale, new Point(getWidth() / 2, getHeight() / 2));
                changed();
            }
        }
        orientationChanged();
    }

    public void rotateRight() {
        setOrientation(orientation.rotateRight());
    }

    public void rotateLeft() {
        setOrientation(orientation.rotateLeft());
    }

    public void flipHorizontal() {
        setOrientation(orientation.flipHorizontal());
    }

    public void flipVertical() {
        setOrientation(orientation.flipVertical());
    }

    public boolean inverted() {
        return inverted;
    }

    /** Shows the grey levels inverted (a view transform: the values and the window are unchanged). */
    public void setInverted(boolean on) {
        if (on != inverted) {
            inverted = on;
            orientationChanged();
        }
    }

    private void orientationChanged() {
        repaint();
        orientationObservers.forEach(Runnable::run);
    }

    private int displayWidth() {
        return orientation.displayWidth(image.getWidth(), image.getHeight());
    }

    private int displayHeight() {
        return orientation.displayHeight(image.getWidth(), image.getHeight());
    }

    /** Image coordinates to view coordinates: orientation, then zoom and pan. */
    private AffineTransform viewFromImage() {
        AffineTransform t = new AffineTransform(transform.scale(), 0, 0, transform.scale(), transform.originX(),
                transform.originY());
        t.concatenate(orientation.toDisplay(image.getWidth(), image.getHeight()));
        return t;
    }

    /** The image point under view point {@code (x, y)} (may lie outside the image). */
    public Point2D imagePoint(double x, double y) {
        Point2D d = transform.toImage(x, y);
        return orientation.toImage(d.getX(), d.getY(), image.getWidth(), image.getHeight());
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

    /** The text shown in corner {@code i}; the bottom-right one ends with the view state when turned or inverted. */
    public String corner(int i) {
        String state = viewState();
        return i == 3 && !state.isEmpty() ? (corners[3].isEmpty() ? state : corners[3] + "\n" + state) : corners[i];
    }

    /** "rotated 90° right, flipped, inverted"; "" when upright and not inverted. */
    public String viewState() {
        String turned = image == null ? "" : orientation.describe();
        return inverted ? (turned.isEmpty() ? "inverted" : turned + ", inverted") : turned;
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
            transform.fit(getWidth(), getHeight(), displayWidth(), displayHeight());
            fitted = true;
            changed();
        }
    }

    public void actualSize() {
        if (image != null) {
            transform.actualSize(getWidth(), getHeight(), displayWidth(), displayHeight());
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
        if (image == null) {
            return new Point((int) Math.round(transform.originX() + x * transform.scale()),
                    (int) Math.round(transform.originY() + y * transform.scale()));
        }
        Point2D p = viewFromImage().transform(new Point2D.Double(x, y), null);
        return new Point((int) Math.round(p.getX()), (int) Math.round(p.getY()));
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
            if (orientation.equals(Orientation.IDENTITY)) { // the common case: exact pixel edges as before
                Rectangle r = transform.toView(0, 0, image.getWidth(), image.getHeight());
                g.drawImage(shown(), r.x, r.y, r.width, r.height, null);
            } else {
                g.drawImage(shown(), viewFromImage(), null);
            }
            paintSelection(g);
            paintMeasurements(g);
            paintCorners(g);
        } finally {
            g.dispose();
        }
    }

    private void paintSelection(Graphics2D g) {
        Rectangle r = rubberBand;
        if (r == null && selection != null) {
            r = viewFromImage().createTransformedShape(new Rectangle(selection.x(), selection.y(), selection.width(),
                    selection.height())).getBounds();
        }
        if (r == null) {
            return;
        }
        g.setStroke(new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
        g.setColor(new Color(255, 200, 0));
        g.drawRect(r.x, r.y, r.width, r.height);
    }

    /** The image as shown: inverted when asked (one copy, kept while the image stays). */
    private BufferedImage shown() {
        if (!inverted) {
            return image;
        }
        if (invertedOf != image) {
            invertedImage = invert(image);
            invertedOf = image;
        }
        return invertedImage;
    }

    static BufferedImage invert(BufferedImage in) {
        if (in.getType() == BufferedImage.TYPE_BYTE_GRAY) {
            BufferedImage out = new BufferedImage(in.getWidth(), in.getHeight(), BufferedImage.TYPE_BYTE_GRAY);
            byte[] src = ((java.awt.image.DataBufferByte) in.getRaster().getDataBuffer()).getData();
            byte[] dst = ((java.awt.image.DataBufferByte) out.getRaster().getDataBuffer()).getData();
            for (int i = 0; i < src.length; i++) {
                dst[i] = (byte) ~src[i];
            }
            return out;
        }
        BufferedImage out = new BufferedImage(in.getWidth(), in.getHeight(), BufferedImage.TYPE_INT_RGB);
        int[] row = new int[in.getWidth()];
        for (int y = 0; y < in.getHeight(); y++) {
            in.getRGB(0, y, row.length, 1, row, 0, row.length);
            for (int x = 0; x < row.length; x++) {
                row[x] ^= 0xFFFFFF;
            }
            out.setRGB(0, y, row.length, 1, row, 0, row.length);
        }
        return out;
    }

    private static final Color MEASURE = new Color(80, 220, 255);

    private void paintMeasurements(Graphics2D g) {
        if (measurements.size() == 0 && drawing == null) {
            return;
        }
        AffineTransform t = viewFromImage();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setStroke(new BasicStroke(1.5f));
        g.setFont(getFont().deriveFont(Font.PLAIN, 12f));
        for (int i = 0; i < measurements.size(); i++) {
            paintMeasurement(g, t, measurements.get(i), (i + 1) + ": " + measurements.result(i).label());
        }
        if (drawing != null) {
            paintMeasurement(g, t, drawing, drawing instanceof Measurement.Distance
                    ? measurements.measurer().measure(drawing).label() : "");
        }
    }

    private void paintMeasurement(Graphics2D g, AffineTransform t, Measurement m, String label) {
        java.awt.Shape shape = switch (m.kind()) {
            case DISTANCE -> new Line2D.Double(m.x0(), m.y0(), m.x1(), m.y1());
            case RECTANGLE -> new Rectangle2D.Double(m.x0(), m.y0(), m.x1() - m.x0(), m.y1() - m.y0());
            case ELLIPSE -> new Ellipse2D.Double(m.x0(), m.y0(), m.x1() - m.x0(), m.y1() - m.y0());
        };
        java.awt.Shape onView = t.createTransformedShape(shape);
        g.setColor(Color.BLACK);
        g.translate(1, 1);
        g.draw(onView);
        g.translate(-1, -1);
        g.setColor(MEASURE);
        g.draw(onView);
        if (m.kind() == Measurement.Kind.DISTANCE) { // end ticks
            for (Point2D end : new Point2D[] {new Point2D.Double(m.x0(), m.y0()), new Point2D.Double(m.x1(), m.y1())}) {
                Point2D p = t.transform(end, null);
                g.fillOval((int) Math.round(p.getX()) - 2, (int) Math.round(p.getY()) - 2, 5, 5);
            }
        }
        if (label.isEmpty()) {
            return;
        }
        Rectangle b = onView.getBounds();
        FontMetrics fm = g.getFontMetrics();
        int y = b.y + b.height + fm.getAscent() + 2;
        for (String line : label.split("\n")) {
            g.setColor(Color.BLACK);
            g.drawString(line, b.x + 1, y + 1);
            g.setColor(MEASURE);
            g.drawString(line, b.x, y);
            y += fm.getHeight();
        }
    }

    private void paintCorners(Graphics2D g) {
        g.setFont(getFont().deriveFont(Font.PLAIN, 12f));
        FontMetrics fm = g.getFontMetrics();
        int pad = 8;
        for (int c = 0; c < 4; c++) {
            String text = corner(c);
            if (text == null || text.isEmpty()) {
                continue;
            }
            String[] lines = text.split("\n");
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
            if (leftDrag && measureTool != null) {
                return;
            }
            if (leftDrag && tool == Tool.WINDOW_LEVEL && listener != null) {
                listener.windowDragStarted();
            }
        }

        @Override
        public void mouseDragged(MouseEvent e) {
            if (image == null || press == null) {
                return;
            }
            if (leftDrag && measureTool != null) {
                Point2D a = imagePoint(press.x, press.y);
                Point2D b = imagePoint(e.getX(), e.getY());
                drawing = Measurement.of(measureTool, a.getX(), a.getY(), b.getX(), b.getY());
                last = e.getPoint();
                repaint();
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
                        windowDragObservers.forEach(Runnable::run);
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
            if (image != null && leftDrag && measureTool != null && press != null) {
                drawing = null;
                if (press.distance(e.getPoint()) >= 3) {
                    Point2D a = imagePoint(press.x, press.y);
                    Point2D b = imagePoint(e.getX(), e.getY());
                    Measurer.Result r = measurements.add(Measurement.of(measureTool, a.getX(), a.getY(), b.getX(),
                            b.getY()));
                    measuredObservers.forEach(o -> o.accept(r));
                }
                repaint();
                press = null;
                return;
            }
            if (image != null && leftDrag && tool == Tool.SELECT && press != null) {
                rubberBand = null;
                Point2D a = imagePoint(press.x, press.y);
                Point2D b = imagePoint(e.getX(), e.getY());
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
