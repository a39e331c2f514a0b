package org.medjava.cli.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The certificate the first start makes, with the JDK's keytool (one run of it, about a second). */
class StoreCertificateTest {
    @TempDir
    Path data;

    @Test
    void theFirstStartMakesAPrivateSelfSignedCertificateForThisMachineAndLaterStartsKeepIt() throws Exception {
        Path keystore = data.resolve("tls/store.p12");
        StoreCertificate made = StoreCertificate.ensure(keystore);
        assertThat(made.created()).isTrue();
        assertThat(made.fingerprint()).matches("([0-9A-F]{2}:){31}[0-9A-F]{2}");

        assertThat(mode(data.resolve("tls"))).isEqualTo("rwx------");
        assertThat(mode(keystore)).isEqualTo("rw-------");
        assertThat(mode(StoreCertificate.passwordFile(keystore))).isEqualTo("rw-------");
        assertThat(data.resolve("tls")).isDirectoryNotContaining("glob:**.new");

        String password = Files.readString(StoreCertificate.passwordFile(keystore)).strip();
        assertThat(password).isEqualTo(made.password()).hasSize(48);
        KeyStore store = KeyStore.getInstance(keystore.toFile(), password.toCharArray());
        assertThat(store.getType()).isEqualToIgnoringCase("PKCS12");
        assertThat(store.getKey(StoreCertificate.ALIAS, password.toCharArray())).isNotNull();
        X509Certificate certificate = (X509Certificate) store.getCertificate(StoreCertificate.ALIAS);
        certificate.checkValidity();
        certificate.verify(certificate.getPublicKey()); // self-signed
        assertThat(certificate.getPublicKey().getAlgorithm()).isEqualTo("EC");
        Duration validity = Duration.between(certificate.getNotBefore().toInstant(),
                certificate.getNotAfter().toInstant());
        assertThat(validity.toDays()).isEqualTo(StoreCertificate.VALIDITY_DAYS);
        List<String> names = certificate.getSubjectAlternativeNames().stream().map(n -> String.valueOf(n.get(1))).toList();
        assertThat(names).contains("localhost", "127.0.0.1").containsAll(StoreCertificate.names());
        assertThat(certificate.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1", // serverAuth
                "1.3.6.1.5.5.7.3.2"); // clientAuth: the store as a DICOM TLS client

        StoreCertificate again = StoreCertificate.ensure(keystore);
        assertThat(again.created()).isFalse();
        assertThat(again.fingerprint()).isEqualTo(made.fingerprint());
        assertThat(again.password()).isEqualTo(password);
    }

    private static String mode(Path path) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }
}
