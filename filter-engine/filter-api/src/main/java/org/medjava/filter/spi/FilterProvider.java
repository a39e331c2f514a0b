package org.medjava.filter.spi;

import java.util.List;
import org.medjava.filter.Filter;

/**
 * The entry point of a filter plugin JAR, found with {@link java.util.ServiceLoader} through
 * {@code META-INF/services/org.medjava.filter.spi.FilterProvider}. The registry calls {@link #init} once after
 * loading, {@link #filters()} to learn what the plugin offers, and {@link #fini} once after its last call
 * finished (on remove or replacement) — the Service Configurator's life cycle.
 */
public interface FilterProvider {

    List<Filter> filters();

    default void init(PluginContext context) {
    }

    default void fini() {
    }
}
