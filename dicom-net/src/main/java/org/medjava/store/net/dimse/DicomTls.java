package org.medjava.store.net.dimse;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * DICOM TLS (PS3.15 B.10, the Non-downgrading BCP 195 TLS Secure Transport Connection Profile, DCMTK's default
 * {@code +py}): TLS 1.2 and 1.3 only, AEAD cipher suites with forward secrecy only. The store's certificate is the
 * front's ({@code medjava.tls.keystore}); the listener asks callers for a certificate as {@link ClientAuth} says and
 * trusts only the configured trust store for them; outbound associations trust the JDK's CAs plus that trust store
 * and check the peer's certificate names the host they dial. PixelMed's own TLS option is the retired TLS 1.0 AES
 * profile, which the JDK refuses, so neither side uses it.
 */
public final class DicomTls {

    /** Whether the listener asks callers for a certificate ({@code medjava.dicom.tls.client-auth}). */
    public enum ClientAuth {
        NONE, WANT, NEED;

        public static ClientAuth parse(String text) {
            try {
                return valueOf(text.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("medjava.dicom.tls.client-auth is none, want or need, not \""
                        + text.trim() + "\"");
            }
        }
    }

    static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};
    /** TLS 1.3's suites, then PS3.15 B.10's four for TLS 1.2 (the BCP 195 ones without DHE). */
    static final List<String> CIPHER_SUITES = List.of("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384",
            "TLS_CHACHA20_POLY1305_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384");

    private final SSLContext context;
    private final ClientAuth clientAuth;
    private final boolean server;

    private DicomTls(SSLContext context, ClientAuth clientAuth, boolean server) {
        this.context = context;
        this.clientAuth = clientAuth;
        this.server = server;
    }

    /**
     * The listener's side: the store's certificate from {@code keyStore}; with {@code clientAuth} other than none,
     * callers' certificates are checked against {@code trustStore} (required then).
     */
    public static DicomTls listener(Path keyStore, char[] password, Path trustStore, char[] trustPassword,
            ClientAuth clientAuth) {
        if (clientAuth != ClientAuth.NONE && trustStore == null) {
            throw new IllegalArgumentException("medjava.dicom.tls.client-auth=" + clientAuth.name().toLowerCase(
                    Locale.ROOT) + " needs medjava.dicom.tls.truststore (the CAs or certificates of the callers)");
        }
        try {
            KeyStore trusted = trustStore == null ? null : load(trustStore, trustPassword);
            return new DicomTls(context(keys(load(keyStore, password), password), trusted), clientAuth, true);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("DICOM TLS: " + e.getMessage(), e);
        }
    }

    /**
     * The initiator's side: the store's certificate from {@code keyStore} (null: none) for peers that ask for one;
     * the peer's certificate is checked against the JDK's CAs and {@code trustStore} (null: the JDK's only).
     */
    public static DicomTls initiator(Path keyStore, char[] password, Path trustStore, char[] trustPassword) {
        try {
            KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
            trusted.load(null, null);
            int n = 0;
            for (X509Certificate ca : defaultTrust().getAcceptedIssuers()) {
                trusted.setCertificateEntry("jdk-" + n++, ca);
            }
            if (trustStore != null) {
                KeyStore own = load(trustStore, trustPassword);
                for (String alias : java.util.Collections.list(own.aliases())) {
                    if (own.getCertificate(alias) != null) {
                        trusted.setCertificateEntry("own-" + alias, own.getCertificate(alias));
                    }
                }
            }
            KeyManager[] keys = keyStore == null ? null : keys(load(keyStore, password), password);
            return new DicomTls(context(keys, trusted), ClientAuth.NONE, false);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("DICOM TLS: " + e.getMessage(), e);
        }
    }

    /** An unbound listening socket with the profile and the client certificate policy applied. */
    ServerSocket serverSocket() throws IOException {
        if (!server) {
            throw new IllegalStateException("an initiator's TLS settings cannot listen");
        }
        SSLServerSocket socket = (SSLServerSocket) context.getServerSocketFactory().createServerSocket();
        SSLParameters p = parameters(socket.getSupportedCipherSuites());
        p.setNeedClientAuth(clientAuth == ClientAuth.NEED);
        if (clientAuth == ClientAuth.WANT) {
            p.setWantClientAuth(true);
        }
        socket.setSSLParameters(p);
        return socket;
    }

    /** A connected socket to {@code host:port} whose handshake is done and whose certificate names {@code host}. */
    SSLSocket connect(String host, int port, int timeoutMillis) throws IOException {
        SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket();
        try {
            SSLParameters p = parameters(socket.getSupportedCipherSuites());
            p.setEndpointIdentificationAlgorithm("HTTPS");
            socket.setSSLParameters(p);
            socket.connect(new InetSocketAddress(host, port), timeoutMillis);
            socket.setSoTimeout(timeoutMillis);
            socket.startHandshake();
            socket.setSoTimeout(0);
            return socket;
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    public ClientAuth clientAuth() {
        return clientAuth;
    }

    private static SSLParameters parameters(String[] supported) {
        List<String> suites = new ArrayList<>(CIPHER_SUITES);
        suites.retainAll(Arrays.asList(supported));
        SSLParameters p = new SSLParameters(suites.toArray(String[]::new), PROTOCOLS);
        p.setUseCipherSuitesOrder(true);
        return p;
    }

    private static SSLContext context(KeyManager[] keys, KeyStore trusted) throws GeneralSecurityException {
        TrustManagerFactory trust = null;
        if (trusted != null) {
            trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trusted);
        }
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys, trust == null ? null : trust.getTrustManagers(), null);
        return context;
    }

    private static KeyManager[] keys(KeyStore store, char[] password) throws GeneralSecurityException {
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, password);
        return keys.getKeyManagers();
    }

    private static X509TrustManager defaultTrust() throws GeneralSecurityException {
        TrustManagerFactory f = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        f.init((KeyStore) null);
        return Arrays.stream(f.getTrustManagers()).filter(X509TrustManager.class::isInstance)
                .map(X509TrustManager.class::cast).findFirst()
                .orElseThrow(() -> new GeneralSecurityException("the JDK has no X.509 trust manager"));
    }

    private static KeyStore load(Path file, char[] password) throws IOException, GeneralSecurityException {
        try {
            return KeyStore.getInstance(file.toFile(), password);
        } catch (IOException | GeneralSecurityException e) {
            throw new IOException("cannot read the key store " + file + " (" + e.getMessage()
                    + "): is it PKCS#12 or JKS, and is its password right?", e);
        }
    }
}
