package org.medjava.store.server.security;

import java.net.URI;
import java.util.Locale;
import java.util.Optional;

/** Web origins ({@code scheme://host[:port]}) in one spelling, so that they compare as strings. */
public final class Origins {

    private Origins() {
    }

    /**
     * The origin of a URL or of an {@code Origin} header, lower case, without a default port; empty when it is
     * not an http(s) origin (also {@code null}, the opaque origin browsers send from sandboxes and files).
     */
    public static Optional<String> of(String url) {
        if (url == null || url.isBlank()) {
            return Optional.empty();
        }
        URI uri;
        try {
            uri = new URI(url.trim());
        } catch (java.net.URISyntaxException e) {
            return Optional.empty();
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        String host = uri.getHost();
        if (!(scheme.equals("http") || scheme.equals("https")) || host == null || uri.getRawUserInfo() != null) {
            return Optional.empty();
        }
        int port = uri.getPort();
        boolean defaultPort = port == -1 || (scheme.equals("http") && port == 80)
                || (scheme.equals("https") && port == 443);
        return Optional.of(scheme + "://" + host.toLowerCase(Locale.ROOT) + (defaultPort ? "" : ":" + port));
    }

    /**
     * An origin as written in the configuration: a URL with nothing after the port (a trailing {@code /} is
     * tolerated).
     *
     * @throws IllegalArgumentException naming {@code setting} when it is not one
     */
    public static String parseConfigured(String text, String setting) {
        String t = text.trim();
        String bare = t.endsWith("/") ? t.substring(0, t.length() - 1) : t;
        Optional<String> origin = of(bare);
        URI uri = origin.isPresent() ? URI.create(bare) : null;
        if (origin.isEmpty() || (uri.getRawPath() != null && !uri.getRawPath().isEmpty()) || uri.getRawQuery() != null
                || uri.getRawFragment() != null) {
            throw new IllegalArgumentException(setting + " lists \"" + text + "\", which is not an origin: write"
                    + " scheme://host[:port], e.g. https://viewer.example.org");
        }
        return origin.get();
    }
}
