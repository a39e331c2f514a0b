package org.medjava.store.server.http;

import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.function.BiConsumer;

/**
 * What the store's front ({@code front.FrontServer}) knows of a client's connection and passes on to Payara's listener
 * behind it, where every relayed request comes from the loopback: the client's address, the address it reached, and
 * whether it came over TLS. The front removes any such header a client sent and signs its own with a secret made
 * when the application starts; a request without the secret (one that reached Payara's listener directly, or with
 * no front running) is described by its own connection, as before. In {@code http}, below all that read it: the
 * filters, the authentication mechanism, the resources.
 */
public final class FrontHeaders {
    /** The secret: this application's front relayed the request. */
    private static final String KEY = "X-MedJava-Front";
    /** The client's address as the front's connection saw it. */
    private static final String PEER = "X-MedJava-Peer";
    /** The front's address the client connected to (the Host check accepts it). */
    private static final String LOCAL = "X-MedJava-Local";
    /** "1" when the client's connection was TLS. */
    private static final String SECURE = "X-MedJava-Secure";
    /** The common start of the names above, which a client's request loses at the front. */
    public static final String PREFIX = "x-medjava-";

    private static final byte[] SECRET_BYTES;
    private static final String SECRET;

    static {
        byte[] random = new byte[24];
        new SecureRandom().nextBytes(random);
        SECRET = HexFormat.of().formatHex(random);
        SECRET_BYTES = SECRET.getBytes(StandardCharsets.US_ASCII);
    }

    private FrontHeaders() {
    }

    /** Signs a request the front relays with what it knows of the client's connection ({@code header}: a setter). */
    public static void sign(BiConsumer<String, String> header, String peer, String local, boolean secure) {
        header.accept(KEY, SECRET);
        header.accept(PEER, peer);
        header.accept(LOCAL, local);
        if (secure) {
            header.accept(SECURE, "1");
        }
    }

    /** The client's address: the connection's peer, or the front's word for it. */
    public static String peer(HttpServletRequest request) {
        String peer = relayed(request::getHeader) ? request.getHeader(PEER) : null;
        return peer != null ? peer : request.getRemoteAddr();
    }

    /** The address the client connected to. */
    public static String local(HttpServletRequest request) {
        String local = relayed(request::getHeader) ? request.getHeader(LOCAL) : null;
        return local != null ? local : request.getLocalAddr();
    }

    /** Whether the client's connection is TLS. */
    public static boolean secure(HttpServletRequest request) {
        return relayed(request::getHeader) ? "1".equals(request.getHeader(SECURE)) : request.isSecure();
    }

    /** Whether the front relayed the request, whose headers these are, from a TLS connection. */
    static boolean relayedSecure(java.util.function.Function<String, String> header) {
        return relayed(header) && "1".equals(header.apply(SECURE));
    }

    private static boolean relayed(java.util.function.Function<String, String> header) {
        String key = header.apply(KEY);
        return key != null && MessageDigest.isEqual(key.getBytes(StandardCharsets.US_ASCII), SECRET_BYTES);
    }
}
