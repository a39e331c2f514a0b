package org.medjava.filter;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * A filter's prose read from {@code <Owner>.properties} beside its class (API 1.5,
 * {@link FilterDescriptor.Builder#text}): {@code description}, {@code help}, and per parameter
 * {@code param.<name>.label}, {@code .description} and {@code .help}. Exactly these keys, each once and not blank, in
 * UTF-8: anything else is refused when the descriptor is built, so a plugin with a wrong file fails to load instead of
 * showing empty or stale help.
 */
record FilterText(String description, String help, List<ParamSpec> params) {

    /**
     * @param params the declared parameters, without inline texts
     * @throws IllegalArgumentException when the resource is missing, unreadable, or its keys are not exactly those
     */
    static FilterText read(Class<?> owner, String filterId, List<ParamSpec> params) {
        String file = resourceName(owner);
        Properties texts = load(owner, file);
        String where = "filter " + filterId + ": " + owner.getPackageName().replace('.', '/') + "/" + file;
        Set<String> expected = new LinkedHashSet<>(List.of("description", "help"));
        for (ParamSpec p : params) {
            if (p.hasInlineText()) {
                throw new IllegalArgumentException(where + " gives the texts, so parameter " + p.name()
                        + " must be declared without them");
            }
            for (String field : List.of("label", "description", "help")) {
                expected.add("param." + p.name() + "." + field);
            }
        }
        Set<String> missing = new TreeSet<>(expected);
        Set<String> unknown = new TreeSet<>();
        for (String key : texts.stringPropertyNames()) {
            if (!texts.getProperty(key).isBlank()) {
                missing.remove(key);
            }
            if (!expected.contains(key)) {
                unknown.add(key);
            }
        }
        if (!missing.isEmpty() || !unknown.isEmpty()) {
            throw new IllegalArgumentException(where + (missing.isEmpty() ? "" : " lacks " + missing)
                    + (unknown.isEmpty() ? "" : " has unknown keys " + unknown) + "; it needs exactly " + expected);
        }
        List<ParamSpec> texted = new ArrayList<>();
        for (ParamSpec p : params) {
            String key = "param." + p.name() + ".";
            texted.add(p.withText(text(texts, key + "description"), text(texts, key + "label"),
                    text(texts, key + "help")));
        }
        return new FilterText(text(texts, "description"), text(texts, "help"), texted);
    }

    /** {@code SpreadFilter.properties}; a nested class's keeps its binary name ({@code Outer$Inner.properties}). */
    static String resourceName(Class<?> owner) {
        String name = owner.getName();
        return name.substring(name.lastIndexOf('.') + 1) + ".properties";
    }

    // Through the owner's class: a plugin's own class loader, so the file comes from the plugin's JAR
    private static Properties load(Class<?> owner, String file) {
        Properties texts = new Properties() {
            @Override
            public synchronized Object put(Object key, Object value) {
                Object before = super.put(key, value);
                if (before != null) {
                    throw new IllegalArgumentException(owner.getName() + ": " + file + " gives " + key + " twice");
                }
                return null;
            }
        };
        try (InputStream in = owner.getResourceAsStream(file)) {
            if (in == null) {
                throw new IllegalArgumentException(owner.getName() + ": no " + file + " beside the class");
            }
            // a decoder that reports malformed input, where a plain reader would put U+FFFD into the help
            texts.load(new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()));
        } catch (IOException e) {
            throw new IllegalArgumentException(owner.getName() + ": cannot read " + file + " as UTF-8: " + e, e);
        }
        return texts;
    }

    private static String text(Properties texts, String key) {
        return texts.getProperty(key).strip();
    }
}
