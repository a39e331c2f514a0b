package org.medjava.filter.spi;

import java.util.Map;

/** What the host tells a plugin at {@code init}: who it is and the {@code param=value} pairs of its load directive. */
public interface PluginContext {

    String pluginId();

    String pluginVersion();

    Map<String, String> properties();
}
