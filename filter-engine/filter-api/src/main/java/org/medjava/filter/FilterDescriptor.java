package org.medjava.filter;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * What a filter is: a stable id (the same in Java, REST, C and JMH), a display name, a version, the spec section
 * it implements and its typed parameters. Built from filter-api types only.
 */
public final class FilterDescriptor {
    private static final Pattern ID = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");

    private final String id;
    private final String displayName;
    private final String version;
    private final String specSection;
    private final String description;
    private final String help;
    private final boolean parallelizable;
    private final List<ParamSpec> params;

    private FilterDescriptor(Builder b, String description, String help, List<ParamSpec> params) {
        if (b.id == null || !ID.matcher(b.id).matches()) {
            throw new IllegalArgumentException("filter id must be lower-case words joined by '-', got " + b.id);
        }
        Set<String> names = new HashSet<>();
        for (ParamSpec p : params) {
            if (!names.add(p.name())) {
                throw new IllegalArgumentException("filter " + b.id + " declares parameter " + p.name() + " twice");
            }
        }
        this.id = b.id;
        this.displayName = b.displayName == null ? b.id : b.displayName;
        this.version = b.version == null ? "0" : b.version;
        this.specSection = b.specSection == null ? "" : b.specSection;
        this.description = description == null ? "" : description;
        this.help = help == null ? "" : help.strip();
        this.parallelizable = b.parallelizable;
        this.params = List.copyOf(params);
    }

    public static Builder builder(String id) {
        return new Builder(id);
    }

    public String id() {
        return id;
    }

    public String displayName() {
        return displayName;
    }

    public String version() {
        return version;
    }

    /** Section of {@code spec/xv-filters.md}, e.g. "2.1". */
    public String specSection() {
        return specSection;
    }

    /** What the filter computes, in the spec's terms. */
    public String description() {
        return description;
    }

    /**
     * What the filter does to an image in a reader's words (API 1.3), or "" when the plugin gave none (plugins built
     * for API 1.0 to 1.2); hosts then show {@link #description()}.
     */
    public String help() {
        return help;
    }

    /** Whether {@link Implementation#PARALLEL} really splits the work (false for Spread, which is sequential). */
    public boolean parallelizable() {
        return parallelizable;
    }

    public List<ParamSpec> params() {
        return params;
    }

    /** The defaults, as xv's dialogs show them on first use. */
    public FilterParams defaults() {
        return params(Map.of());
    }

    /**
     * Validates raw values and fills in defaults.
     *
     * @throws InvalidParameterException for an unknown name (listing the known ones) or a value breaking its rule
     */
    public FilterParams params(Map<String, String> raw) {
        Map<String, ParamSpec> byName = new LinkedHashMap<>();
        params.forEach(p -> byName.put(p.name(), p));
        List<String> unknown = new ArrayList<>();
        for (String name : raw.keySet()) {
            if (!byName.containsKey(name)) {
                unknown.add(name);
            }
        }
        if (!unknown.isEmpty()) {
            throw new InvalidParameterException(id + ": unknown parameter " + String.join(", ", unknown) + "; "
                    + (params.isEmpty() ? id + " takes no parameters"
                    : "known: " + params.stream().map(p -> p.name() + " (" + p.rule() + ", default " + p.defaultValue() + ")")
                    .collect(Collectors.joining("; "))));
        }
        Map<String, Object> values = new LinkedHashMap<>();
        for (ParamSpec p : params) {
            String value = raw.containsKey(p.name()) ? raw.get(p.name()) : p.defaultValue();
            values.put(p.name(), p.parse(id, value));
        }
        return new FilterParams(id, values);
    }

    @Override
    public String toString() {
        return id + " " + version + " " + params;
    }

    public static final class Builder {
        private final String id;
        private String displayName;
        private String version;
        private String specSection;
        private String description;
        private String help;
        private boolean parallelizable = true;
        private final List<ParamSpec> params = new ArrayList<>();
        private Class<?> textOwner;

        private Builder(String id) {
            this.id = id;
        }

        public Builder displayName(String displayName) {
            this.displayName = displayName;
            return this;
        }

        public Builder version(String version) {
            this.version = version;
            return this;
        }

        public Builder specSection(String specSection) {
            this.specSection = specSection;
            return this;
        }

        public Builder description(String description) {
            this.description = description;
            return this;
        }

        /** Plain-language summary for dialogs and menus (API 1.3); see {@link FilterDescriptor#help()}. */
        public Builder help(String help) {
            this.help = help;
            return this;
        }

        public Builder parallelizable(boolean parallelizable) {
            this.parallelizable = parallelizable;
            return this;
        }

        public Builder param(ParamSpec param) {
            params.add(param);
            return this;
        }

        /**
         * Takes the prose from {@code <Owner>.properties} beside {@code owner} (API 1.5), read through its class
         * loader, so a plugin's file comes from its own JAR: {@code description}, {@code help}, and for every
         * parameter {@code param.<name>.label}, {@code param.<name>.description} and {@code param.<name>.help},
         * UTF-8. The class then keeps only what is declaration; the parameters are declared without texts. Exactly
         * these keys, none blank: a missing, unknown or repeated key, or a text also given inline, makes
         * {@link #build()} throw, so the plugin fails to load.
         */
        public Builder text(Class<?> owner) {
            this.textOwner = Objects.requireNonNull(owner, "owner");
            return this;
        }

        /** @throws IllegalArgumentException for a malformed id, a parameter declared twice, or a bad text resource */
        public FilterDescriptor build() {
            if (textOwner == null) {
                return new FilterDescriptor(this, description, help, params);
            }
            if (description != null || help != null) {
                throw new IllegalArgumentException("filter " + id + ": its description and help come from "
                        + FilterText.resourceName(textOwner) + ", not inline");
            }
            FilterText text = FilterText.read(textOwner, id, params);
            return new FilterDescriptor(this, text.description(), text.help(), text.params());
        }
    }
}
