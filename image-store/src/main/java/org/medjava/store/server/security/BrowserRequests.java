package org.medjava.store.server.security;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * What kind of client sent a request, as far as answering "log in first" goes: a script in a page must not get an
 * HTTP Basic challenge (the browser would open its own login prompt over the application), a browser navigating to a
 * page is sent to the login page, every other client (curl, the Swing viewer, DCMTK) gets the Basic challenge.
 */
public final class BrowserRequests {

    public static final String BASIC_CHALLENGE = "Basic realm=\"MedJava image store\", charset=\"UTF-8\"";
    /** A scheme no browser knows, so it shows no prompt: the page's script sends the user to the login page. */
    public static final String SESSION_CHALLENGE = "Session realm=\"MedJava image store\"";
    /** Where the login page is, relative to the context path. */
    public static final String LOGIN_PAGE = "/viewer/";

    private BrowserRequests() {
    }

    /** A fetch or XMLHttpRequest from a page: {@code Sec-Fetch-Mode} other than navigate, or X-Requested-With. */
    public static boolean isScript(String secFetchMode, String requestedWith) {
        return (secFetchMode != null && !secFetchMode.trim().equalsIgnoreCase("navigate"))
                || requestedWith != null;
    }

    /** A browser loading a page: {@code Sec-Fetch-Mode: navigate}, or (older browsers) a GET asking for HTML. */
    public static boolean isNavigation(String method, String secFetchMode, String requestedWith, String accept) {
        if (!method.equals("GET") || isScript(secFetchMode, requestedWith)) {
            return false;
        }
        return secFetchMode != null || (accept != null && accept.toLowerCase(Locale.ROOT).contains("text/html"));
    }

    /**
     * The {@code WWW-Authenticate} of a 401: Basic for clients other than browsers; for a browser's request (a
     * script's, or a navigation that is not a GET, such as a form's POST: a GET is redirected to the login page
     * instead) a scheme it does not know, so that it opens no prompt of its own.
     */
    public static String challenge(String secFetchMode, String requestedWith) {
        return secFetchMode != null || requestedWith != null ? SESSION_CHALLENGE : BASIC_CHALLENGE;
    }

    /**
     * The login page with the page to come back to: {@code <context>/viewer/?next=<path and query>}. Both are
     * paths on this store (one leading slash, never {@code //host} nor {@code /\host}): no redirect leads elsewhere.
     */
    public static String loginRedirect(String contextPath, String requestUri, String query) {
        String path = "/" + requestUri.replaceFirst("^[/\\\\]+", "");
        String next = query == null || query.isEmpty() ? path : path + "?" + query;
        return contextPath + LOGIN_PAGE + "?next=" + URLEncoder.encode(next, StandardCharsets.UTF_8);
    }
}
