package org.medjava.bench.report;

import org.medjava.bench.ImageSize;

/**
 * One JMH result: a series (implementation on a JVM column, or the copy baseline) on one filter and size. Times in
 * milliseconds per operation: {@code scoreMs} the mean over the measurement iterations (JMH's score),
 * {@code bestMs} the fastest iteration (the least disturbed when other processes share the machine);
 * {@code allocBytes} is the allocation per operation from {@code -prof gc}, NaN when unknown.
 */
public record Measurement(String filter, ImageSize size, SeriesKey series, double scoreMs, double errorMs,
                          double bestMs, double allocBytes, int samples) {

    public boolean isCopy() {
        return series.isCopy();
    }
}
