package org.medjava.store.web;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.medjava.filter.FilterApi;
import org.medjava.filter.FilterDescriptor;
import org.medjava.filter.ParamSpec;
import org.medjava.filter.runtime.FilterInfo;
import org.medjava.filter.runtime.PluginInfo;

/**
 * The filter repository's manifest ({@code GET /filters}): what a client needs to download plugins, verify them
 * by SHA-256, and build its menus and parameter dialogs without loading them first. It describes the repository's
 * content only (nothing about the node serving it, such as when it loaded a plugin), so every node of a cluster
 * serves the same manifest with the same ETag.
 */
public record FilterManifest(String filterApiVersion, List<Plugin> plugins) {

    /** One plugin JAR. {@code state} is ACTIVE or FAILED; {@code failure} says why (or why an upload was refused). */
    public record Plugin(String id, String version, String state, String sha256, String download, String failure,
                          List<Filter> filters) {
    }

    /** One filter of a plugin; {@code state} is ACTIVE, SUSPENDED or FAILED. */
    public record Filter(String id, String name, String description, String specSection, boolean parallelizable,
                         String state, String reason, List<Param> params) {
    }

    /** A parameter with its default and rule; min/max for numbers, choices for words. */
    public record Param(String name, String type, String defaultValue, String rule, String description, Integer min,
                        Integer max, Boolean oddOnly, List<String> choices) {
    }

    static FilterManifest of(List<PluginInfo> plugins, List<FilterInfo> filters) {
        Map<String, List<FilterInfo>> byPlugin = filters.stream()
                .collect(Collectors.groupingBy(FilterInfo::pluginId));
        return new FilterManifest(FilterApi.VERSION, plugins.stream()
                .sorted(java.util.Comparator.comparing(PluginInfo::id)).map(p -> new Plugin(p.id(), p.version(),
                p.state().name(), p.sha256(), "/filters/" + p.id() + ".jar", p.failure(),
                byPlugin.getOrDefault(p.id(), List.of()).stream()
                .sorted(java.util.Comparator.comparing(FilterInfo::id)).map(FilterManifest::filter).toList()))
                .toList());
    }

    private static Filter filter(FilterInfo f) {
        FilterDescriptor d = f.descriptor();
        return new Filter(d.id(), d.displayName(), d.description(), d.specSection(), d.parallelizable(),
                f.state().name(), f.reason(), d.params().stream().map(FilterManifest::param).toList());
    }

    private static Param param(ParamSpec p) {
        boolean numeric = p.type() == ParamSpec.Type.INT || p.type() == ParamSpec.Type.EXTENT;
        return new Param(p.name(), p.type().name().toLowerCase(java.util.Locale.ROOT), p.defaultValue(), p.rule(),
                p.description(), numeric ? p.min() : null, numeric ? p.max() : null,
                p.type() == ParamSpec.Type.INT ? p.oddOnly() : null,
                p.type() == ParamSpec.Type.CHOICE ? p.choices() : null);
    }
}
