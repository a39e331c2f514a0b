package org.medjava.bench.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;

/** Draws a chart on a Java2D image (headless), for the PNG files. */
final class Java2dCanvas implements Canvas {
    private final BufferedImage image;
    private final Graphics2D g;

    Java2dCanvas(int width, int height) {
        image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, width, height);
    }

    @Override
    public void line(double x1, double y1, double x2, double y2, Color color, double width, Stroke stroke) {
        g.setColor(color);
        g.setStroke(stroke(width, stroke));
        g.draw(new Line2D.Double(x1, y1, x2, y2));
    }

    @Override
    public void polyline(double[] xs, double[] ys, Color color, double width, Stroke stroke) {
        Path2D.Double path = new Path2D.Double();
        for (int i = 0; i < xs.length; i++) {
            if (i == 0) {
                path.moveTo(xs[i], ys[i]);
            } else {
                path.lineTo(xs[i], ys[i]);
            }
        }
        g.setColor(color);
        g.setStroke(stroke(width, stroke));
        g.draw(path);
    }

    @Override
    public void circle(double x, double y, double r, Color fill) {
        g.setColor(fill);
        g.fill(new Ellipse2D.Double(x - r, y - r, 2 * r, 2 * r));
    }

    @Override
    public void rect(double x, double y, double w, double h, Color fill, Color outline) {
        Rectangle2D.Double r = new Rectangle2D.Double(x, y, w, h);
        if (fill != null) {
            g.setColor(fill);
            g.fill(r);
        }
        if (outline != null) {
            g.setColor(outline);
            g.setStroke(new BasicStroke(1f));
            g.draw(r);
        }
    }

    @Override
    public void text(double x, double y, String text, double size, Anchor anchor, Color color, boolean vertical) {
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, (int) Math.round(size)));
        g.setColor(color);
        double w = g.getFontMetrics().stringWidth(text);
        double shift = anchor == Anchor.MIDDLE ? -w / 2 : anchor == Anchor.END ? -w : 0;
        AffineTransform saved = g.getTransform();
        g.translate(x, y);
        if (vertical) {
            g.rotate(-Math.PI / 2);
        }
        g.drawString(text, (float) shift, 0f);
        g.setTransform(saved);
    }

    @Override
    public void beginSeries(String id, String title) {
        // a raster image has no structure to keep
    }

    @Override
    public void endSeries() {
    }

    BufferedImage finish() {
        g.dispose();
        return image;
    }

    private static BasicStroke stroke(double width, Stroke stroke) {
        float w = (float) width;
        switch (stroke) {
            case DASHED:
                return new BasicStroke(w, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, new float[] {7f, 4f}, 0f);
            case DOTTED:
                return new BasicStroke(w, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND, 10f, new float[] {2f, 3f}, 0f);
            default:
                return new BasicStroke(w, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND);
        }
    }
}
