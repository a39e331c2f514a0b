package org.medjava.bench.variant;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import org.medjava.filter.Filter;
import org.medjava.filter.spi.FilterProvider;

/** The Java filters on the class path, by id (the benchmarks call them directly, not through the registry). */
public final class JavaFilters {
    private static final Map<String, Filter> BY_ID = load();

    private JavaFilters() {
    }

    private static Map<String, Filter> load() {
        Map<String, Filter> byId = new TreeMap<>();
        for (FilterProvider provider : ServiceLoader.load(FilterProvider.class)) {
            provider.filters().forEach(f -> byId.put(f.descriptor().id(), f));
        }
        return byId;
    }

    public static Filter get(String id) {
        Filter filter = BY_ID.get(id);
        if (filter == null) {
            throw new IllegalArgumentException("no filter \"" + id + "\"; known: " + BY_ID.keySet());
        }
        return filter;
    }

    /** The eight filter ids, in the spec's order. */
    public static java.util.List<String> ids() {
        return java.util.List.of("blur", "sharpen", "despeckle", "edge-detect", "emboss", "oil-paint", "pixelize",
                "spread");
    }
}
