package org.medjava.filter.runtime;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A snapshot of one plugin as the registry sees it: plain data, no reference to the plugin's classes, so hosts may
 * keep it without pinning a class loader.
 *
 * @param version   {@code Plugin-Version} of the active JAR, or of the failed one when nothing is active
 * @param failure   why the plugin is FAILED, or why its latest replacement was rejected; null when neither
 * @param filterIds the filters the active version provides
 */
public record PluginInfo(String id, String version, State state, Path jar, String sha256, List<String> filterIds,
                         Map<String, String> properties, Instant loadedAt, String failure) {

    public enum State { ACTIVE, FAILED }

    public PluginInfo {
        filterIds = List.copyOf(filterIds);
        properties = Map.copyOf(properties);
    }
}
