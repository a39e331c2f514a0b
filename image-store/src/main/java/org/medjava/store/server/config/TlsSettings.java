package org.medjava.store.server.config;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** The store's one certificate and key, for the front's HTTPS and DICOM TLS. */
public record TlsSettings(Optional<Path> keystore, String keystorePassword) {

    /**
     * The store's certificate and key, for the front's HTTPS and DICOM TLS: a PKCS#12 or JKS key store.
     * {@code ./medjava start} gives the one it made on the first start ({@code <data>/tls/store.p12}) unless one is
     * set. Unset: Payara Micro's built-in self-signed one (the JVM's {@code javax.net.ssl.keyStore}).
     */
    static final Key KEYSTORE = Key.of("medjava.tls.keystore");

    /** The password of {@code medjava.tls.keystore}. */
    static final Key KEYSTORE_PASSWORD = Key.of("medjava.tls.keystore-password");

    public static TlsSettings from(SettingsSource source) {
        return new TlsSettings(DataSettings.path(source, KEYSTORE), source.text(KEYSTORE_PASSWORD).orElse(""));
    }

    /**
     * The key store of the store's certificate and its password: {@code medjava.tls.keystore}, else the one the JVM
     * was given ({@code javax.net.ssl.keyStore}: Payara Micro's, with its self-signed certificate). Asked when HTTPS
     * starts, since the JVM's is set by Payara Micro's own start.
     */
    public Map.Entry<Path, char[]> keystoreOrJvms() {
        return keystoreIfAny().orElseThrow(() -> new SettingException("medjava.https.port is set but no key store is:"
                + " set medjava.tls.keystore (PKCS#12) and medjava.tls.keystore-password", KEYSTORE));
    }

    /** The key store of the store's certificate, when one is configured or given to the JVM. */
    public Optional<Map.Entry<Path, char[]>> keystoreIfAny() {
        if (keystore.isPresent()) {
            return Optional.of(Map.entry(keystore.get(), keystorePassword.toCharArray()));
        }
        return Optional.ofNullable(System.getProperty("javax.net.ssl.keyStore")).map(p -> Map.entry(Path.of(p),
                System.getProperty("javax.net.ssl.keyStorePassword", "").toCharArray()));
    }

    @Override
    public String toString() { // never the password
        return "TlsSettings[keystore=" + keystore.map(Path::toString).orElse("(the JVM's)") + "]";
    }
}
