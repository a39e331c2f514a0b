package org.medjava.store.server.startup;

import java.io.IOException;
import java.nio.file.Path;
import org.medjava.store.server.config.StoreConfig;
import org.medjava.store.core.audit.ReadAudit;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.net.dimse.AllowedPeers;
import org.medjava.store.net.dimse.DimseServer;
import org.medjava.store.net.dimse.DimseSettings;
import org.medjava.store.net.dimse.RemoteAe;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.ingest.Ingest;
import org.medjava.store.core.query.ArchiveSearch;
import org.medjava.store.net.scu.RemotePacs;

/** Starts the DICOM network service when {@code medjava.dicom.port} is set, from the {@code medjava.dicom.*} keys. */
final class DicomNetwork {

    private DicomNetwork() {
    }

    /** @return the running service, or null when no port is configured */
    static DimseServer start(StoreConfig config, Ingest ingest, ArchiveSearch search, DicomIndex index,
            ImageRepository images, ReadAudit reads) throws IOException {
        if (config.dicomPort().isEmpty()) {
            return null;
        }
        return DimseServer.start(settings(config), ingest, search, index, images, reads);
    }

    /** One line for the start banner. */
    static String describe(DimseServer dimse, RemotePacs remotes) {
        String scp = dimse == null ? "off (set medjava.dicom.port)" : dimse.settings().aeTitle() + " on "
                + dimse.settings().bindAddress() + ":" + dimse.port() + ", calling AE titles "
                + (dimse.settings().allowedPeers().isEmpty()
                ? "none yet (medjava.dicom.allowed-aets)" : dimse.settings().allowedPeers().peers().keySet());
        return scp + (remotes.remotes().isEmpty() ? "" : "; remote PACS " + remotes.remotes());
    }

    static RemotePacs remotePacs(StoreConfig config, Ingest ingest, ArchiveSearch search, ImageRepository images,
            Path workDir) {
        try {
            return new RemotePacs(RemoteAe.parseList(config.dicomRemotes(), "medjava.dicom.remotes"),
                    config.dicomAeTitle(), ingest, search, images, workDir);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("DICOM settings (medjava.dicom.remotes): " + e.getMessage(), e);
        }
    }

    static DimseSettings settings(StoreConfig config) {
        try {
            return new DimseSettings(config.dicomPort().orElse(0), config.dicomBind(), config.dicomAeTitle(),
                    AllowedPeers.parse(config.dicomAllowedAeTitles()),
                    RemoteAe.parseList(config.dicomMoveDestinations(), "medjava.dicom.move-destinations"),
                    DimseSettings.DEFAULT_MAX_PDU, DimseSettings.DEFAULT_MAX_ASSOCIATIONS,
                    DimseSettings.DEFAULT_IDLE_TIMEOUT_MILLIS,
                    config.accessByProject() ? DimseSettings.parseAeProjects(config.dicomAeProjects()) : null);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("DICOM settings (medjava.dicom.*): " + e.getMessage(), e);
        }
    }
}
