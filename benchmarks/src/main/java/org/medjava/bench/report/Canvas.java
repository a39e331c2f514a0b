package org.medjava.bench.report;

import java.awt.Color;

/** What a chart draws with; implemented once as SVG text and once on a Java2D image (for PNG). */
interface Canvas {
    enum Anchor { START, MIDDLE, END }

    enum Stroke { SOLID, DASHED, DOTTED }

    void line(double x1, double y1, double x2, double y2, Color color, double width, Stroke stroke);

    void polyline(double[] xs, double[] ys, Color color, double width, Stroke stroke);

    void circle(double x, double y, double r, Color fill);

    void rect(double x, double y, double w, double h, Color fill, Color outline);

    void text(double x, double y, String text, double size, Anchor anchor, Color color, boolean vertical);

    /** Groups what follows as one data series (SVG: {@code <g class="series" data-series="id">}). */
    void beginSeries(String id, String title);

    void endSeries();
}
