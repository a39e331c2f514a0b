package org.medjava.viewer.store;

import java.io.IOException;

/**
 * How the viewer proves who it is to the store, on every request: a user name and password ({@link Credentials}) or
 * the OpenID provider's tokens ({@link TokenSession}). Kept in memory only, never written anywhere.
 */
public interface StoreLogin {
    /** The user's name, as the viewer shows it. */
    String user();

    /** The {@code Authorization} header for the next request. */
    String authorization() throws IOException;

    /** After a 401: whether a fresh authorization is worth one more try (a refreshed token); false by default. */
    default boolean renew() throws IOException {
        return false;
    }

    /** Overwrites the secrets in memory. */
    void forget();
}
