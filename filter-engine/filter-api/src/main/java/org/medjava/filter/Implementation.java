package org.medjava.filter;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Which port of a filter runs. All of them produce byte-identical output; they differ only in speed. */
public enum Implementation {
    /** Reads like the spec: the yardstick for correctness. */
    STRAIGHTFORWARD("straightforward"),
    /** Hand-optimized, single thread. */
    OPTIMIZED("optimized"),
    /** Hand-optimized, written rows split into bands across cores (single thread where the filter is sequential). */
    PARALLEL("parallel");

    private final String id;

    Implementation(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    public static Implementation parse(String text) {
        for (Implementation impl : values()) {
            if (impl.id.equalsIgnoreCase(text.trim())) {
                return impl;
            }
        }
        throw new IllegalArgumentException("unknown implementation \"" + text + "\"; expected one of: "
                + Arrays.stream(values()).map(Implementation::id).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() {
        return id.toLowerCase(Locale.ROOT);
    }
}
