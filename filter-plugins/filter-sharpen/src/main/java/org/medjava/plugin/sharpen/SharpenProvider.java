package org.medjava.plugin.sharpen;

import java.util.List;
import org.medjava.filter.Filter;
import org.medjava.filter.spi.FilterProvider;

/** Plugin entry point: offers the {@code sharpen} filter (spec 2.2). */
public final class SharpenProvider implements FilterProvider {
    private final List<Filter> filters = List.of(new SharpenFilter());

    @Override
    public List<Filter> filters() {
        return filters;
    }
}
