package org.medjava.bench.report;

import java.awt.Color;
import java.util.Locale;

/** Writes a chart as a standalone SVG document. */
final class SvgCanvas implements Canvas {
    private final StringBuilder svg = new StringBuilder();

    SvgCanvas(int width, int height) {
        svg.append(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                        + "font-family=\"DejaVu Sans, Arial, sans-serif\">%n"
                        + "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n", width, height, width, height));
    }

    @Override
    public void line(double x1, double y1, double x2, double y2, Color color, double width, Stroke stroke) {
        svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" %s/>%n",
                x1, y1, x2, y2, strokeAttributes(color, width, stroke)));
    }

    @Override
    public void polyline(double[] xs, double[] ys, Color color, double width, Stroke stroke) {
        StringBuilder pts = new StringBuilder();
        for (int i = 0; i < xs.length; i++) {
            pts.append(String.format(Locale.ROOT, "%s%.1f,%.1f", i == 0 ? "" : " ", xs[i], ys[i]));
        }
        svg.append(String.format(Locale.ROOT, "<polyline fill=\"none\" points=\"%s\" %s/>%n", pts,
                strokeAttributes(color, width, stroke)));
    }

    @Override
    public void circle(double x, double y, double r, Color fill) {
        svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"/>%n", x, y, r,
                hex(fill)));
    }

    @Override
    public void rect(double x, double y, double w, double h, Color fill, Color outline) {
        svg.append(String.format(Locale.ROOT,
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" stroke=\"%s\"/>%n",
                x, y, w, h, fill == null ? "none" : hex(fill), outline == null ? "none" : hex(outline)));
    }

    @Override
    public void text(double x, double y, String text, double size, Anchor anchor, Color color, boolean vertical) {
        String transform = vertical ? String.format(Locale.ROOT, " transform=\"rotate(-90 %.1f %.1f)\"", x, y) : "";
        svg.append(String.format(Locale.ROOT,
                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" text-anchor=\"%s\" fill=\"%s\"%s>%s</text>%n",
                x, y, size, anchor.name().toLowerCase(Locale.ROOT), hex(color), transform, escape(text)));
    }

    @Override
    public void beginSeries(String id, String title) {
        svg.append("<g class=\"series\" data-series=\"").append(escape(id)).append("\"><title>")
                .append(escape(title)).append("</title>\n");
    }

    @Override
    public void endSeries() {
        svg.append("</g>\n");
    }

    String finish() {
        return svg + "</svg>\n";
    }

    private static String strokeAttributes(Color color, double width, Stroke stroke) {
        String dash = stroke == Stroke.DASHED ? " stroke-dasharray=\"7 4\""
                : stroke == Stroke.DOTTED ? " stroke-dasharray=\"2 3\"" : "";
        return String.format(Locale.ROOT, "stroke=\"%s\" stroke-width=\"%.1f\"%s", hex(color), width, dash);
    }

    private static String hex(Color c) {
        return String.format(Locale.ROOT, "#%02x%02x%02x", c.getRed(), c.getGreen(), c.getBlue());
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
