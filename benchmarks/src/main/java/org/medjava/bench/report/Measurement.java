package org.medjava.bench.report;

import org.medjava.bench.setup.ImageSize;

/**
 * One JMH result: a series (implementation on a JVM column, or the copy baseline) on one filter, size and kind of
 * data ({@code data}: {@link #RGB8} for the 8-bit RGB benchmarks and the copy, else the grey format of the 16-bit
 * ones, {@code u16} or {@code s16}). Times in
 * milliseconds per operation: {@code scoreMs} the mean over the measurement iterations (JMH's score),
 * {@code bestMs} the fastest iteration (the least disturbed when other processes share the machine);
 * {@code allocBytes} is the allocation per operation from {@code -prof gc}, NaN when unknown.
 */
public record Measurement(String filter, ImageSize size, SeriesKey series, double scoreMs, double errorMs,
                          double bestMs, double allocBytes, int samples, String data) {
    public static final String RGB8 = "rgb8";

    public Measurement(String filter, ImageSize size, SeriesKey series, double scoreMs, double errorMs, double bestMs,
                       double allocBytes, int samples) {
        this(filter, size, series, scoreMs, errorMs, bestMs, allocBytes, samples, RGB8);
    }

    public boolean isRgb8() {
        return RGB8.equals(data);
    }

    public boolean isCopy() {
        return series.isCopy();
    }
}
