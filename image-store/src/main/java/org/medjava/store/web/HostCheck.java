package org.medjava.store.web;

import org.medjava.store.config.StoreConfig;

/**
 * Whether a request's {@code Host} may be answered: it names this server ({@link AllowedHosts}), or it does not
 * matter because links are built from {@code medjava.public-url} or a trusted proxy's headers, never from it. The
 * configuration is read once: it does not change while the store runs.
 */
final class HostCheck {
    private final boolean hostUnused;
    private final AllowedHosts allowed;

    HostCheck(StoreConfig config) {
        this.hostUnused = config.publicBaseUri().isPresent() || config.trustForwarded();
        this.allowed = AllowedHosts.of(config.allowedHosts());
    }

    /** No {@code Host} (HTTP/1.0) is accepted: links then come from the listener's own address. */
    boolean accepts(String host, String localAddress) {
        return host == null || hostUnused || allowed.accepts(host, localAddress);
    }
}
