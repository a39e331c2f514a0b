package org.medjava.store.server.http;

import java.util.ArrayList;
import java.util.List;
import org.medjava.store.server.config.LinkSettings;
import org.medjava.store.server.http.AllowedHosts;

/**
 * Whether a request's {@code Host} may be answered: it names this server ({@link AllowedHosts}: its own names,
 * {@code medjava.http.allowed-hosts} and the host of {@code medjava.public-url}), or a trusted proxy stands in front
 * and routes by name itself. A public URL alone is not enough to accept any Host: links no longer echo it then, but
 * a DNS-rebinding page could still talk to a store on the loopback, and {@code ./medjava start} always sets one. The
 * configuration is read once: it does not change while the store runs.
 */
public final class HostCheck {
    private final boolean behindProxy;
    private final AllowedHosts allowed;

    public HostCheck(LinkSettings config) {
        this.behindProxy = config.trustForwarded();
        List<String> names = new ArrayList<>(config.allowedHosts());
        config.publicBaseUri().ifPresent(uri -> names.add(uri.getHost()));
        this.allowed = AllowedHosts.of(names);
    }

    /** No {@code Host} (HTTP/1.0) is accepted: links then come from the listener's own address. */
    public boolean accepts(String host, String localAddress) {
        return host == null || behindProxy || allowed.accepts(host, localAddress);
    }
}
