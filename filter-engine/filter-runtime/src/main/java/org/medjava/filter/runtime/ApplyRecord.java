package org.medjava.filter.runtime;

import java.time.Instant;
import org.medjava.filter.Implementation;
import org.medjava.filter.Region;

/**
 * One timed filter application ("benchmark mode", the paper's profile timers). {@code nanos} covers the copy of
 * the source and the filter itself, the same work the benchmarks measure.
 */
public record ApplyRecord(Instant at, String filterId, String pluginId, String pluginVersion, String params,
                          Implementation implementation, int width, int height, Region region, long nanos) {

    public double millis() {
        return nanos / 1e6;
    }
}
