package org.medjava.store.net.dimse;

import java.util.Map;

/**
 * The DICOM network settings of the store ({@code medjava.dicom.*}).
 *
 * @param port            the port the SCP listens on
 * @param bindAddress     the address it listens on ({@code 0.0.0.0}: all)
 * @param aeTitle         the store's AE title (the called AE title associations must ask for)
 * @param allowedPeers    who may associate
 * @param moveDestinations where C-MOVE may send, by AE title
 * @param maxPduLength    the largest PDU the store accepts (offered in the A-ASSOCIATE-AC)
 * @param maxAssociations associations served at once; more are refused ("local limit exceeded")
 * @param idleTimeoutMillis an association that sends nothing for this long is closed
 */
public record DimseSettings(int port, String bindAddress, String aeTitle, AllowedPeers allowedPeers,
                            Map<String, RemoteAe> moveDestinations, int maxPduLength, int maxAssociations,
                            int idleTimeoutMillis) {

    public static final int DEFAULT_MAX_PDU = 65536;
    public static final int DEFAULT_MAX_ASSOCIATIONS = 32;
    public static final int DEFAULT_IDLE_TIMEOUT_MILLIS = 60_000;

    public DimseSettings {
        aeTitle = AeTitles.check(aeTitle);
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("DICOM port " + port + " is not 0 to 65535");
        }
        moveDestinations = Map.copyOf(moveDestinations);
    }
}
