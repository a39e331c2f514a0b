package org.medjava.store.server.security;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which other web origins may call the store from a browser ({@code medjava.cors.origins}: exact origins, comma
 * separated; empty: none). A listed origin gets its own origin echoed with credentials allowed. {@code *} lets any
 * origin read what is readable without a login, without credentials. An origin not allowed gets no CORS header at
 * all (the browser then refuses the answer to the page), never an error.
 */
public final class CorsPolicy {

    public static final String SETTING = "medjava.cors.origins";
    static final String ALLOW_METHODS = "GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS";
    static final String ANONYMOUS_METHODS = "GET, HEAD, OPTIONS";
    static final String ALLOW_HEADERS = "Authorization, Content-Type, Accept, Accept-Language, Content-Language,"
            + " If-Match, If-None-Match, If-Modified-Since, If-Range, Range, X-Requested-With, Cache-Control"
            + ", Tus-Resumable, Upload-Length, Upload-Offset, Upload-Metadata, Upload-Checksum, Repr-Digest";
    static final String ANONYMOUS_HEADERS = "Content-Type, Accept, Accept-Language, Content-Language, If-Match,"
            + " If-None-Match, If-Modified-Since, If-Range, Range, X-Requested-With, Cache-Control";
    static final String EXPOSE_HEADERS = "ETag, Location, Content-Location, Content-Range, Content-Length,"
            + " Content-Disposition, Content-Type, Accept-Ranges, Last-Modified, Warning, WWW-Authenticate"
            + ", Tus-Resumable, Tus-Version, Tus-Extension, Tus-Max-Size, Tus-Checksum-Algorithm, Upload-Offset,"
            + " Upload-Length, Upload-Expires";
    static final String MAX_AGE = "600";

    private final Set<String> origins;
    private final boolean anyForAnonymous;

    private CorsPolicy(Set<String> origins, boolean anyForAnonymous) {
        this.origins = origins;
        this.anyForAnonymous = anyForAnonymous;
    }

    /**
     * @throws IllegalArgumentException naming the setting when an entry is not an origin
     */
    public static CorsPolicy parse(String setting) {
        Set<String> origins = new TreeSet<>();
        boolean any = false;
        for (String entry : (setting == null ? "" : setting).split(",")) {
            if (entry.isBlank()) {
                continue;
            }
            if (entry.trim().equals("*")) {
                any = true;
            } else {
                origins.add(Origins.parseConfigured(entry, SETTING));
            }
        }
        return new CorsPolicy(Set.copyOf(origins), any);
    }

    public boolean off() {
        return origins.isEmpty() && !anyForAnonymous;
    }

    /** Whether a request from this origin ({@code Origin} header as sent) may carry the user's credentials. */
    public boolean isListed(String origin) {
        return Origins.of(origin).map(origins::contains).orElse(false);
    }

    /** Whether the request is a CORS preflight. */
    public static boolean isPreflight(String method, String origin, String requestMethod) {
        return "OPTIONS".equals(method) && origin != null && requestMethod != null;
    }

    /**
     * The headers of the answer to a preflight (empty: not allowed, the browser will not send the request).
     *
     * @param anonymousReadable whether the resource is readable without a login (what {@code *} allows)
     */
    public Map<String, String> preflight(String origin, String requestMethod, boolean anonymousReadable) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers");
        if (isListed(origin)) {
            h.put("Access-Control-Allow-Origin", origin);
            h.put("Access-Control-Allow-Credentials", "true");
            h.put("Access-Control-Allow-Methods", ALLOW_METHODS);
            h.put("Access-Control-Allow-Headers", ALLOW_HEADERS);
            h.put("Access-Control-Max-Age", MAX_AGE);
        } else if (anyForAnonymous && anonymousReadable && Origins.of(origin).isPresent()
                && Set.of("GET", "HEAD").contains(requestMethod)) {
            h.put("Access-Control-Allow-Origin", "*");
            h.put("Access-Control-Allow-Methods", ANONYMOUS_METHODS);
            h.put("Access-Control-Allow-Headers", ANONYMOUS_HEADERS);
            h.put("Access-Control-Max-Age", MAX_AGE);
        }
        return h;
    }

    /** The CORS headers of an actual (not preflight) response; empty when none are due. */
    public Map<String, String> actual(String origin, String method, boolean anonymousReadable) {
        Map<String, String> h = new LinkedHashMap<>();
        if (off() || origin == null) {
            return h;
        }
        h.put("Vary", "Origin");
        if (isListed(origin)) {
            h.put("Access-Control-Allow-Origin", origin);
            h.put("Access-Control-Allow-Credentials", "true");
            h.put("Access-Control-Expose-Headers", EXPOSE_HEADERS);
        } else if (anyForAnonymous && anonymousReadable && Origins.of(origin).isPresent()
                && Set.of("GET", "HEAD").contains(method)) {
            h.put("Access-Control-Allow-Origin", "*");
            h.put("Access-Control-Expose-Headers", EXPOSE_HEADERS);
        }
        return h;
    }

    /** The listed origins (normalized), for the banner and tests. */
    public Set<String> origins() {
        return origins;
    }

    @Override
    public String toString() {
        return off() ? "off" : String.join(", ", origins) + (anyForAnonymous ? (origins.isEmpty() ? "" : ", ")
                + "* (anonymous reads)" : "");
    }
}
