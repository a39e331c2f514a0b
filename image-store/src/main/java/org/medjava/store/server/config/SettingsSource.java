package org.medjava.store.server.config;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.eclipse.microprofile.config.Config;

/**
 * Where the settings records read their keys: MicroProfile Config at run time (system properties, then the
 * environment form {@code MEDJAVA_UPLOAD_MAX_BYTES}, then {@code microprofile-config.properties}), a map in tests.
 * An empty value counts as unset, as in MicroProfile Config. The typed reads convert, and name the key and the value
 * when they cannot; the range checks do the same.
 */
public final class SettingsSource {

    private static final Set<String> TRUE = Set.of("true", "1", "yes", "y", "on");
    private static final Set<String> FALSE = Set.of("false", "0", "no", "n", "off");

    private final Function<String, Optional<String>> values;

    private SettingsSource(Function<String, Optional<String>> values) {
        this.values = values;
    }

    public static SettingsSource of(Config config) {
        return new SettingsSource(name -> config.getOptionalValue(name, String.class));
    }

    public static SettingsSource of(Map<String, String> values) {
        return new SettingsSource(name -> Optional.ofNullable(values.get(name)));
    }

    /** The value as given, else the key's default; empty when neither. */
    public Optional<String> text(Key key) {
        return values.apply(key.name()).filter(v -> !v.isEmpty()).or(() -> Optional.ofNullable(key.defaultValue()));
    }

    /** The value or default of a key that has one. */
    public String string(Key key) {
        return text(key).orElseThrow(() -> new SettingException(key, null, "is required"));
    }

    public boolean bool(Key key) {
        String value = string(key);
        String word = value.trim().toLowerCase(Locale.ROOT);
        if (TRUE.contains(word)) {
            return true;
        }
        if (FALSE.contains(word)) {
            return false;
        }
        throw new SettingException(key, value, "write true or false");
    }

    public int integer(Key key) {
        return optionalInteger(key).orElseThrow(() -> new SettingException(key, null, "is required"));
    }

    public Optional<Integer> optionalInteger(Key key) {
        return optionalWhole(key).map(n -> {
            if (n < Integer.MIN_VALUE || n > Integer.MAX_VALUE) {
                throw new SettingException(key, n, "write a whole number up to " + Integer.MAX_VALUE);
            }
            return n.intValue();
        });
    }

    public long whole(Key key) {
        return optionalWhole(key).orElseThrow(() -> new SettingException(key, null, "is required"));
    }

    public Optional<Long> optionalWhole(Key key) {
        return text(key).map(value -> {
            try {
                return Long.parseLong(value.trim());
            } catch (NumberFormatException e) {
                throw new SettingException(key, value, "write a whole number");
            }
        });
    }

    /** A number that may have a fraction ({@code 0.5}). */
    public double decimal(Key key) {
        String value = string(key);
        try {
            double d = Double.parseDouble(value.trim());
            if (Double.isFinite(d)) {
                return d;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new SettingException(key, value, "write a number, e.g. 2.5");
    }

    /**
     * A key whose text another class parses (a policy name, a list of rules): its parser's refusal becomes one that
     * names the key and the value.
     *
     * @param advice what to write instead; null: the parser's own message
     */
    public <T> T parsed(Key key, Function<String, T> parser, String advice) {
        String value = text(key).orElse("");
        try {
            return parser.apply(value);
        } catch (IllegalArgumentException e) {
            throw new SettingException(key, value, advice == null ? e.getMessage() : advice);
        }
    }

    /** {@code value}, when it is at least {@code min}. */
    static long atLeast(Key key, long value, long min) {
        if (value < min) {
            throw new SettingException(key, value, "write " + min + " or more");
        }
        return value;
    }

    static int atLeast(Key key, int value, int min) {
        return (int) atLeast(key, (long) value, min);
    }

    /** {@code value}, when it is from {@code min} to {@code max}. */
    static long within(Key key, long value, long min, long max) {
        if (value < min || value > max) {
            throw new SettingException(key, value, "write a whole number from " + min + " to " + max);
        }
        return value;
    }

    /** A port, when given: 1 to 65535 (0 and below, where allowed, mean none and are filtered by the caller). */
    static Optional<Integer> port(Key key, Optional<Integer> port) {
        port.filter(p -> p > 65535).ifPresent(p -> {
            throw new SettingException(key, p, "write a TCP port, 1 to 65535");
        });
        return port;
    }
}
