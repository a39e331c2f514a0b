package org.medjava.plugin.despeckle;

import java.util.List;
import org.medjava.filter.Filter;
import org.medjava.filter.spi.FilterProvider;

/** Plugin entry point: offers the {@code despeckle} filter. Stateless. */
public final class DespeckleProvider implements FilterProvider {
    private final List<Filter> filters = List.of(new DespeckleFilter());

    @Override
    public List<Filter> filters() {
        return filters;
    }
}
