package org.medjava.store.server.config;

/**
 * A setting the store cannot start with: the message names the key, the value it had and what to write instead.
 * An {@link IllegalArgumentException}, so the start fails the way it fails for any bad argument (the deployment is
 * refused and the server log shows the message).
 */
public final class SettingException extends IllegalArgumentException {

    private final String key;

    /** @param problem what is wrong and what to write, e.g. {@code write 1 or more} */
    SettingException(Key key, Object value, String problem) {
        super(key.name() + (value == null ? "" : " is " + shown(value)) + ": " + problem);
        this.key = key.name();
    }

    SettingException(String message, Key key) {
        super(message);
        this.key = key.name();
    }

    /** The key that is wrong. */
    public String key() {
        return key;
    }

    private static String shown(Object value) {
        return value instanceof String s ? "\"" + s + "\"" : String.valueOf(value);
    }
}
