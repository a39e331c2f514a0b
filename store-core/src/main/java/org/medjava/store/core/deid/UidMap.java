package org.medjava.store.core.deid;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The UIDs of one de-identification job: each original UID maps to one new UID, {@code 2.25.} and the decimal value of
 * a UUID (PS3.5 B.2) made from HMAC-SHA256 of the original under the job's secret. Shared by the instances of a job
 * (thread-safe), so references between them stay consistent; the same secret maps the same way again (a re-run of a
 * job, or a later series of the same study), and without the secret the original cannot be found from the new UID.
 */
public final class UidMap {

    private final SecretKeySpec key;
    private final Map<String, String> mapped = new ConcurrentHashMap<>();

    /** @param secret the job's secret (kept by the caller; at least 16 bytes) */
    public UidMap(byte[] secret) {
        if (secret.length < 16) {
            throw new IllegalArgumentException("a UID map's secret needs at least 16 bytes, not " + secret.length);
        }
        this.key = new SecretKeySpec(secret.clone(), "HmacSHA256");
    }

    /** The new UID for an original one (trailing padding and spaces ignored). */
    public String map(String original) {
        return mapped.computeIfAbsent(original.strip().replace("\0", ""), this::derive);
    }

    /** How many UIDs were mapped so far. */
    public int size() {
        return mapped.size();
    }

    private String derive(String uid) {
        byte[] h;
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            h = mac.doFinal(uid.getBytes(StandardCharsets.US_ASCII));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
        }
        byte[] uuid = java.util.Arrays.copyOf(h, 16);
        uuid[6] = (byte) ((uuid[6] & 0x0F) | 0x80); // version 8: custom (RFC 9562)
        uuid[8] = (byte) ((uuid[8] & 0x3F) | 0x80); // the RFC variant
        return "2.25." + new BigInteger(1, uuid);
    }
}
