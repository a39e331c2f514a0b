package org.medjava.store.net.dimse;

import java.util.Map;
import java.util.Set;
import org.medjava.store.core.index.Visibility;

/**
 * The DICOM network settings of the store ({@code medjava.dicom.*}).
 *
 * @param port            the port the SCP listens on
 * @param bindAddress     the address it listens on ({@code 0.0.0.0}: all)
 * @param aeTitle         the store's AE title (the called AE title associations must ask for)
 * @param allowedPeers    who may associate
 * @param moveDestinations where C-MOVE may send, by AE title (de-identifying ones {@link MoveDestination#keyed})
 * @param maxPduLength    the largest PDU the store accepts (offered in the A-ASSOCIATE-AC)
 * @param maxAssociations associations served at once; more are refused ("local limit exceeded")
 * @param idleTimeoutMillis an association that sends nothing for this long is closed
 * @param aeProjects      under access by project, the projects of each calling AE title; null: access by project
 *                        is off and every peer sees every study
 * @param tlsPort         the port of the DICOM TLS listener (same AE title, services and peers)
 * @param tls             the TLS settings of that listener; null: there is none
 */
public record DimseSettings(int port, String bindAddress, String aeTitle, AllowedPeers allowedPeers,
                            Map<String, MoveDestination> moveDestinations, int maxPduLength, int maxAssociations,
                            int idleTimeoutMillis, Map<String, Set<String>> aeProjects, int tlsPort,
                            DicomTls tls) {

    public static final int DEFAULT_MAX_PDU = 65536;
    public static final int DEFAULT_MAX_ASSOCIATIONS = 32;
    public static final int DEFAULT_IDLE_TIMEOUT_MILLIS = 60_000;

    public DimseSettings {
        aeTitle = AeTitles.check(aeTitle);
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("DICOM port " + port + " is not 0 to 65535");
        }
        if (tlsPort < 0 || tlsPort > 65535) {
            throw new IllegalArgumentException("DICOM TLS port " + tlsPort + " is not 0 to 65535");
        }
        if (tlsPort > 0 && tls == null) {
            throw new IllegalArgumentException("a DICOM TLS port needs its TLS settings");
        }
        moveDestinations = Map.copyOf(moveDestinations);
        aeProjects = aeProjects == null ? null : Map.copyOf(aeProjects);
    }

    /** Without a TLS listener. */
    public DimseSettings(int port, String bindAddress, String aeTitle, AllowedPeers allowedPeers,
                         Map<String, MoveDestination> moveDestinations, int maxPduLength, int maxAssociations,
                         int idleTimeoutMillis, Map<String, Set<String>> aeProjects) {
        this(port, bindAddress, aeTitle, allowedPeers, moveDestinations, maxPduLength, maxAssociations,
                idleTimeoutMillis, aeProjects, 0, null);
    }

    /** Without access by project. */
    public DimseSettings(int port, String bindAddress, String aeTitle, AllowedPeers allowedPeers,
                         Map<String, MoveDestination> moveDestinations, int maxPduLength, int maxAssociations,
                         int idleTimeoutMillis) {
        this(port, bindAddress, aeTitle, allowedPeers, moveDestinations, maxPduLength, maxAssociations,
                idleTimeoutMillis, null);
    }

    /** These settings with a DICOM TLS listener on {@code tlsPort}. */
    public DimseSettings withTls(int tlsPort, DicomTls tls) {
        return new DimseSettings(port, bindAddress, aeTitle, allowedPeers, moveDestinations, maxPduLength,
                maxAssociations, idleTimeoutMillis, aeProjects, tlsPort, tls);
    }

    /** These settings with each de-identifying move destination's secret derived from the store's {@code key}. */
    public DimseSettings withMoveKey(byte[] key) {
        Map<String, MoveDestination> keyed = new java.util.LinkedHashMap<>();
        moveDestinations.forEach((ae, d) -> keyed.put(ae, d.keyed(key)));
        return new DimseSettings(port, bindAddress, aeTitle, allowedPeers, keyed, maxPduLength, maxAssociations,
                idleTimeoutMillis, aeProjects, tlsPort, tls);
    }

    /** The studies a calling AE may find and retrieve: its projects' under access by project (none unmapped). */
    public Visibility visibility(String callingAe) {
        return aeProjects == null ? Visibility.everything()
                : Visibility.labels(aeProjects.getOrDefault(callingAe, Set.of()));
    }

    /**
     * Parses {@code medjava.dicom.ae-projects}: {@code AE=project|project} pairs, comma-separated
     * ({@code CARDIO_WS=cardiology, RESEARCH=research|trials}).
     */
    public static Map<String, Set<String>> parseAeProjects(String text) {
        Map<String, Set<String>> map = new java.util.TreeMap<>();
        if (text == null || text.isBlank()) {
            return map;
        }
        for (String pair : text.split(",")) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("\"" + pair.trim() + "\" is not AE=project|project");
            }
            Set<String> projects = new java.util.TreeSet<>();
            for (String project : pair.substring(eq + 1).split("\\|")) {
                projects.add(org.medjava.store.core.index.Labels.check(project.trim()));
            }
            map.put(AeTitles.check(pair.substring(0, eq).trim()), projects);
        }
        return map;
    }
}
