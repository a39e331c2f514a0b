package org.medjava.plugin.oilpaint;

import java.util.List;
import org.medjava.filter.Filter;
import org.medjava.filter.spi.FilterProvider;

/** Plugin entry point: offers the {@code oil-paint} filter (spec 2.6). */
public final class OilPaintProvider implements FilterProvider {
    private final List<Filter> filters = List.of(new OilPaintFilter());

    @Override
    public List<Filter> filters() {
        return filters;
    }
}
