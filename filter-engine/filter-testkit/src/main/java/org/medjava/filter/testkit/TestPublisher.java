package org.medjava.filter.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.CertPath;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipFile;
import jdk.security.jarsigner.JarSigner;

/**
 * A plugin publisher for tests: an EC key pair with a self-signed certificate, made by the JDK's {@code keytool}
 * (the JDK has no public API that issues certificates), and JAR signing with the JDK's {@link JarSigner} API, the
 * same signature {@code jarsigner} writes. Nothing here is a secret: every key is made afresh in a temporary file.
 */
public final class TestPublisher {
    private static final String PASSWORD = "test-only";
    private static TestPublisher standard;

    private final X509Certificate certificate;
    private final PrivateKey key;
    private final CertPath path;

    private TestPublisher(X509Certificate certificate, PrivateKey key, CertPath path) {
        this.certificate = certificate;
        this.key = key;
        this.path = path;
    }

    /**
     * The publisher {@link PluginJarBuilder} signs with unless told otherwise, one per JVM, valid for ten years:
     * hosts under test trust its certificate ({@link #certificatePem()}).
     */
    public static synchronized TestPublisher standard() {
        if (standard == null) {
            standard = create("CN=MedJava test publisher, O=MedJava tests");
        }
        return standard;
    }

    /** A new publisher whose certificate is valid from now for ten years. */
    public static TestPublisher create(String distinguishedName) {
        return create(distinguishedName, null, 3650);
    }

    /**
     * A new publisher whose certificate starts at {@code startDate} ({@code keytool -startdate} syntax, e.g.
     * {@code "-30d"} or {@code "+10d"}; null: now) and is valid for {@code validityDays}.
     */
    public static TestPublisher create(String distinguishedName, String startDate, int validityDays) {
        try {
            Path dir = Files.createTempDirectory("test-publisher-");
            Path store = dir.resolve("publisher.p12");
            try {
                List<String> command = new ArrayList<>(List.of(
                        Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                        "-genkeypair", "-keystore", store.toString(), "-storetype", "PKCS12",
                        "-storepass", PASSWORD, "-keypass", PASSWORD, "-alias", "publisher", "-keyalg", "EC",
                        "-groupname", "secp256r1", "-dname", distinguishedName, "-validity",
                        Integer.toString(validityDays)));
                if (startDate != null) {
                    command.addAll(List.of("-startdate", startDate));
                }
                Process keytool = new ProcessBuilder(command).redirectErrorStream(true).start();
                String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
                    throw new IllegalStateException("keytool failed: " + output);
                }
                KeyStore keys = KeyStore.getInstance("PKCS12");
                try (InputStream in = Files.newInputStream(store)) {
                    keys.load(in, PASSWORD.toCharArray());
                }
                X509Certificate certificate = (X509Certificate) keys.getCertificate("publisher");
                PrivateKey key = (PrivateKey) keys.getKey("publisher", PASSWORD.toCharArray());
                CertPath path = CertificateFactory.getInstance("X.509").generateCertPath(List.of(certificate));
                return new TestPublisher(certificate, key, path);
            } finally {
                Files.deleteIfExists(store);
                Files.deleteIfExists(dir);
            }
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot make a test publisher: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while making a test publisher", e);
        }
    }

    public X509Certificate certificate() {
        return certificate;
    }

    /** The certificate in PEM, as an administrator would put it into a trust store directory. */
    public String certificatePem() {
        try {
            return "-----BEGIN CERTIFICATE-----\n"
                    + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                    .encodeToString(certificate.getEncoded())
                    + "\n-----END CERTIFICATE-----\n";
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes {@link #certificatePem()} to {@code file} (its directory created). */
    public Path writeCertificate(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        return Files.writeString(file, certificatePem());
    }

    /** Signs {@code jar} in place (every entry, as jarsigner does). */
    public Path sign(Path jar) throws IOException {
        Path temp = Files.createTempFile(jar.toAbsolutePath().getParent(), ".signing", ".jar");
        try {
            try (ZipFile in = new ZipFile(jar.toFile()); OutputStream out = Files.newOutputStream(temp)) {
                new JarSigner.Builder(key, path).signerName("SIGNER").build().sign(in, out);
            }
            Files.move(temp, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return jar;
        } finally {
            Files.deleteIfExists(temp);
        }
    }
}
