package org.medjava.store.server.security;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Base64;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * {@link SessionToken}s as text: {@code base64url(payload) "." base64url(HMAC-SHA256(key, base64url(payload)))},
 * the payload being the version and the fields, one a line (version {@code s2} added the role and projects of a
 * single sign-on, {@code s3} the share link of a shared study's session; {@code s1} and {@code s2} tokens are still
 * read). The signature is checked before anything in the
 * payload is believed; the payload is readable by whoever holds the token, so it holds nothing secret (the account
 * fingerprint is itself an HMAC).
 */
public final class SessionCodec {

    private static final String VERSION = "s3";
    private static final String VERSION_2 = "s2";
    private static final String VERSION_1 = "s1";
    /** A local account's name is stricter (UserStore); an OpenID provider's may be an e-mail address or non-ASCII. */
    private static final Pattern NAME = Pattern.compile("[^\\p{Cntrl}]{1,128}");
    private static final Pattern PROJECT = Pattern.compile("[^\\p{Cntrl},]{1,128}");
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{8,64}");
    /** Tokens longer than this are not even decoded. */
    private static final int MAX_LENGTH = 3072;
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

    private final SecretKeySpec key;

    /** Why a token was not accepted, or the token. */
    public record Decoded(SessionToken token, String problem) {
        public boolean valid() {
            return token != null;
        }

        static Decoded refused(String problem) {
            return new Decoded(null, problem);
        }
    }

    public SessionCodec(byte[] key) {
        if (key.length < 32) {
            throw new IllegalArgumentException("a session key needs at least 32 bytes, this one has " + key.length);
        }
        this.key = new SecretKeySpec(key.clone(), "HmacSHA256");
    }

    public String encode(SessionToken t) {
        if (!NAME.matcher(t.user()).matches() || !ID.matcher(t.sessionId()).matches()
                || t.fingerprint().contains("\n") || !t.projects().stream().allMatch(p -> PROJECT.matcher(p).matches())
                || (t.share() != null && !ID.matcher(t.share()).matches())) {
            throw new IllegalArgumentException("not a session to sign: " + t);
        }
        String payload = String.join("\n", VERSION, t.user(), t.sessionId(),
                Long.toString(t.created().getEpochSecond()), Long.toString(t.issued().getEpochSecond()),
                Long.toString(t.expires().getEpochSecond()), t.fingerprint(), t.role() == null ? "" : t.role().id(),
                String.join(",", new java.util.TreeSet<>(t.projects())), t.share() == null ? "" : t.share());
        String body = B64.encodeToString(payload.getBytes(StandardCharsets.UTF_8));
        String text = body + "." + B64.encodeToString(mac(body));
        if (text.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("a session of " + t.projects().size() + " projects is too long for a "
                    + "cookie");
        }
        return text;
    }

    /** The token when its signature is right and it has not expired at {@code now}; else why not. */
    public Decoded decode(String text, Instant now) {
        if (text == null || text.isEmpty() || text.length() > MAX_LENGTH) {
            return Decoded.refused("no session token");
        }
        int dot = text.indexOf('.');
        if (dot <= 0 || dot != text.lastIndexOf('.')) {
            return Decoded.refused("a malformed session token");
        }
        String body = text.substring(0, dot);
        byte[] signature;
        String payload;
        try {
            signature = Base64.getUrlDecoder().decode(text.substring(dot + 1));
            payload = new String(Base64.getUrlDecoder().decode(body), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return Decoded.refused("a malformed session token");
        }
        if (!MessageDigest.isEqual(signature, mac(body))) {
            return Decoded.refused("a session token with a wrong signature");
        }
        String[] f = payload.split("\n", -1);
        boolean v3 = f.length == 10 && f[0].equals(VERSION);
        boolean v2 = v3 || (f.length == 9 && f[0].equals(VERSION_2));
        if (!v2 && !(f.length == 7 && f[0].equals(VERSION_1))) {
            return Decoded.refused("a session token of another version");
        }
        SessionToken token;
        try {
            token = new SessionToken(f[1], f[2], Instant.ofEpochSecond(Long.parseLong(f[3])),
                    Instant.ofEpochSecond(Long.parseLong(f[4])), Instant.ofEpochSecond(Long.parseLong(f[5])), f[6],
                    !v2 || f[7].isEmpty() ? null : Role.parse(f[7]),
                    !v2 || f[8].isEmpty() ? java.util.Set.of() : java.util.Set.of(f[8].split(",")),
                    !v3 || f[9].isEmpty() ? null : f[9]);
        } catch (RuntimeException e) {
            return Decoded.refused("a malformed session token");
        }
        if (!now.isBefore(token.expires())) {
            return Decoded.refused("the session expired");
        }
        return new Decoded(token, null);
    }

    /** A keyed digest of {@code parts} (joined by NUL), URL-safe: for account fingerprints. */
    public String digest(String... parts) {
        byte[] full = mac(String.join("\0", parts));
        return B64.encodeToString(java.util.Arrays.copyOf(full, 16));
    }

    private byte[] mac(String text) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
        }
    }
}
