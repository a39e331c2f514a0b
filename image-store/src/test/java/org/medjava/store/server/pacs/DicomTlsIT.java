package org.medjava.store.server.pacs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.filter.testkit.DcmtkTools;
import org.medjava.store.testkit.Command;
import org.medjava.store.testkit.Ports;
import org.medjava.store.testkit.TestStudy;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * DICOM TLS on a real store against DCMTK (its default profile, {@code +py}: the non-downgrading BCP 195 one): the
 * TLS listener serves C-ECHO, C-STORE and C-FIND with the front's certificate and wants the callers' certificates
 * ({@code client-auth=need}); a plain client and one without a certificate are turned away while the listener goes
 * on; C-MOVE and C-ECHO from the store reach peers marked {@code tls} (a storescp over TLS).
 */
class DicomTlsIT {

    private static final String AE = "MEDJAVA";
    private static final String PASSWORD = "it-keystore-password";

    @TempDir
    static Path work;
    static PayaraStore store;
    static int tlsPort;
    static int plainPort;
    static int destinationPort;
    /** The store's certificate (PEM), which DCMTK trusts. */
    static Path storeCert;
    /** DCMTK's key pair (PEM), the one certificate the store trusts: its clients' and its storescp's. */
    static Path dcmtkKey;
    static Path dcmtkCert;

    @BeforeAll
    static void start() throws Exception {
        Path keys = Files.createDirectories(work.resolve("keys"));
        Path storeKeys = keys.resolve("store.p12");
        keytool("-genkeypair", "-alias", "store", "-keyalg", "EC", "-groupname", "secp256r1", "-sigalg",
                "SHA256withECDSA", "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity",
                "2", "-keystore", storeKeys.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD);
        storeCert = keys.resolve("store.pem");
        keytool("-exportcert", "-rfc", "-alias", "store", "-keystore", storeKeys.toString(), "-storepass", PASSWORD,
                "-file", storeCert.toString());
        dcmtkKey = keys.resolve("dcmtk.key");
        dcmtkCert = keys.resolve("dcmtk.pem");
        run(List.of("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", dcmtkKey.toString(), "-out", dcmtkCert.toString(), "-subj", "/CN=dcmtk", "-addext",
                "subjectAltName=IP:127.0.0.1", "-days", "2"));
        Path trust = keys.resolve("trust.p12");
        keytool("-importcert", "-noprompt", "-alias", "dcmtk", "-file", dcmtkCert.toString(), "-keystore",
                trust.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD);

        plainPort = Ports.free();
        tlsPort = Ports.free();
        destinationPort = Ports.free();
        store = PayaraStore.named("dicom-tls")
                .property("medjava.dicom.port", Integer.toString(plainPort))
                .property("medjava.dicom.tls-port", Integer.toString(tlsPort))
                .property("medjava.dicom.bind", "127.0.0.1")
                .property("medjava.dicom.aet", AE)
                .property("medjava.dicom.allowed-aets", "STORESCU, FINDSCU, MOVESCU, ECHOSCU")
                .property("medjava.tls.keystore", storeKeys.toString())
                .env("MEDJAVA_TLS_KEYSTORE_PASSWORD", PASSWORD)
                .property("medjava.dicom.tls.client-auth", "need")
                .property("medjava.dicom.tls.truststore", trust.toString())
                .env("MEDJAVA_DICOM_TLS_TRUSTSTORE_PASSWORD", PASSWORD)
                .property("medjava.dicom.move-destinations", "DEST_TLS=127.0.0.1:" + destinationPort + " tls")
                .property("medjava.dicom.remotes", "TLS_PACS=127.0.0.1:" + destinationPort + " tls")
                .start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (store != null) {
            store.close();
        }
    }

    /** DCMTK over TLS with its certificate, trusting the store's: {@code +tls key cert +cf storeCert}. */
    private static List<String> tls() {
        return List.of("+tls", dcmtkKey.toString(), dcmtkCert.toString(), "+cf", storeCert.toString());
    }

    private static Command.Result echo(List<String> options, int port) throws Exception {
        return Command.run(Command.of("echoscu", "-v", options, "-aet", "ECHOSCU", "-aec", AE, "127.0.0.1", port));
    }

    @Test
    void echoOverTlsWithDcmtksDefaultProfile() throws Exception {
        Command.Result r = echo(tls(), tlsPort).assertOk();
        assertThat(r.output()).contains("Received Echo Response (Success)");
        echo(List.of(), plainPort).assertOk(); // the plain port serves as before
    }

    @Test
    void storedOverTlsIsFoundOverTls() throws Exception {
        TestStudy study = TestStudy.create(work.resolve("stored"), "DICOM-TLS", "CT_small.dcm");
        Command.Result stored = Command.run(Command.of("storescu", "-v", "-nh", tls(), "-aet", "STORESCU", "-aec",
                AE, "127.0.0.1", tlsPort, study.instances().get(0).file()));
        assertThat(stored.output()).contains("Received Store Response (Success)");

        Command.Result found = Command.run(Command.of("findscu", "-v", "-S", tls(), "-aet", "FINDSCU", "-aec", AE,
                "127.0.0.1", tlsPort, "-k", "QueryRetrieveLevel=STUDY", "-k", "StudyInstanceUID=" + study.studyUid(),
                "-k", "PatientID"));
        assertThat(found.output()).contains("DICOM-TLS").contains("Received Final Find Response (Success)");
    }

    @Test
    void aPlainClientOnTheTlsPortIsTurnedAwayAndTheListenerGoesOn() throws Exception {
        Command.Result plain = echo(List.of(), tlsPort);
        assertThat(plain.exitCode()).isNotZero();
        assertThat(plain.output()).doesNotContain("Received Echo Response");

        echo(tls(), tlsPort).assertOk();
        awaitLog("DICOM TLS handshake with 127.0.0.1 failed");
    }

    @Test
    void aClientWithoutACertificateIsRefusedUnderClientAuthNeed() throws Exception {
        Command.Result anonymous = echo(List.of("+tla", "+cf", storeCert.toString()), tlsPort);
        assertThat(anonymous.exitCode()).isNotZero();
        assertThat(anonymous.output()).doesNotContain("Received Echo Response");

        echo(tls(), tlsPort).assertOk();
    }

    @Test
    void moveAndEchoReachAPeerMarkedTls() throws Exception {
        TestStudy study = TestStudy.create(work.resolve("moved"), "DICOM-TLS-MOVE", "CT_small.dcm", "MR_small.dcm");
        for (TestStudy.Instance i : study.instances()) {
            Command.run(Command.of("storescu", "-v", "-nh", tls(), "-aet", "STORESCU", "-aec", AE, "127.0.0.1",
                    tlsPort, i.file())).assertOk();
        }
        Path received = Files.createDirectories(work.resolve("received"));
        // storescp over TLS with DCMTK's certificate, trusting (and so asking for) the store's
        List<String> command = new ArrayList<>(List.of(DcmtkTools.path("storescp"), "-v", "-aet", "DEST_TLS"));
        command.addAll(List.of("+tls", dcmtkKey.toString(), dcmtkCert.toString(), "+cf", storeCert.toString(),
                "+B", "-od", received.toString(), Integer.toString(destinationPort)));
        Path log = work.resolve("storescp.log");
        Process storescp = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
                .start();
        try {
            Ports.awaitListening(destinationPort, Duration.ofSeconds(20), storescp, "storescp");
            Command.Result moved = Command.run(Command.of("movescu", "-v", "-S", "-aet", "MOVESCU", "-aec", AE,
                    "-aem", "DEST_TLS", "127.0.0.1", plainPort, "-k", "QueryRetrieveLevel=STUDY", "-k",
                    "StudyInstanceUID=" + study.studyUid()));
            assertThat(moved.output()).as(Files.readString(log)).contains("Received Final Move Response (Success)");
            try (var files = Files.list(received)) {
                assertThat(files.count()).isEqualTo(2);
            }
            String echo = StoreClient.admin(store).postJson("/pacs/remotes/TLS_PACS/echo", "").body();
            assertThat(echo).as(Files.readString(log)).contains("\"ok\":true");
        } finally {
            storescp.destroy();
            storescp.waitFor();
        }
    }

    private static void awaitLog(String text) throws Exception {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!store.log().contains(text) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(store.log()).contains(text);
    }

    private static void keytool(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool")
                .toString()));
        command.addAll(List.of(args));
        run(command);
    }

    private static void run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
        }
    }
}
