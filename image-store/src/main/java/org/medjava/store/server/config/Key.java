package org.medjava.store.server.config;

/**
 * One MicroProfile Config key of the store: its name and its default as written (null: none). Declared once, as a
 * constant of the settings record that reads it, with the key's meaning as the constant's javadoc: that javadoc is
 * the key's entry in docs/configuration.md (ConfigurationReferenceTest finds each {@code Key.of} in the sources).
 */
public record Key(String name, String defaultValue) {

    /** A key without a default: unset means what its settings record says. */
    public static Key of(String name) {
        return new Key(name, null);
    }

    public static Key of(String name, String defaultValue) {
        return new Key(name, defaultValue);
    }

    @Override
    public String toString() {
        return name;
    }
}
