package org.medjava.plugin.edgedetect;

import java.util.List;
import org.medjava.filter.Filter;
import org.medjava.filter.spi.FilterProvider;

/** Plugin entry point: offers the {@code edge-detect} filter (spec 2.4). */
public final class EdgeDetectProvider implements FilterProvider {
    private final List<Filter> filters = List.of(new EdgeDetectFilter());

    @Override
    public List<Filter> filters() {
        return filters;
    }
}
