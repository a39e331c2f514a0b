package org.medjava.store.net.route;

import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.medjava.store.core.ingest.Part10File;
import org.medjava.store.core.route.RouteRule;
import org.medjava.store.core.route.RouteSender;
import org.medjava.store.net.dicomweb.StowClient;
import org.medjava.store.net.dimse.RemoteAe;
import org.medjava.store.net.dimse.StorageSender;

/**
 * Routing over the network: C-STORE to a remote AE of {@code medjava.dicom.remotes} (on the store's
 * {@link StorageSender}: as stored, or converted when the peer takes another syntax), or STOW-RS to a URL
 * ({@link StowClient}). A C-STORE refused as a duplicate (status 0111H) counts as sent.
 */
public final class NetworkRouteSender implements RouteSender {
    private static final int DUPLICATE = 0x0111;

    private final Map<String, RemoteAe> remotes;
    private final String callingAe;
    private final StowClient stow = new StowClient();

    public NetworkRouteSender(Map<String, RemoteAe> remotes, String callingAe) {
        this.remotes = Map.copyOf(remotes);
        this.callingAe = callingAe;
    }

    @Override
    public String problem(RouteRule.Destination d) {
        if (RouteRule.DIMSE.equals(d.kind()) && !remotes.containsKey(d.ae())) {
            return "destination.ae: no remote PACS " + d.ae() + " (configured: " + remotes.keySet()
                    + ", medjava.dicom.remotes)";
        }
        return null;
    }

    @Override
    public String address(RouteRule.Destination d) {
        if (RouteRule.DIMSE.equals(d.kind())) {
            RemoteAe r = remotes.get(d.ae());
            return r == null ? null : r.host();
        }
        return URI.create(d.url()).getHost();
    }

    @Override
    public Map<String, Outcome> send(RouteRule.Destination d, List<Part10File> files) {
        if (RouteRule.STOW.equals(d.kind())) {
            return stow.store(URI.create(d.url()), d.auth(), files);
        }
        Map<String, Outcome> out = new HashMap<>();
        RemoteAe remote = remotes.get(d.ae());
        if (remote == null) { // the setting changed since the rule was made
            files.forEach(f -> out.put(f.sopInstanceUid(), Outcome.failed(problem(d))));
            return out;
        }
        StorageSender.send(remote, callingAe, files, null, 0, (f, status, error, counts) -> out.put(
                f.sopInstanceUid(), status == 0 || (status & 0xF000) == 0xB000 ? Outcome.ok()
                        : status == DUPLICATE ? Outcome.held("C-STORE status 0111H")
                        : Outcome.failed((status < 0 ? "" : String.format("C-STORE status %04XH: ", status))
                                + (error == null || error.isEmpty() ? "failed" : error))));
        return out;
    }
}
