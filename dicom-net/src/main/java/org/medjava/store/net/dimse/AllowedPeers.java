package org.medjava.store.net.dimse;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Who may open an association: calling AE titles, each optionally tied to a host (name or address), from the
 * setting {@code medjava.dicom.allowed-aets}, e.g. {@code MODALITY1=10.0.0.5, ORTHANC, VIEWER=ws12.example.org}.
 * Empty: nobody. The host is resolved at every check (a changed DNS entry takes effect without a restart).
 */
public final class AllowedPeers {

    private final Map<String, Optional<String>> peers;

    private AllowedPeers(Map<String, Optional<String>> peers) {
        this.peers = Collections.unmodifiableMap(peers);
    }

    public static AllowedPeers parse(String setting) {
        Map<String, Optional<String>> peers = new LinkedHashMap<>();
        for (String entry : Settings.entries(setting)) {
            int eq = entry.indexOf('=');
            String ae = AeTitles.check(eq < 0 ? entry : entry.substring(0, eq));
            String host = eq < 0 ? "" : entry.substring(eq + 1).trim();
            if (eq >= 0 && host.isEmpty()) {
                throw new IllegalArgumentException("allowed AE " + ae + ": empty host after '='");
            }
            peers.put(ae, host.isEmpty() ? Optional.empty() : Optional.of(host));
        }
        return new AllowedPeers(peers);
    }

    /** Why {@code callingAe} from {@code address} may not associate, or empty when it may. */
    public Optional<String> refusal(String callingAe, InetAddress address) {
        Optional<String> host = peers.get(callingAe);
        if (host == null) {
            return Optional.of("calling AE title " + callingAe + " is not among medjava.dicom.allowed-aets");
        }
        if (host.isPresent() && !matches(host.get(), address)) {
            return Optional.of("calling AE title " + callingAe + " is allowed only from " + host.get() + ", not from "
                    + address.getHostAddress());
        }
        return Optional.empty();
    }

    private static boolean matches(String host, InetAddress address) {
        try {
            for (InetAddress a : InetAddress.getAllByName(host)) {
                if (a.equals(address)) {
                    return true;
                }
            }
        } catch (UnknownHostException e) {
            return false;
        }
        return false;
    }

    public Map<String, Optional<String>> peers() {
        return peers;
    }

    public boolean isEmpty() {
        return peers.isEmpty();
    }
}
