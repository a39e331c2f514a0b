package org.medjava.plugin.emboss;

import java.util.List;
import org.medjava.filter.Filter;
import org.medjava.filter.spi.FilterProvider;

/** Plugin entry point: offers the {@code emboss} filter (spec 2.5). */
public final class EmbossProvider implements FilterProvider {
    private final List<Filter> filters = List.of(new EmbossFilter());

    @Override
    public List<Filter> filters() {
        return filters;
    }
}
