package org.medjava.filter.runtime;

import java.time.Instant;
import org.medjava.filter.Implementation;
import org.medjava.filter.Region;

/**
 * One timed filter application ("benchmark mode", the paper's profile timers). {@code nanos} covers the copy of
 * the source and the filter itself, the same work the benchmarks measure. {@code data} says what was filtered:
 * {@link #RGB8} or a grey format such as "12-bit signed grey".
 */
public record ApplyRecord(Instant at, String filterId, String pluginId, String pluginVersion, String params,
                          Implementation implementation, int width, int height, Region region, long nanos,
                          String data) {

    /** {@link #data} of an 8-bit RGB application. */
    public static final String RGB8 = "8-bit RGB";

    /** An 8-bit RGB application (the record as it was before grey data). */
    public ApplyRecord(Instant at, String filterId, String pluginId, String pluginVersion, String params,
                       Implementation implementation, int width, int height, Region region, long nanos) {
        this(at, filterId, pluginId, pluginVersion, params, implementation, width, height, region, nanos, RGB8);
    }

    public double millis() {
        return nanos / 1e6;
    }
}
