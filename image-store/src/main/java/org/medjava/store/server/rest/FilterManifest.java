package org.medjava.store.server.rest;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.medjava.filter.FilterApi;
import org.medjava.filter.FilterDescriptor;
import org.medjava.filter.ParamSpec;
import org.medjava.filter.runtime.FilterInfo;
import org.medjava.filter.runtime.PluginInfo;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The filter repository's manifest ({@code GET /filters}): what a client needs to download plugins, verify them
 * by SHA-256, and build its menus and parameter dialogs without loading them first. It describes the repository's
 * content only (nothing about the node serving it, such as when it loaded a plugin), so every node of a cluster
 * serves the same manifest with the same ETag.
 */
@Schema(name = "FilterManifest", description = "The filter repository: the filter API version plugins are built "
        + "against, and every plugin JAR with its filters.")
public record FilterManifest(String filterApiVersion, List<Plugin> plugins) {

    /** One plugin JAR. {@code state} is ACTIVE or FAILED; {@code failure} says why (or why an upload was refused). */
    @Schema(name = "Plugin", description = "One plugin JAR; state ACTIVE or FAILED (failure says why); download "
            + "and sha256 to fetch and verify it.", example = PLUGIN_EXAMPLE)
    public record Plugin(String id, String version, String state, String sha256, String download, String failure,
                          List<Filter> filters) {
    }

    /**
     * One filter of a plugin; {@code state} is ACTIVE, SUSPENDED or FAILED; {@code help} is the plugin's
     * plain-language summary (filter API 1.3), absent when it gave none.
     */
    @Schema(name = "Filter", description = "One filter of a plugin; state ACTIVE, SUSPENDED or FAILED; help: what "
            + "it does in plain language (filter API 1.3; absent when the plugin gives none), description: the "
            + "spec's terms.")
    public record Filter(String id, String name, String description, String specSection, boolean parallelizable,
                         String state, String reason, List<Param> params, String help) {
    }

    /**
     * A parameter with its default and rule; min/max for numbers, choices for words; {@code label} and {@code help}
     * in plain language (filter API 1.3: the name and absent for plugins that give none).
     */
    @Schema(name = "FilterParam", description = "A filter parameter with its default and rule: min and max for "
            + "numbers, oddOnly for mask sizes, choices for words; label and help in plain language (filter API 1.3; "
            + "label is the name and help absent when the plugin gives none), description in the spec's terms.")
    public record Param(String name, String type, String defaultValue, String rule, String description, Integer min,
                        Integer max, Boolean oddOnly, List<String> choices, String label, String help) {
    }

    /** The blur plugin's entry, as a store seeded with the eight plugins answers it. */
    static final String PLUGIN_EXAMPLE = "{\"download\": \"/filters/blur.jar\", \"filters\": [{\"description\": "
            + "\"Box blur: each channel becomes floor(sum / count) over the n×n window centred on the pixel, clipped "
            + "to the region (xv's Blur).\", \"help\": \"Smooths the image: each pixel becomes the average of its "
            + "square neighbourhood. Reduces noise and fine detail alike; edges get softer.\", \"id\": \"blur\", "
            + "\"name\": \"Blur\", \"parallelizable\": true, "
            + "\"params\": [{\"defaultValue\": \"3\", \"description\": \"mask size (1 = identity)\", \"help\": "
            + "\"Width of the averaged square, in pixels (odd, 1 to 255). Higher smooths more and blurs edges more; 1 "
            + "leaves the image unchanged; 3 is a light smoothing.\", \"label\": \"Neighbourhood size\", "
            + "\"max\": 255, "
            + "\"min\": 1, \"name\": \"n\", \"oddOnly\": true, \"rule\": \"an odd integer from 1 to 255\", "
            + "\"type\": \"int\"}], \"specSection\": \"2.1\", \"state\": \"ACTIVE\"}], \"id\": \"blur\", "
            + "\"sha256\": \"3af213e6605f6a4e2edfd3d20f9c518029852fc260638eb76a0c25fbf2355579\", \"state\": "
            + "\"ACTIVE\", \"version\": \"0.1.0-SNAPSHOT\"}";

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
                f.state().name(), f.reason(), d.params().stream().map(FilterManifest::param).toList(),
                d.help().isEmpty() ? null : d.help());
    }

    private static Param param(ParamSpec p) {
        boolean numeric = p.type() == ParamSpec.Type.INT || p.type() == ParamSpec.Type.EXTENT;
        return new Param(p.name(), p.type().name().toLowerCase(java.util.Locale.ROOT), p.defaultValue(), p.rule(),
                p.description(), numeric ? p.min() : null, numeric ? p.max() : null,
                p.type() == ParamSpec.Type.INT ? p.oddOnly() : null,
                p.type() == ParamSpec.Type.CHOICE ? p.choices() : null, p.label(), p.hasHelp() ? p.help() : null);
    }
}
