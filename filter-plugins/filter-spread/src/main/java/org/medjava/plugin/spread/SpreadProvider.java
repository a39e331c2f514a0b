package org.medjava.plugin.spread;

import java.util.List;
import org.medjava.filter.Filter;
import org.medjava.filter.spi.FilterProvider;

/** Plugin entry point: offers the {@code spread} filter. Stateless. */
public final class SpreadProvider implements FilterProvider {
    private final List<Filter> filters = List.of(new SpreadFilter());

    @Override
    public List<Filter> filters() {
        return filters;
    }
}
