package org.medjava.store.net.dimse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.pixelmed.dicom.SOPClass;
import com.pixelmed.dicom.TransferSyntax;
import com.pixelmed.network.Association;
import com.pixelmed.network.PresentationContext;
import com.pixelmed.network.VerificationSOPClassSCU;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.core.audit.ReadAudit;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.core.ingest.DuplicatePolicy;
import org.medjava.store.core.ingest.Ingest;
import org.medjava.store.core.query.ArchiveSearch;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.repo.UploadValidator;
import org.medjava.store.core.storage.LocalFileStorage;

/**
 * DICOM TLS between the store's listener and its own initiator (the TLS tunnel PixelMed's associations go through):
 * echo over TLS, a plain client on the TLS port turned away without harm to the listener, client certificates.
 */
class DicomTlsTest {

    private static final String STORE = "DIMSE-TLS";
    private static final String MODALITY = "MODALITY";
    private static final char[] PASSWORD = "changeit".toCharArray();

    @TempDir
    static Path keys;
    /** The store's key store, its certificate alone (a trust store), and a client's key store. */
    static Path storeKeys;
    static Path storeCert;
    static Path clientKeys;
    static Path clientCert;

    @TempDir
    Path dir;
    private DicomIndex index;
    private DimseServer server;

    @BeforeAll
    static void makeKeys() throws Exception {
        storeKeys = keyPair("store", "CN=localhost", "SAN=dns:localhost,ip:127.0.0.1");
        storeCert = trustStoreOf(storeKeys, "store");
        clientKeys = keyPair("client", "CN=MODALITY", "SAN=dns:modality.example.org");
        clientCert = trustStoreOf(clientKeys, "client");
    }

    private void start(DicomTls.ClientAuth clientAuth) throws Exception {
        index = new DicomIndex(IndexDatabase.h2(dir.resolve("index")));
        ImageRepository images = new ImageRepository(new LocalFileStorage(dir.resolve("images")), 1 << 24);
        Ingest ingest = Ingest.builder(images, index, new UploadValidator(1 << 24), DuplicatePolicy.REJECT).build();
        DicomTls tls = DicomTls.listener(storeKeys, PASSWORD, clientAuth == DicomTls.ClientAuth.NONE ? null
                : clientCert, PASSWORD, clientAuth);
        DimseSettings settings = new DimseSettings(0, "127.0.0.1", STORE, AllowedPeers.parse(MODALITY), Map.of(),
                DimseSettings.DEFAULT_MAX_PDU, 4, DimseSettings.DEFAULT_IDLE_TIMEOUT_MILLIS).withTls(0, tls);
        server = DimseServer.start(settings, ingest, new ArchiveSearch(index), index, images, ReadAudit.OFF);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
            index.close();
        }
    }

    @Test
    void echoOverTlsAndOverThePlainPortOfTheSameService() throws Exception {
        start(DicomTls.ClientAuth.NONE);
        RemoteAe overTls = new RemoteAe(STORE, "127.0.0.1", server.tlsPort().orElseThrow(),
                DicomTls.initiator(null, null, storeCert, PASSWORD));

        assertThatCode(() -> echo(overTls)).doesNotThrowAnyException();
        assertThatCode(() -> echo(new RemoteAe(STORE, "127.0.0.1", server.port()))).doesNotThrowAnyException();
        Association association = Initiators.open(overTls, MODALITY, verification(), null);
        association.release();
    }

    @Test
    void aPlainClientOnTheTlsPortIsTurnedAwayAndTheListenerGoesOn() throws Exception {
        start(DicomTls.ClientAuth.NONE);
        RemoteAe plainToTls = new RemoteAe(STORE, "127.0.0.1", server.tlsPort().orElseThrow());
        assertThatThrownBy(() -> echo(plainToTls)).isNotNull();
        try (Socket s = new Socket("127.0.0.1", server.tlsPort().orElseThrow())) { // not even DICOM
            s.getOutputStream().write("GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            s.setSoTimeout(10_000);
            byte[] reply = s.getInputStream().readAllBytes();
            assertThat(reply).as("a TLS alert, then the end").startsWith((byte) 21).hasSizeLessThan(16);
        }

        assertThatCode(() -> echo(new RemoteAe(STORE, "127.0.0.1", server.tlsPort().orElseThrow(),
                DicomTls.initiator(null, null, storeCert, PASSWORD)))).doesNotThrowAnyException();
    }

    @Test
    void aPeerWhoseCertificateIsNotTrustedIsRefusedWithTheReason() throws Exception {
        start(DicomTls.ClientAuth.NONE);
        RemoteAe untrusting = new RemoteAe(STORE, "127.0.0.1", server.tlsPort().orElseThrow(),
                DicomTls.initiator(null, null, clientCert, PASSWORD));

        assertThatThrownBy(() -> echo(untrusting)).isInstanceOf(IOException.class)
                .hasMessageContaining("DICOM TLS with " + STORE);
    }

    @Test
    void clientAuthNeedRefusesACallerWithoutACertificateAndTakesOneWithIt() throws Exception {
        start(DicomTls.ClientAuth.NEED);
        int port = server.tlsPort().orElseThrow();
        RemoteAe anonymous = new RemoteAe(STORE, "127.0.0.1", port, DicomTls.initiator(null, null, storeCert,
                PASSWORD));
        RemoteAe withCertificate = new RemoteAe(STORE, "127.0.0.1", port, DicomTls.initiator(clientKeys, PASSWORD,
                storeCert, PASSWORD));

        assertThatThrownBy(() -> echo(anonymous)).isNotNull();
        assertThatCode(() -> echo(withCertificate)).doesNotThrowAnyException();
    }

    @Test
    void clientAuthWithoutATrustStoreIsRefusedAtTheStart() {
        assertThatThrownBy(() -> DicomTls.listener(storeKeys, PASSWORD, null, null, DicomTls.ClientAuth.NEED))
                .hasMessageContaining("medjava.dicom.tls.truststore");
        assertThatThrownBy(() -> DicomTls.ClientAuth.parse("sometimes")).hasMessageContaining("none, want or need");
    }

    @Test
    void onlyTls12And13WithForwardSecretAeadSuites() {
        assertThat(DicomTls.PROTOCOLS).containsExactly("TLSv1.3", "TLSv1.2");
        assertThat(DicomTls.CIPHER_SUITES).allMatch(s -> s.endsWith("GCM_SHA256") || s.endsWith("GCM_SHA384")
                || s.endsWith("POLY1305_SHA256")).allMatch(s -> s.startsWith("TLS_ECDHE_") || !s.contains("_WITH_"));
    }

    private static void echo(RemoteAe to) throws Exception {
        Initiators.Endpoint at = Initiators.endpoint(to);
        new VerificationSOPClassSCU(at.host(), at.port(), to.aeTitle(), MODALITY, false, 0);
    }

    private static LinkedList<PresentationContext> verification() {
        return new LinkedList<>(List.of(new PresentationContext((byte) 1, SOPClass.Verification,
                TransferSyntax.ImplicitVRLittleEndian)));
    }

    /** A PKCS#12 key store with an EC P-256 key pair and its self-signed certificate, made by the JDK's keytool. */
    private static Path keyPair(String name, String dn, String san) throws Exception {
        Path file = keys.resolve(name + ".p12");
        keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-sigalg",
                "SHA256withECDSA", "-dname", dn, "-ext", san, "-validity", "2", "-keystore", file.toString(),
                "-storetype", "PKCS12", "-storepass", "changeit");
        return file;
    }

    /** A trust store holding the certificate of {@code keyStore}'s key pair. */
    private static Path trustStoreOf(Path keyStore, String alias) throws Exception {
        Path cert = keys.resolve(alias + ".crt");
        keytool("-exportcert", "-alias", alias, "-keystore", keyStore.toString(), "-storepass", "changeit", "-file",
                cert.toString());
        Path trust = keys.resolve(alias + "-trust.p12");
        keytool("-importcert", "-noprompt", "-alias", alias, "-file", cert.toString(), "-keystore", trust.toString(),
                "-storetype", "PKCS12", "-storepass", "changeit");
        return trust;
    }

    private static void keytool(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin",
                "keytool").toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IllegalStateException("keytool " + args[0] + " failed: " + output);
        }
    }
}
