package org.medjava.store.server.config;

import java.util.Optional;

/**
 * The store's own HTTP front (front.FrontServer): its ports and addresses, Payara's port behind it, how many
 * requests it relays and keeps waiting, its caches and its header deadline.
 *
 * @param directReads whether plain file GETs and HEADs are answered by the front itself rather than the container:
 *                    never under access by project, where the container decides each read by the study's labels
 */
public record HttpSettings(Optional<Integer> port, Optional<String> bind, Optional<Integer> httpsPort,
                           Optional<String> httpsBind, boolean directReads, int backendPort, int maxRelayed,
                           int maxWaiting, long readCacheBytes, long thumbnailCacheBytes, int headerTimeoutSeconds) {

    /**
     * The store's public HTTP port, served by its own front (front.FrontServer), which relays what it does not answer
     * itself to Payara; unset: no front, Payara's port only. Every starter sets it ({@code ./medjava start}:
     * {@code MEDJAVA_PORT}).
     */
    static final Key PORT = Key.of("medjava.http.port");

    /** The address the front (HTTP, and HTTPS) listens on; unset: every interface. */
    static final Key BIND = Key.of("medjava.http.bind");

    /** The front's HTTPS port (HTTP/1.1 and HTTP/2 chosen by ALPN); unset: no HTTPS. */
    static final Key HTTPS_PORT = Key.of("medjava.https.port");

    /**
     * The address the front's HTTPS listens on when it differs from HTTP's: {@code *} for every interface. Unset:
     * {@code medjava.http.bind}'s. {@code ./medjava start} keeps HTTP on the loopback and HTTPS on every interface.
     */
    static final Key HTTPS_BIND = Key.of("medjava.https.bind");

    /**
     * Whether plain file GETs and HEADs under {@code /images/}, WADO-RS frames and thumbnails are answered by the
     * store's front itself (front.FrontReads) rather than relayed to the servlet container (see docs/performance.md).
     */
    static final Key DIRECT_READS = Key.of("medjava.http.direct-reads", "true");

    /**
     * Payara Micro's own HTTP port (its {@code --port}), where the front relays what it does not answer itself;
     * required with {@code medjava.http.port}. {@code deploy/payara-preboot.txt} binds it to the loopback;
     * {@code ./medjava start} takes the first free port from {@code MEDJAVA_PORT}+1000.
     */
    static final Key BACKEND_PORT = Key.of("medjava.http.backend-port", "0");

    /** Requests the front relays to Payara at once (each holds one loopback connection while it runs); at least 1. */
    static final Key MAX_RELAYED = Key.of("medjava.http.max-relayed", "256");

    /** Requests that may wait for one of those; more are answered 503 with {@code Retry-After} at once. At least 1. */
    static final Key MAX_WAITING = Key.of("medjava.http.max-waiting", "1024");

    /**
     * Direct memory for the bytes of small files the front read lately (front.SmallFileCache), served again while the
     * file's ETag is unchanged, in bytes; 0 turns it off.
     */
    static final Key READ_CACHE_BYTES = Key.of("medjava.http.read-cache-bytes", "67108864");

    /**
     * DICOMweb thumbnails kept once made (dicomweb.ThumbnailCache), by what was asked and the stored object's entity
     * tag, in bytes; 0 turns it off.
     */
    static final Key THUMBNAIL_CACHE_BYTES = Key.of("medjava.http.thumbnail-cache-bytes", "33554432");

    /**
     * Seconds a request's line and headers may take to arrive (front.HeaderClock); a connection whose headers have not
     * all arrived by then is closed, as nginx's {@code client_header_timeout}. 0 turns it off.
     */
    static final Key HEADER_TIMEOUT_SECONDS = Key.of("medjava.http.header-timeout-seconds", "20");

    /** @param accessByProject whether access by project is on: it turns the front's direct reads off */
    public static HttpSettings from(SettingsSource source, boolean accessByProject) {
        Optional<Integer> port = SettingsSource.port(PORT, source.optionalInteger(PORT));
        int backend = source.integer(BACKEND_PORT);
        if (port.isPresent() && (backend <= 0 || backend > 65535)) {
            throw new SettingException(BACKEND_PORT, backend, "write Payara's HTTP port (its --port), which"
                    + " medjava.http.port needs");
        }
        Optional<String> bind = source.text(BIND).filter(s -> !s.isBlank());
        Optional<String> ownHttpsBind = source.text(HTTPS_BIND).map(String::trim).filter(s -> !s.isEmpty());
        return new HttpSettings(port, bind, SettingsSource.port(HTTPS_PORT, source.optionalInteger(HTTPS_PORT)),
                ownHttpsBind.isPresent() ? ownHttpsBind.filter(s -> !s.equals("*")) : bind,
                source.bool(DIRECT_READS) && !accessByProject, backend,
                SettingsSource.atLeast(MAX_RELAYED, source.integer(MAX_RELAYED), 1),
                SettingsSource.atLeast(MAX_WAITING, source.integer(MAX_WAITING), 1),
                SettingsSource.atLeast(READ_CACHE_BYTES, source.whole(READ_CACHE_BYTES), 0),
                SettingsSource.atLeast(THUMBNAIL_CACHE_BYTES, source.whole(THUMBNAIL_CACHE_BYTES), 0),
                SettingsSource.atLeast(HEADER_TIMEOUT_SECONDS, source.integer(HEADER_TIMEOUT_SECONDS), 0));
    }
}
