package org.medjava.plugin.pixelize;

import java.util.List;
import org.medjava.filter.Filter;
import org.medjava.filter.spi.FilterProvider;

/** Plugin entry point: offers the {@code pixelize} filter. Stateless. */
public final class PixelizeProvider implements FilterProvider {
    private final List<Filter> filters = List.of(new PixelizeFilter());

    @Override
    public List<Filter> filters() {
        return filters;
    }
}
