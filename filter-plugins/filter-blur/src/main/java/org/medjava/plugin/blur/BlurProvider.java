package org.medjava.plugin.blur;

import java.util.List;
import org.medjava.filter.Filter;
import org.medjava.filter.spi.FilterProvider;

/** Plugin entry point: offers the {@code blur} filter. Stateless. */
public final class BlurProvider implements FilterProvider {
    private final List<Filter> filters = List.of(new BlurFilter());

    @Override
    public List<Filter> filters() {
        return filters;
    }
}
