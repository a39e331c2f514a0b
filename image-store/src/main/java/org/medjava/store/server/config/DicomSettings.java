package org.medjava.store.server.config;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.medjava.store.core.ingest.DuplicatePolicy;
import org.medjava.store.core.ingest.StoredSyntax;
import org.medjava.store.net.dimse.DicomTls;

/**
 * The DICOM network: the DIMSE service's port, address and AE title, who may associate, DICOM TLS, where C-MOVE may
 * send, the remote PACS, and what a duplicate does. The peer lists stay text here: startup.DicomNetwork parses them
 * with the TLS settings they need, and names the key of a bad entry.
 *
 * @param port    the DIMSE port; empty: the store does not listen for DICOM
 * @param tlsPort the DICOM TLS port; empty: no DICOM TLS listener
 */
public record DicomSettings(Optional<Integer> port, String bind, String aeTitle, String allowedAeTitles,
                            Optional<Integer> tlsPort, DicomTls.ClientAuth tlsClientAuth,
                            Optional<Path> tlsTruststore, String tlsTruststorePassword, String moveDestinations,
                            String aeProjects, String remotes, DuplicatePolicy duplicatePolicy,
                            StoredSyntax storedSyntax) {

    /** The DICOM (DIMSE) port; unset or 0: no DIMSE service. A port in use stops the start with a message saying so. */
    static final Key PORT = Key.of("medjava.dicom.port");

    /**
     * The address the DICOM port listens on. {@code ./medjava start} sets it to {@code MEDJAVA_HTTP_BIND} when that is
     * set and {@code MEDJAVA_DICOM_BIND} is not.
     */
    static final Key BIND = Key.of("medjava.dicom.bind", "0.0.0.0");

    /** The store's AE title (the called AE title it answers to). */
    static final Key AE_TITLE = Key.of("medjava.dicom.aet", "MEDJAVA");

    /**
     * The calling AE titles allowed to associate, {@code AE[=host], ...} (e.g. {@code MODALITY1=10.0.0.5, ORTHANC};
     * with a host, only from that host); unset or empty: nobody may associate.
     */
    static final Key ALLOWED_AETS = Key.of("medjava.dicom.allowed-aets");

    /**
     * The DICOM TLS port (2762 is DICOM's well-known one): a second listener with the same AE title, services and
     * allowed peers, over TLS 1.2/1.3 with the front's certificate ({@code medjava.tls.keystore}); unset or 0: none.
     * Needs {@code medjava.dicom.port}.
     */
    static final Key TLS_PORT = Key.of("medjava.dicom.tls-port");

    /**
     * Whether the DICOM TLS listener asks callers for a certificate: {@code none}, {@code want} (checked when
     * given) or {@code need} (no certificate, no association). {@code want} and {@code need} check them against
     * {@code medjava.dicom.tls.truststore}.
     */
    static final Key TLS_CLIENT_AUTH = Key.of("medjava.dicom.tls.client-auth", "none");

    /**
     * A trust store (PKCS#12 or JKS) of the CAs or certificates DICOM TLS trusts: callers' certificates on the TLS
     * listener, and, besides the JDK's CAs, the certificates of peers marked {@code tls}.
     */
    static final Key TLS_TRUSTSTORE = Key.of("medjava.dicom.tls.truststore");

    /** The password of {@code medjava.dicom.tls.truststore}. */
    static final Key TLS_TRUSTSTORE_PASSWORD = Key.of("medjava.dicom.tls.truststore-password");

    /**
     * Where C-MOVE may send: {@code AE=host:port, ...}; after the port, {@code tls}: over DICOM TLS;
     * {@code deidentify}: what is moved there is de-identified on the way (PS3.15 Basic Profile, UIDs and patient
     * pseudonyms the same on every move, derived from {@code deid.key} in the data directory; an instance that cannot
     * be de-identified is not sent), {@code deidentify(option, ...)} with the de-identify job's options, e.g.
     * {@code RESEARCH=10.0.0.9:104 tls deidentify(clean-descriptors, retain-patient-characteristics)}.
     */
    static final Key MOVE_DESTINATIONS = Key.of("medjava.dicom.move-destinations");

    /**
     * Under access by project ({@code medjava.access.by-project}), the projects of each calling AE title:
     * {@code AE=project|project, ...}. C-FIND finds, and C-MOVE and C-GET retrieve, only the studies labelled like
     * the calling AE's projects; an AE title not listed finds nothing.
     */
    static final Key AE_PROJECTS = Key.of("medjava.dicom.ae-projects");

    /**
     * The remote PACS the store's DICOM client sends to, queries and retrieves from ({@code /pacs/remotes/...}):
     * {@code AE=host:port, ...}; {@code AE=host:port tls}: over DICOM TLS.
     */
    static final Key REMOTES = Key.of("medjava.dicom.remotes");

    /**
     * What an object whose SOP Instance UID is stored already does (C-STORE, STOW-RS): {@code reject} it, or
     * {@code replace} the stored one.
     */
    static final Key DUPLICATE_POLICY = Key.of("medjava.dicom.duplicate-policy", "reject");

    /**
     * How objects received by C-STORE, STOW-RS and retrieves are stored: {@code received}, as sent; or
     * {@code htj2k-lossless}: an uncompressed object up to 32 MiB is written again as HTJ2K Lossless RPCL
     * (1.2.840.10008.1.2.4.202: compressed without loss, and served to HTJ2K viewers without transcoding), kept only
     * when decoding it gives back every sample; the uncompressed original is then not kept. Compressed objects, larger
     * ones and those the encoder does not take are stored as sent; {@code PUT /images/...} always stores its bytes.
     */
    static final Key STORE_AS = Key.of("medjava.dicom.store-as", "received");

    public static DicomSettings from(SettingsSource source) {
        Optional<Integer> port = SettingsSource.port(PORT, source.optionalInteger(PORT)).filter(p -> p > 0);
        Optional<Integer> tlsPort = SettingsSource.port(TLS_PORT, source.optionalInteger(TLS_PORT)).filter(p -> p > 0);
        if (port.isEmpty() && tlsPort.isPresent()) {
            throw new SettingException("medjava.dicom.tls-port is set but medjava.dicom.port is not: the TLS listener"
                    + " serves beside the plain one, set both (or neither)", TLS_PORT);
        }
        return new DicomSettings(port, source.string(BIND).trim(), source.string(AE_TITLE).trim(),
                source.text(ALLOWED_AETS).orElse(""), tlsPort,
                source.parsed(TLS_CLIENT_AUTH, DicomTls.ClientAuth::parse, "write none, want or need"),
                DataSettings.path(source, TLS_TRUSTSTORE).map(p -> Path.of(p.toString().trim())),
                source.text(TLS_TRUSTSTORE_PASSWORD).orElse(""), source.text(MOVE_DESTINATIONS).orElse(""),
                source.text(AE_PROJECTS).orElse(""), source.text(REMOTES).orElse(""),
                source.parsed(DUPLICATE_POLICY, DuplicatePolicy::parse, "write reject or replace"),
                source.parsed(STORE_AS, StoredSyntax::parse, "write received or htj2k-lossless"));
    }

    /** The DICOM TLS trust store and its password; empty: none configured. */
    public Optional<Map.Entry<Path, char[]>> truststore() {
        return tlsTruststore.map(p -> Map.entry(p, tlsTruststorePassword.toCharArray()));
    }

    @Override
    public String toString() { // never the password
        return "DicomSettings[port=" + port + ", bind=" + bind + ", aeTitle=" + aeTitle + ", tlsPort=" + tlsPort
                + ", allowedAeTitles=" + allowedAeTitles + ", remotes=" + remotes + "]";
    }
}
