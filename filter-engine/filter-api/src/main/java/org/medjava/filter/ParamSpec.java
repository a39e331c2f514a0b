package org.medjava.filter;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One typed filter parameter: name, type, default and the rule its values must follow. Built only from
 * filter-api types, so a host may keep descriptors without pinning a plugin's class loader.
 *
 * <p>{@link #description()} states the rule in the spec's terms (for error messages and details). Since API 1.3 a
 * plugin may add plain-language help for people who are not reading the spec ({@link #withHelp}): a short
 * {@link #label()} ("Neighbourhood size") and a sentence or two of {@link #help()} saying what the value does, in
 * which units, and which way is stronger. A parameter without it (every plugin built for 1.0 to 1.2) answers its
 * name as the label and an empty help, so hosts fall back to the description.
 */
public final class ParamSpec {

    public enum Type { INT, EXTENT, CHOICE, BOOLEAN }

    private static final Pattern EXTENT = Pattern.compile("(\\d{1,9})(?:[xX](\\d{1,9}))?");

    private final String name;
    private final Type type;
    private final String defaultValue;
    private final String description;
    private final int min;
    private final int max;
    private final boolean oddOnly;
    private final List<String> choices;
    private final String label;
    private final String help;

    private ParamSpec(String name, Type type, String defaultValue, String description, int min, int max,
                      boolean oddOnly, List<String> choices) {
        this(name, type, defaultValue, description, min, max, oddOnly, choices, null, null);
    }

    private ParamSpec(String name, Type type, String defaultValue, String description, int min, int max,
                      boolean oddOnly, List<String> choices, String label, String help) {
        if (name == null || !name.matches("[a-z][a-z0-9-]*")) {
            throw new IllegalArgumentException("parameter name must match [a-z][a-z0-9-]*, got " + name);
        }
        if (min > max) {
            throw new IllegalArgumentException("parameter " + name + ": min " + min + " > max " + max);
        }
        this.name = name;
        this.type = type;
        this.description = description == null ? "" : description;
        this.min = min;
        this.max = max;
        this.oddOnly = oddOnly;
        this.choices = List.copyOf(choices);
        this.defaultValue = defaultValue;
        this.label = label == null || label.isBlank() ? name : label.strip();
        this.help = help == null ? "" : help.strip();
        parse("(default)", defaultValue); // a spec whose own default breaks its rule is a programming error
    }

    /** An integer in {@code [min, max]}. */
    public static ParamSpec integer(String name, int defaultValue, int min, int max, String description) {
        return new ParamSpec(name, Type.INT, Integer.toString(defaultValue), description, min, max, false, List.of());
    }

    /** An odd integer in {@code [min, max]} (mask sizes). */
    public static ParamSpec oddInteger(String name, int defaultValue, int min, int max, String description) {
        return new ParamSpec(name, Type.INT, Integer.toString(defaultValue), description, min, max, true, List.of());
    }

    /** {@code "N"} or {@code "AxB"}, each number in {@code [min, max]}. */
    public static ParamSpec extent(String name, String defaultValue, int min, int max, String description) {
        return new ParamSpec(name, Type.EXTENT, defaultValue, description, min, max, false, List.of());
    }

    /** One of a fixed set of words; the first is usually xv's behaviour and the default. */
    public static ParamSpec choice(String name, String defaultValue, List<String> choices, String description) {
        return new ParamSpec(name, Type.CHOICE, defaultValue, description, 0, 0, false, choices);
    }

    public static ParamSpec bool(String name, boolean defaultValue, String description) {
        return new ParamSpec(name, Type.BOOLEAN, Boolean.toString(defaultValue), description, 0, 0, false, List.of());
    }

    /** {@link #integer(String, int, int, int, String)} whose texts come from the filter's resource (API 1.5). */
    public static ParamSpec integer(String name, int defaultValue, int min, int max) {
        return integer(name, defaultValue, min, max, null);
    }

    /** {@link #oddInteger(String, int, int, int, String)} whose texts come from the filter's resource (API 1.5). */
    public static ParamSpec oddInteger(String name, int defaultValue, int min, int max) {
        return oddInteger(name, defaultValue, min, max, null);
    }

    /** {@link #extent(String, String, int, int, String)} whose texts come from the filter's resource (API 1.5). */
    public static ParamSpec extent(String name, String defaultValue, int min, int max) {
        return extent(name, defaultValue, min, max, null);
    }

    /** {@link #choice(String, String, List, String)} whose texts come from the filter's resource (API 1.5). */
    public static ParamSpec choice(String name, String defaultValue, List<String> choices) {
        return choice(name, defaultValue, choices, null);
    }

    /** {@link #bool(String, boolean, String)} whose texts come from the filter's resource (API 1.5). */
    public static ParamSpec bool(String name, boolean defaultValue) {
        return bool(name, defaultValue, null);
    }

    public String name() {
        return name;
    }

    /**
     * This parameter with plain-language help (API 1.3): {@code label} is a short name for a form ("Strength"),
     * {@code help} says in a reader's words what the value changes, its units and range, and which way is stronger.
     * The rule, default and spec description are unchanged.
     *
     * @param label null or blank keeps the parameter's name as its label
     * @param help  null or blank for none
     */
    public ParamSpec withHelp(String label, String help) {
        return new ParamSpec(name, type, defaultValue, description, min, max, oddOnly, choices, label, help);
    }

    /** This parameter with the texts read from its filter's resource (FilterText). */
    ParamSpec withText(String description, String label, String help) {
        return new ParamSpec(name, type, defaultValue, description, min, max, oddOnly, choices, label, help);
    }

    /** Whether the plugin wrote any of this parameter's texts inline (description, label or help). */
    boolean hasInlineText() {
        return !description.isEmpty() || hasHelp() || !label.equals(name);
    }

    /** A short human name for forms; the parameter's name when the plugin gave none. */
    public String label() {
        return label;
    }

    /** Plain-language help, or "" when the plugin gave none (plugins built for API 1.0 to 1.2). */
    public String help() {
        return help;
    }

    /** Whether the plugin gave plain-language help for this parameter. */
    public boolean hasHelp() {
        return !help.isEmpty();
    }

    public Type type() {
        return type;
    }

    public String defaultValue() {
        return defaultValue;
    }

    public String description() {
        return description;
    }

    public int min() {
        return min;
    }

    public int max() {
        return max;
    }

    public boolean oddOnly() {
        return oddOnly;
    }

    public List<String> choices() {
        return choices;
    }

    /** The rule in words, as quoted by error messages and shown in dialogs. */
    public String rule() {
        switch (type) {
            case INT:
                return (oddOnly ? "an odd integer" : "an integer") + " from " + min + " to " + max;
            case EXTENT:
                return "\"N\" or \"AxB\" with each number from " + min + " to " + max;
            case CHOICE:
                return "one of " + String.join(", ", choices);
            default:
                return "true or false";
        }
    }

    /**
     * Converts and checks a raw value.
     *
     * @param filterId used in the error message only
     * @return Integer, Extent, String or Boolean according to {@link #type()}
     * @throws InvalidParameterException quoting the rule
     */
    public Object parse(String filterId, String raw) {
        String text = raw == null ? "" : raw.trim();
        switch (type) {
            case INT: {
                int value;
                try {
                    value = Integer.parseInt(text);
                } catch (NumberFormatException e) {
                    throw invalid(filterId, raw);
                }
                if (value < min || value > max || (oddOnly && (value & 1) == 0)) {
                    throw invalid(filterId, raw);
                }
                return value;
            }
            case EXTENT: {
                Matcher m = EXTENT.matcher(text);
                if (!m.matches()) {
                    throw invalid(filterId, raw);
                }
                int a = Integer.parseInt(m.group(1));
                boolean pair = m.group(2) != null;
                int b = pair ? Integer.parseInt(m.group(2)) : a;
                if (a < min || a > max || b < min || b > max) {
                    throw invalid(filterId, raw);
                }
                return new Extent(a, b, pair);
            }
            case CHOICE: {
                String lower = text.toLowerCase(Locale.ROOT);
                if (!choices.contains(lower)) {
                    throw invalid(filterId, raw);
                }
                return lower;
            }
            default: {
                String lower = text.toLowerCase(Locale.ROOT);
                if (lower.equals("true") || lower.equals("false")) {
                    return Boolean.valueOf(lower);
                }
                throw invalid(filterId, raw);
            }
        }
    }

    private InvalidParameterException invalid(String filterId, String raw) {
        return new InvalidParameterException(filterId + ": parameter " + name + "=\"" + raw + "\" is invalid: "
                + name + " must be " + rule() + " (default " + defaultValue + ")"
                + (description.isEmpty() ? "" : "; " + description));
    }

    @Override
    public String toString() {
        return name + ":" + type.name().toLowerCase(Locale.ROOT) + "=" + defaultValue;
    }
}
