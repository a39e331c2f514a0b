package org.medjava.store.server.security;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Duration;
import java.time.Instant;

/**
 * The session cookie, {@code medjava_session}: HttpOnly (no script reads it), SameSite=Strict (no other site's page
 * makes the browser send it), Secure over HTTPS, for the whole store (the context path). Its Max-Age ends with the
 * token inside it.
 */
public final class SessionCookie {

    public static final String NAME = "medjava_session";

    private SessionCookie() {
    }

    /** The token in the request's cookie, or null. */
    public static String read(HttpServletRequest request) {
        Cookie[] cookies = request.getCookies();
        if (cookies == null) {
            return null;
        }
        for (Cookie c : cookies) {
            if (c.getName().equals(NAME) && !c.getValue().isEmpty()) {
                return c.getValue();
            }
        }
        return null;
    }

    /** Whether the cookie gets Secure: the request came over HTTPS, or the store's public URL is HTTPS. */
    public static boolean secure(boolean requestSecure, java.util.Optional<String> publicUrl) {
        return requestSecure || publicUrl.map(u -> u.trim().regionMatches(true, 0, "https:", 0, 6)).orElse(false);
    }

    /** A {@code Set-Cookie} value carrying {@code token} until {@code expires}. */
    public static String set(String token, Instant expires, Instant now, String contextPath, boolean secure) {
        long seconds = Math.max(0, Duration.between(now, expires).getSeconds());
        return NAME + "=" + token + "; Max-Age=" + seconds + attributes(contextPath, secure);
    }

    /** A {@code Set-Cookie} value that removes the cookie. */
    public static String clear(String contextPath, boolean secure) {
        return NAME + "=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT" + attributes(contextPath, secure);
    }

    private static String attributes(String contextPath, boolean secure) {
        String path = contextPath == null || contextPath.isEmpty() ? "/" : contextPath;
        return "; Path=" + path + "; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "");
    }
}
