package org.medjava.viewer.store;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/** A login, kept in memory for the session only (never written anywhere). */
public final class Credentials implements StoreLogin {
    private final String user;
    private final char[] password;

    public Credentials(String user, char[] password) {
        this.user = user;
        this.password = password.clone();
    }

    @Override
    public String user() {
        return user;
    }

    @Override
    public String authorization() {
        String pair = user + ":" + new String(password);
        return "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
    }

    /** Overwrites the password in memory. */
    @Override
    public void forget() {
        Arrays.fill(password, '\0');
    }

    @Override
    public String toString() {
        return "Credentials[" + user + "]";
    }
}
