package org.medjava.store.server.startup;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.medjava.store.server.config.DicomSettings;
import org.medjava.store.server.config.TlsSettings;
import org.medjava.store.core.audit.ReadAudit;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.net.dimse.AllowedPeers;
import org.medjava.store.net.dimse.DicomTls;
import org.medjava.store.net.dimse.DimseServer;
import org.medjava.store.net.dimse.DimseSettings;
import org.medjava.store.net.dimse.MoveDestination;
import org.medjava.store.net.dimse.RemoteAe;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.ingest.Ingest;
import org.medjava.store.core.query.ArchiveSearch;
import org.medjava.store.net.scu.RemotePacs;

/**
 * Starts the DICOM network service when {@code medjava.dicom.port} is set, from the {@code medjava.dicom.*} keys;
 * DICOM TLS uses the front's key store ({@code medjava.tls.keystore}), the store's one certificate; de-identifying
 * move destinations derive their secrets from the store's de-identification key.
 */
final class DicomNetwork {

    private DicomNetwork() {
    }

    /** The store's de-identification key, made when first asked for. */
    interface Key {
        byte[] get() throws IOException;
    }

    /**
     * @param deidKey asked for only when a move destination de-identifies
     * @return the running service, or null when no port is configured
     */
    static DimseServer start(DicomSettings config, TlsSettings tls, boolean accessByProject, Ingest ingest,
            ArchiveSearch search, DicomIndex index, ImageRepository images, ReadAudit reads, Key deidKey)
            throws IOException {
        if (config.port().isEmpty()) {
            return null; // DicomSettings refuses a TLS port without this one
        }
        DimseSettings settings = settings(config, tls, accessByProject);
        if (settings.moveDestinations().values().stream().anyMatch(MoveDestination::deidentifies)) {
            settings = settings.withMoveKey(deidKey.get());
        }
        return DimseServer.start(settings, ingest, search, index, images, reads);
    }

    /** One line for the start banner. */
    static String describe(DimseServer dimse, RemotePacs remotes) {
        String scp = dimse == null ? "off (set medjava.dicom.port)" : dimse.settings().aeTitle() + " on "
                + dimse.settings().bindAddress() + ":" + dimse.port()
                + dimse.tlsPort().map(p -> ", DICOM TLS on " + p + " (the HTTPS certificate)").orElse("") + ", calling AE titles "
                + (dimse.settings().allowedPeers().isEmpty()
                ? "none yet (medjava.dicom.allowed-aets)" : dimse.settings().allowedPeers().peers().keySet());
        return scp + (remotes.remotes().isEmpty() ? "" : "; remote PACS " + remotes.remotes());
    }

    static RemotePacs remotePacs(DicomSettings config, TlsSettings tls, Ingest ingest, ArchiveSearch search,
            ImageRepository images, Path workDir) {
        try {
            return new RemotePacs(RemoteAe.parseList(config.remotes(), "medjava.dicom.remotes",
                    () -> initiatorTls(config, tls)), config.aeTitle(), ingest, search, images, workDir);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("DICOM settings (medjava.dicom.remotes): " + e.getMessage(), e);
        }
    }

    /** The TLS listener's settings: the store's certificate, and the trust store for callers' certificates. */
    private static DicomTls listenerTls(DicomSettings config, TlsSettings tls) {
        Map.Entry<Path, char[]> keys = tls.keystoreIfAny().orElseThrow(() -> new IllegalArgumentException(
                "medjava.dicom.tls-port is set but no key store is: set medjava.tls.keystore (PKCS#12) and"
                        + " medjava.tls.keystore-password, the certificate HTTPS uses too"));
        Optional<Map.Entry<Path, char[]>> trust = config.truststore();
        return DicomTls.listener(keys.getKey(), keys.getValue(), trust.map(Map.Entry::getKey).orElse(null),
                trust.map(Map.Entry::getValue).orElse(null), config.tlsClientAuth());
    }

    /** For peers marked {@code tls}: the store's certificate when there is one, the JDK's CAs and the trust store. */
    private static DicomTls initiatorTls(DicomSettings config, TlsSettings tls) {
        Optional<Map.Entry<Path, char[]>> keys = tls.keystoreIfAny();
        Optional<Map.Entry<Path, char[]>> trust = config.truststore();
        return DicomTls.initiator(keys.map(Map.Entry::getKey).orElse(null), keys.map(Map.Entry::getValue)
                .orElse(null), trust.map(Map.Entry::getKey).orElse(null), trust.map(Map.Entry::getValue)
                .orElse(null));
    }

    static DimseSettings settings(DicomSettings config, TlsSettings tls, boolean accessByProject) {
        try {
            return new DimseSettings(config.port().orElse(0), config.bind(), config.aeTitle(),
                    AllowedPeers.parse(config.allowedAeTitles()),
                    MoveDestination.parseList(config.moveDestinations(), "medjava.dicom.move-destinations",
                            () -> initiatorTls(config, tls)),
                    DimseSettings.DEFAULT_MAX_PDU, DimseSettings.DEFAULT_MAX_ASSOCIATIONS,
                    DimseSettings.DEFAULT_IDLE_TIMEOUT_MILLIS,
                    accessByProject ? DimseSettings.parseAeProjects(config.aeProjects()) : null)
                    .withTls(config.tlsPort().orElse(0), config.tlsPort().isEmpty() ? null
                            : listenerTls(config, tls));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("DICOM settings (medjava.dicom.*): " + e.getMessage(), e);
        }
    }
}
