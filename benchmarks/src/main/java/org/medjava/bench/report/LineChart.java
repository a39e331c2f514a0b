package org.medjava.bench.report;

import java.awt.Color;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleFunction;

/**
 * A line chart: one line per series over explicit x ticks (log scale), y on a log or linear scale, a legend on the
 * right. Rendered onto any {@link Canvas}, so the SVG and the PNG show the same chart.
 */
final class LineChart {
    static final int WIDTH = 980;
    static final int HEIGHT = 560;
    private static final double LEFT = 78;
    private static final double TOP = 46;
    private static final double BOTTOM = 62;
    private static final double LEGEND = 320;
    private static final Color GRID = new Color(0xE4E4E4);
    private static final Color AXIS = new Color(0x444444);

    /**
     * One line: points as (x, y) with x on the tick scale, or (x, y, low, high) with an error bar from low to high
     * (JMH's 99.9% confidence interval of the mean).
     */
    record Series(String id, String title, Color color, Canvas.Stroke stroke, double width, List<double[]> points) {
    }

    /** An x position with its label. */
    record Tick(double x, String label) {
    }

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final boolean logY;
    private final List<Tick> xTicks;
    private final DoubleFunction<String> yFormat;
    private final List<Series> series = new ArrayList<>();
    /** A horizontal reference line (the ratio charts' 1×), or NaN. */
    private double reference = Double.NaN;
    private String referenceLabel = "";

    LineChart(String title, String xLabel, String yLabel, boolean logY, List<Tick> xTicks,
              DoubleFunction<String> yFormat) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.logY = logY;
        this.xTicks = xTicks;
        this.yFormat = yFormat;
    }

    void add(Series s) {
        if (!s.points().isEmpty()) {
            series.add(s);
        }
    }

    List<Series> series() {
        return series;
    }

    /** Draws a dashed horizontal line at {@code y}, labelled, and keeps it inside the y range. */
    LineChart reference(double y, String label) {
        this.reference = y;
        this.referenceLabel = label;
        return this;
    }

    String svg() {
        SvgCanvas c = new SvgCanvas(WIDTH, HEIGHT);
        render(c);
        return c.finish();
    }

    java.awt.image.BufferedImage png() {
        Java2dCanvas c = new Java2dCanvas(WIDTH, HEIGHT);
        render(c);
        return c.finish();
    }

    void render(Canvas c) {
        double plotW = WIDTH - LEFT - LEGEND - 20;
        double plotH = HEIGHT - TOP - BOTTOM;
        c.text(LEFT, 26, title, 17, Canvas.Anchor.START, Color.BLACK, false);
        if (series.isEmpty() || xTicks.isEmpty()) {
            c.text(LEFT + plotW / 2, TOP + plotH / 2, "no data", 14, Canvas.Anchor.MIDDLE, AXIS, false);
            return;
        }
        double xMin = Math.log(xTicks.get(0).x());
        double xMax = Math.log(xTicks.get(xTicks.size() - 1).x());
        if (xMax - xMin < 1e-9) {
            xMin -= 0.5;
            xMax += 0.5;
        }
        double[] yRange = yRange();
        List<Double> yTicks = logY ? logTicks(yRange[0], yRange[1]) : linearTicks(yRange[0], yRange[1]);
        double y0 = scaleY(yTicks.get(0));
        double y1 = scaleY(yTicks.get(yTicks.size() - 1));
        final double fxMin = xMin;
        final double fxMax = xMax;
        DoubleFunction<Double> px = x -> LEFT + 10 + (Math.log(x) - fxMin) / (fxMax - fxMin) * (plotW - 20);
        DoubleFunction<Double> py = y -> TOP + plotH - (scaleY(y) - y0) / (y1 - y0) * plotH;

        for (double t : yTicks) {
            double y = py.apply(t);
            c.line(LEFT, y, LEFT + plotW, y, GRID, 1, Canvas.Stroke.SOLID);
            c.text(LEFT - 6, y + 4, yFormat.apply(t), 11, Canvas.Anchor.END, AXIS, false);
        }
        double lastLabel = Double.NEGATIVE_INFINITY;
        boolean lowered = false;
        for (Tick t : xTicks) {
            double x = px.apply(t.x());
            c.line(x, TOP, x, TOP + plotH, GRID, 1, Canvas.Stroke.SOLID);
            lowered = x - lastLabel < 70 && !lowered; // close ticks (2048² and 3000×2000): labels on two lines
            c.text(x, TOP + plotH + (lowered ? 30 : 17), t.label(), 11, Canvas.Anchor.MIDDLE, AXIS, false);
            lastLabel = x;
        }
        if (!Double.isNaN(reference)) {
            double y = py.apply(reference);
            c.line(LEFT, y, LEFT + plotW, y, AXIS, 1.2, Canvas.Stroke.DASHED);
            c.text(LEFT + plotW - 4, y - 5, referenceLabel, 11, Canvas.Anchor.END, AXIS, false);
        }
        c.rect(LEFT, TOP, plotW, plotH, null, AXIS);
        c.text(LEFT + plotW / 2, HEIGHT - 10, xLabel, 13, Canvas.Anchor.MIDDLE, AXIS, false);
        c.text(20, TOP + plotH / 2, yLabel, 13, Canvas.Anchor.MIDDLE, AXIS, true);

        double legendX = LEFT + plotW + 22;
        double legendY = TOP + 4;
        for (Series s : series) {
            c.beginSeries(s.id(), s.title());
            double[] xs = new double[s.points().size()];
            double[] ys = new double[xs.length];
            for (int i = 0; i < xs.length; i++) {
                xs[i] = px.apply(s.points().get(i)[0]);
                ys[i] = py.apply(clampY(s.points().get(i)[1], yTicks));
            }
            c.polyline(xs, ys, s.color(), s.width(), s.stroke());
            for (int i = 0; i < xs.length; i++) {
                c.circle(xs[i], ys[i], 2.8, s.color());
                double[] p = s.points().get(i);
                if (p.length >= 4 && p[3] > p[2]) { // the error bar, with caps
                    double lo = py.apply(clampY(p[2], yTicks));
                    double hi = py.apply(clampY(p[3], yTicks));
                    c.line(xs[i], lo, xs[i], hi, s.color(), 1, Canvas.Stroke.SOLID);
                    c.line(xs[i] - 4, lo, xs[i] + 4, lo, s.color(), 1, Canvas.Stroke.SOLID);
                    c.line(xs[i] - 4, hi, xs[i] + 4, hi, s.color(), 1, Canvas.Stroke.SOLID);
                }
            }
            c.line(legendX, legendY + 6, legendX + 30, legendY + 6, s.color(), s.width(), s.stroke());
            c.circle(legendX + 15, legendY + 6, 2.8, s.color());
            c.text(legendX + 38, legendY + 10, s.title(), 11.5, Canvas.Anchor.START, Color.BLACK, false);
            c.endSeries();
            legendY += 19;
        }
    }

    private double clampY(double y, List<Double> ticks) {
        return Math.max(ticks.get(0), Math.min(ticks.get(ticks.size() - 1), y));
    }

    private double scaleY(double y) {
        return logY ? Math.log10(y) : y;
    }

    private double[] yRange() {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (Series s : series) {
            for (double[] p : s.points()) {
                for (int i = 1; i < Math.min(p.length, 4); i++) { // the value and its error bar
                    if (p[i] > 0 && Double.isFinite(p[i])) {
                        min = Math.min(min, p[i]);
                        max = Math.max(max, p[i]);
                    }
                }
            }
        }
        if (!Double.isNaN(reference)) {
            min = Math.min(min, reference);
            max = Math.max(max, reference);
        }
        if (min > max) {
            return new double[] {1, 10};
        }
        return new double[] {min, max};
    }

    /** 1-2-5 steps per decade, from below the minimum to above the maximum. */
    static List<Double> logTicks(double min, double max) {
        List<Double> ticks = new ArrayList<>();
        double decade = Math.pow(10, Math.floor(Math.log10(min)));
        double[] steps = {1, 2, 5};
        double first = decade;
        for (double s : steps) {
            if (s * decade <= min) {
                first = s * decade;
            }
        }
        for (double d = decade; ; d *= 10) {
            for (double s : steps) {
                double t = s * d;
                if (t + 1e-12 >= first) {
                    ticks.add(t);
                }
                if (t >= max) {
                    return ticks;
                }
            }
        }
    }

    /** About six nice linear steps from 0 to above the maximum. */
    static List<Double> linearTicks(double min, double max) {
        double raw = max / 6;
        double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
        double step = raw / magnitude < 2 ? 2 * magnitude : raw / magnitude < 5 ? 5 * magnitude : 10 * magnitude;
        List<Double> ticks = new ArrayList<>();
        for (double t = 0; ; t += step) {
            ticks.add(t);
            if (t >= max) {
                return ticks;
            }
        }
    }

    /** 0.123, 1.23, 12.3, 123, 1,234: as many digits as a tick needs. */
    static String number(double v) {
        if (v == 0) {
            return "0";
        }
        if (v >= 100) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (v >= 1) {
            return String.format(Locale.ROOT, "%.3g", v).replaceAll("\\.?0+$", "");
        }
        return String.format(Locale.ROOT, "%.2g", v).replaceAll("(\\.\\d*?)0+$", "$1").replaceAll("\\.$", "");
    }
}
