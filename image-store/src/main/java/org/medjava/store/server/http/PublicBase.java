package org.medjava.store.server.http;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import org.medjava.store.core.StoreException;
import java.util.regex.Pattern;
import org.medjava.store.server.config.LinkSettings;

/**
 * The base of every absolute URI the store writes (DICOMweb RetrieveURL and BulkDataURI, Location headers): the
 * one place that decides it. In order:
 * <ol>
 *   <li>{@code medjava.public-url} when set (it may carry a path prefix: {@code https://pacs.example.org/medjava});
 *   <li>with {@code medjava.http.trust-forwarded=true} only, what the proxy says: {@code Forwarded} (proto, host),
 *       else {@code X-Forwarded-Proto}, {@code X-Forwarded-Host}, {@code X-Forwarded-Port}, and
 *       {@code X-Forwarded-Prefix} — each value checked, a malformed one ignored;
 *   <li>the request's own base URI, when its host names this server ({@link AllowedHosts}); otherwise 400 "unknown
 *       host" (RequestGuardFilter refuses such requests first; this is the same rule where the link is made). A
 *       request the front took over HTTPS ({@link FrontHeaders}) has an https base, though relayed as HTTP.
 * </ol>
 * Forwarded headers are off by default: anyone can send them, and a store that believed them would hand out links
 * to wherever a client said.
 */
public final class PublicBase {

    private static final Pattern HOST = Pattern.compile("([A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*|\\[[0-9A-Fa-f:.]+\\])"
            + "(:[0-9]{1,5})?");
    private static final Pattern PREFIX = Pattern.compile("(/[A-Za-z0-9._~-]+)*/?");

    private PublicBase() {
    }

    /** The base for this request, ending with {@code /}. */
    public static URI of(LinkSettings config, UriInfo uri, HttpHeaders headers) {
        AllowedHosts hosts = AllowedHosts.of(config.allowedHosts());
        URI base = uri.getBaseUri();
        if (FrontHeaders.relayedSecure(headers::getHeaderString) && "http".equals(base.getScheme())) {
            base = URI.create("https" + base.toString().substring(4)); // the front's HTTPS, relayed as HTTP
        }
        return resolve(config.publicBaseUri(), config.trustForwarded(), host -> hosts.accepts(host, null), base,
                headers::getHeaderString);
    }

    /** {@code path} (relative to the application, raw: {@code images/a%20b.dcm}) under this request's base. */
    public static URI resolve(LinkSettings config, UriInfo uri, HttpHeaders headers, String path) {
        return of(config, uri, headers).resolve(path.startsWith("/") ? path.substring(1) : path);
    }

    /**
     * The rule itself.
     *
     * @param knownHost   whether a host (with its port, as the Host header gives it) names this server
     * @param requestBase the request's base URI (the application's root, ending with {@code /})
     * @param header      a request header's value by name, or null
     */
    static URI resolve(Optional<URI> configured, boolean trustForwarded, Predicate<String> knownHost,
                       URI requestBase, Function<String, String> header) {
        if (configured.isPresent()) {
            return configured.get();
        }
        URI base = slashed(requestBase);
        if (!trustForwarded) {
            if (!knownHost.test(base.getRawAuthority())) {
                throw new StoreException(StoreException.Kind.BAD_REQUEST, "unknown host: this store does not "
                        + "answer to the name in the Host header (set medjava.public-url or medjava.http.allowed-hosts)");
            }
            return base;
        }
        String proto = forwarded(header.apply("Forwarded"), "proto");
        String host = forwarded(header.apply("Forwarded"), "host");
        if (proto == null) {
            proto = first(header.apply("X-Forwarded-Proto"));
        }
        if (host == null) {
            host = first(header.apply("X-Forwarded-Host"));
            String port = first(header.apply("X-Forwarded-Port"));
            if (host != null && port != null && port.matches("[0-9]{1,5}") && !host.matches(".*:[0-9]+")) {
                host = host + ":" + port;
            }
        }
        String prefix = first(header.apply("X-Forwarded-Prefix"));
        String scheme = proto != null && proto.matches("(?i)https?") ? proto.toLowerCase(Locale.ROOT) : base.getScheme();
        String authority = host != null && HOST.matcher(host).matches() ? host : base.getRawAuthority();
        String path = base.getRawPath();
        if (prefix != null && PREFIX.matcher(prefix).matches()) {
            path = prefix.replaceAll("/+$", "") + path;
        }
        try {
            return new URI(scheme + "://" + authority + path);
        } catch (URISyntaxException e) {
            return base; // cannot happen with the values checked above
        }
    }

    /**
     * The client's address for the logs and the audit trail: with {@code trustForwarded}, the first {@code for} of
     * {@code Forwarded}, else the first of {@code X-Forwarded-For} (the client as the outermost proxy saw it), when
     * it is an IP address; otherwise the connection's peer.
     */
    public static String clientAddress(boolean trustForwarded, String remoteAddr, Function<String, String> header) {
        if (!trustForwarded) {
            return remoteAddr;
        }
        String client = forwarded(header.apply("Forwarded"), "for");
        if (client == null) {
            client = first(header.apply("X-Forwarded-For"));
        }
        if (client != null && client.startsWith("[")) { // [2001:db8::1]:4711
            int close = client.indexOf(']');
            client = close > 0 ? client.substring(1, close) : null;
        } else if (client != null && client.matches("[0-9.]+:[0-9]+")) { // 192.0.2.1:4711
            client = client.substring(0, client.indexOf(':'));
        }
        return client != null && ADDRESS.matcher(client).matches() ? client : remoteAddr;
    }

    /** The client of a request to the application: {@link #clientAddress} with the front's word for the peer. */
    public static String clientAddress(LinkSettings config, HttpServletRequest request) {
        return clientAddress(config.trustForwarded(), FrontHeaders.peer(request), request::getHeader);
    }

    private static final Pattern ADDRESS = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

    private static URI slashed(URI uri) {
        return uri.getRawPath() != null && uri.getRawPath().endsWith("/") ? uri : URI.create(uri + "/");
    }

    /** A parameter of the first element of an RFC 7239 Forwarded header (the client's side of the first proxy). */
    private static String forwarded(String header, String name) {
        if (header == null) {
            return null;
        }
        String element = header.split(",", 2)[0];
        for (String pair : element.split(";")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.substring(0, eq).trim().equalsIgnoreCase(name)) {
                String value = pair.substring(eq + 1).trim();
                if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
                    value = value.substring(1, value.length() - 1);
                }
                return value.isEmpty() ? null : value;
            }
        }
        return null;
    }

    /** The first of a comma-separated header's values (the one the outermost proxy set). */
    private static String first(String header) {
        if (header == null) {
            return null;
        }
        String value = header.split(",", 2)[0].trim();
        return value.isEmpty() ? null : value;
    }
}
