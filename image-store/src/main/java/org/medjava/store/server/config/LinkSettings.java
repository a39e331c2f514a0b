package org.medjava.store.server.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * How the store names itself in the links it writes and which {@code Host} headers it answers: the public URL, a
 * trusted proxy's forwarded headers, the extra host names.
 *
 * @param publicBaseUri {@code medjava.public-url} ending with {@code /} ({@code https://pacs.example.org/medjava/})
 */
public record LinkSettings(Optional<URI> publicBaseUri, boolean trustForwarded, List<String> allowedHosts) {

    /**
     * Where clients reach the store, with a proxy's path prefix if any (e.g. {@code https://pacs.example.org/medjava}):
     * every absolute link the store writes (RetrieveURL, BulkDataURI, Location) starts with it, its host is one of the
     * store's names for the Host check, and an {@code https} URL makes the session cookie Secure. Unset: links come
     * from trusted forwarded headers, else from a {@code Host} that names this server. Setting it is the safe choice in
     * production; {@code ./medjava start} sets it to {@code http://localhost:<MEDJAVA_PORT>} (or the bind address)
     * unless {@code MEDJAVA_PUBLIC_URL} is given.
     */
    static final Key PUBLIC_URL = Key.of("medjava.public-url");

    /**
     * Whether a proxy's {@code Forwarded} / {@code X-Forwarded-Proto/Host/Port/Prefix/For} headers are believed when
     * {@code medjava.public-url} is unset: for links, and for the client address of the access log and of login
     * throttling. Set it behind a reverse proxy, and let only the proxy reach the store.
     */
    static final Key TRUST_FORWARDED = Key.of("medjava.http.trust-forwarded", "false");

    /**
     * Host names or addresses (comma-separated, without ports) clients may give in {@code Host} besides this
     * machine's own names and addresses, when {@code medjava.public-url} is unset and forwarded headers are not
     * trusted; any other Host is refused with 400, so that links are never built from an unchecked Host.
     */
    static final Key ALLOWED_HOSTS = Key.of("medjava.http.allowed-hosts");

    public static LinkSettings from(SettingsSource source) {
        return new LinkSettings(source.text(PUBLIC_URL).filter(s -> !s.isBlank()).map(String::trim)
                .map(LinkSettings::baseUri), source.bool(TRUST_FORWARDED), source.text(ALLOWED_HOSTS)
                .map(s -> Arrays.stream(s.split(",")).map(String::trim).filter(h -> !h.isEmpty()).toList())
                .orElse(List.of()));
    }

    public LinkSettings {
        allowedHosts = List.copyOf(allowedHosts);
    }

    /** medjava.public-url without a trailing {@code /}. */
    public Optional<String> publicUrl() {
        return publicBaseUri.map(u -> u.toString().substring(0, u.toString().length() - 1));
    }

    /**
     * The base of the store's absolute links, ending with {@code /}.
     *
     * @throws SettingException when it is not an absolute http or https URL without query or fragment
     */
    static URI baseUri(String text) {
        URI uri;
        try {
            uri = new URI(text.endsWith("/") ? text : text + "/");
        } catch (URISyntaxException e) {
            uri = null;
        }
        if (uri == null || uri.getHost() == null || uri.getRawQuery() != null || uri.getRawFragment() != null
                || !("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))) {
            throw new SettingException(PUBLIC_URL, text, "write the absolute http(s) URL clients reach the store at,"
                    + " with its path prefix if any (e.g. https://pacs.example.org/medjava)");
        }
        return uri;
    }
}
