package org.medjava.bench.report;

import org.medjava.bench.setup.ImageSize;

/**
 * One JMH result: a series (implementation on a JVM column, or the copy baseline) on one filter, size and kind of
 * data ({@code data}: {@link #RGB8} for the 8-bit RGB benchmarks and the copy, else the grey format of the 16-bit
 * ones, {@code u16} or {@code s16}). Times in
 * milliseconds per operation: {@code scoreMs} the mean over the measurement iterations (JMH's score),
 * {@code bestMs} the fastest iteration (the least disturbed when other processes share the machine);
 * {@code allocBytes} is the allocation per operation from {@code -prof gc}, NaN when unknown;
 * {@code iterationsMs} every measured iteration of every fork ({@code forks} of them), for the median and its
 * confidence interval; {@code load} the machine around the cell.
 */
public record Measurement(String filter, ImageSize size, SeriesKey series, double scoreMs, double errorMs,
                          double bestMs, double allocBytes, int samples, String data, double[] iterationsMs,
                          int forks, Load load) {
    public static final String RGB8 = "rgb8";

    /**
     * The machine around the cell (issue 35): the 1-minute load average before and after it, other processes' CPU use
     * per core during it, the attempts it took, and whether it was kept although over the load rule's threshold.
     */
    public record Load(double load1Before, double load1After, double othersDuring, int attempts, boolean loaded) {
        public static final Load UNKNOWN = new Load(Double.NaN, Double.NaN, Double.NaN, 1, false);

        public boolean known() {
            return !Double.isNaN(load1Before);
        }

        /** The higher of the two load averages: what the tables show for the cell. */
        public double load1() {
            return Math.max(load1Before, load1After);
        }
    }

    public Measurement(String filter, ImageSize size, SeriesKey series, double scoreMs, double errorMs, double bestMs,
                       double allocBytes, int samples) {
        this(filter, size, series, scoreMs, errorMs, bestMs, allocBytes, samples, RGB8, new double[0], 1,
                Load.UNKNOWN);
    }

    /** The median of the iterations (all forks) with its 95% bootstrap interval, seeded by the cell's name. */
    public Bootstrap.Interval median() {
        return Bootstrap.median(iterationsMs, cellName());
    }

    /** Unique in a run: what seeds the cell's bootstrap. */
    String cellName() {
        return String.join(" ", data, size.label(), isCopy() ? "copy" : filter, series.id());
    }

    public boolean isRgb8() {
        return RGB8.equals(data);
    }

    public boolean isCopy() {
        return series.isCopy();
    }
}
