package org.medjava.store.server.security;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.Share;

/**
 * Share links: one study, read only, for whoever holds the link, until it expires or is revoked. A link is
 * {@code <id>.<signature>}: the id is random (the key of its {@link Share} in the index database, so that a
 * revocation holds on every node and across restarts), the signature an HMAC with the sessions' key over the id, the
 * study and the expiry, so that a link is only ever honoured for the study and the time it was made for. Opening a
 * link makes an ordinary session ({@link Sessions#share}) that is checked against the share on each request
 * ({@link #problem}); what the database said is kept for a second, so a revocation on another node holds within it.
 */
public final class ShareLinks implements Sessions.ShareCheck {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Pattern TOKEN = Pattern.compile("([A-Za-z0-9_-]{24})\\.([A-Za-z0-9_-]{22})");
    private static final long CACHE_NANOS = 1_000_000_000L;

    private final SessionCodec codec;
    private final DicomIndex index;
    private final Duration longest;
    private final Clock clock;
    private final Map<String, Cached> recent = new ConcurrentHashMap<>();

    private record Cached(Optional<Share> share, long at) {
    }

    /** What opening a link found: the share when it opens its study, else the status and why not. */
    public record Opened(Share share, int status, String problem) {
        public boolean live() {
            return problem == null;
        }
    }

    /**
     * @param key     the sessions' key (of this node, or of the cluster)
     * @param longest the longest a link may stay valid ({@code medjava.share.max-days}); zero turns links off
     */
    public ShareLinks(byte[] key, DicomIndex index, Duration longest, Clock clock) {
        this.codec = new SessionCodec(key);
        this.index = index;
        this.longest = longest;
        this.clock = clock;
    }

    /** Whether links may be made at all. */
    public boolean enabled() {
        return !longest.isZero();
    }

    public Duration longest() {
        return longest;
    }

    /** Makes a link to a study (whose existence and visibility the caller checked) valid for {@code validFor}. */
    public Share create(String studyUid, String by, Duration validFor, String note) {
        if (!enabled()) {
            throw new StoreException(StoreException.Kind.FORBIDDEN, "share links are off on this store "
                    + "(medjava.share.max-days=0)");
        }
        if (validFor.isNegative() || validFor.isZero() || validFor.compareTo(longest) > 0) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "a share link is valid for 1 minute up to "
                    + longest.toDays() + " days (medjava.share.max-days)");
        }
        Instant now = clock.instant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        byte[] id = new byte[18];
        RANDOM.nextBytes(id);
        Share share = new Share(Base64.getUrlEncoder().withoutPadding().encodeToString(id), studyUid, by, now,
                now.plus(validFor), null, null, note == null ? "" : note.strip(), 0, null);
        index.addShare(share);
        return share;
    }

    /** The link's token: what goes after {@code /share/}. */
    public String token(Share share) {
        return share.id() + "." + signature(share);
    }

    /**
     * What a link opens: 404 for a token that is not one of this store's (malformed, unknown, or signed for
     * something else), 410 for a share that expired or was revoked.
     */
    public Opened open(String token) {
        if (!enabled()) {
            return new Opened(null, 410, "share links are off on this store");
        }
        java.util.regex.Matcher m = TOKEN.matcher(token == null ? "" : token);
        Optional<Share> found = m.matches() ? index.share(m.group(1)) : Optional.empty();
        if (found.isEmpty() || !MessageDigest.isEqual(signature(found.get()).getBytes(java.nio.charset.StandardCharsets
                .US_ASCII), m.group(2).getBytes(java.nio.charset.StandardCharsets.US_ASCII))) {
            return new Opened(null, 404, "no such share link on this store");
        }
        Share share = found.get();
        Instant now = clock.instant();
        if (share.revoked() != null) {
            return new Opened(share, 410, "this share link was revoked");
        }
        if (!share.live(now)) {
            return new Opened(share, 410, "this share link expired at " + share.expires());
        }
        index.shareOpened(share.id(), now);
        return new Opened(share, 200, null);
    }

    @Override
    public String problem(String shareId, Instant now) {
        if (!enabled()) {
            return "share links are off on this store";
        }
        long t = System.nanoTime();
        Cached c = recent.get(shareId);
        if (c == null || t - c.at() > CACHE_NANOS) {
            Optional<Share> share;
            try {
                share = index.share(shareId);
            } catch (RuntimeException e) { // the database is away: a share that cannot be checked opens nothing
                return "the share link cannot be checked now: " + e.getMessage();
            }
            c = new Cached(share, t);
            recent.put(shareId, c);
            if (recent.size() > 10_000) {
                recent.values().removeIf(old -> t - old.at() > CACHE_NANOS);
            }
        }
        Optional<Share> share = c.share();
        if (share.isEmpty()) {
            return "the share link is gone";
        }
        if (share.get().revoked() != null) {
            return "the share link was revoked";
        }
        return share.get().live(now) ? null : "the share link expired";
    }

    /** The study a live share opens (for a session {@link #problem} passed), or empty. */
    public Optional<String> studyOf(String shareId) {
        Cached c = recent.get(shareId);
        Optional<Share> share = c != null ? c.share() : index.share(shareId);
        return share.map(Share::studyUid);
    }

    /** Revokes a live share; whether it was live. Holds at once on this node. */
    public boolean revoke(String shareId, String by) {
        boolean revoked = index.revokeShare(shareId, by, clock.instant());
        recent.remove(shareId);
        return revoked;
    }

    private String signature(Share share) {
        return codec.digest("share", share.id(), share.studyUid(), Long.toString(share.expires().getEpochSecond()));
    }
}
