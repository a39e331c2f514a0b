package org.medjava.store.server.security;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.Set;

/**
 * Browser sessions over the store's accounts: a login makes a signed {@link SessionToken}; each request's token is
 * checked (signature, expiry, the account unchanged since the login, not logged out) and renewed when more than half
 * of the idle window has passed, never beyond the absolute limit counted from the login. Nothing is kept per
 * session but the logouts ({@link Revocations}), so any node holding the key accepts any node's sessions. A session a
 * share link opened ({@link #share}) is checked against its share on every request instead of an account, and is
 * never renewed.
 */
public final class Sessions {

    /** Whether a share link still opens its study. */
    public interface ShareCheck {
        /** Null when the share of that id is live at {@code now}; else why not, in a sentence. */
        String problem(String shareId, Instant now);
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    private final SessionCodec codec;
    private final UserStore users;
    private final Revocations revocations;
    private final Duration idle;
    private final Duration max;
    private final Clock clock;
    private final ShareCheck shares;

    /**
     * A checked session: the role and projects it holds now (a local account's as the account is, a single sign-on's
     * as its token says) and the token to send back when it was renewed (else null).
     */
    public record Checked(SessionToken token, Role role, Set<String> projects, String renewed, String problem) {
        public boolean valid() {
            return token != null;
        }

        static Checked refused(String problem) {
            return new Checked(null, null, Set.of(), null, problem);
        }
    }

    /** A new session: its token as text and what it says. */
    public record Issued(SessionToken token, Role role, String text) {
    }

    public Sessions(byte[] key, UserStore users, Revocations revocations, Duration idle, Duration max, Clock clock) {
        this(key, users, revocations, idle, max, clock, (id, now) -> "share links are off");
    }

    public Sessions(byte[] key, UserStore users, Revocations revocations, Duration idle, Duration max, Clock clock,
                    ShareCheck shares) {
        if (idle.isNegative() || idle.isZero() || max.compareTo(idle) < 0) {
            throw new IllegalArgumentException("sessions need an idle timeout above 0 and an absolute limit at least"
                    + " as long (medjava.session.idle-minutes " + idle.toMinutes() + ", medjava.session.max-hours "
                    + max.toHours() + ")");
        }
        this.codec = new SessionCodec(key);
        this.users = users;
        this.revocations = revocations;
        this.idle = idle;
        this.max = max;
        this.clock = clock;
        this.shares = shares;
    }

    /** A new session when the name and password are right; nothing says which was wrong. */
    public Optional<Issued> login(String name, char[] password) {
        if (name == null || password == null) {
            return Optional.empty();
        }
        Optional<UserStore.User> user = users.authenticatedUser(name, password);
        if (user.isEmpty()) {
            return Optional.empty();
        }
        Instant now = now();
        SessionToken token = new SessionToken(name, newId(), now, now, earliest(now.plus(idle), now.plus(max)),
                fingerprint(user.get()));
        return Optional.of(new Issued(token, user.get().role(), codec.encode(token)));
    }

    /**
     * A new session for a caller the OpenID provider vouched for (the browser login), with the role and projects
     * its token granted: they hold for the session's life, as a local account's role holds until it is changed.
     */
    public Issued singleSignOn(OidcTokens.Identity identity) {
        Role role = identity.role().orElseThrow(() -> new IllegalArgumentException("no role, no session"));
        Instant now = now();
        SessionToken token = new SessionToken(identity.user(), newId(), now, now,
                earliest(now.plus(idle), now.plus(max)), SessionToken.SINGLE_SIGN_ON, role, identity.projects());
        return new Issued(token, role, codec.encode(token));
    }

    /**
     * A new session for whoever opened a share link: a reader of that one study (the request's visibility, see
     * {@link StudyAccess}), until the share ends or the absolute limit, whichever comes first.
     */
    public Issued share(String shareId, Instant shareExpires) {
        Instant now = now();
        SessionToken token = new SessionToken("share:" + shareId, newId(), now, now,
                earliest(shareExpires, now.plus(max)), SessionToken.SHARE, Role.READER, Set.of(), shareId);
        return new Issued(token, Role.READER, codec.encode(token));
    }

    /**
     * Checks a token from a cookie or an {@code Authorization: Bearer} header.
     *
     * @param renew whether a token past half of its idle window is renewed (cookies; a Bearer client keeps its
     *              token until it expires)
     */
    public Checked check(String text, boolean renew) {
        Instant now = now();
        SessionCodec.Decoded decoded = codec.decode(text, now);
        if (!decoded.valid()) {
            return Checked.refused(decoded.problem());
        }
        SessionToken t = decoded.token();
        Role role = t.role();
        Set<String> projects = t.projects();
        if (t.share() != null) {
            String problem = shares.problem(t.share(), now);
            if (problem != null) {
                return Checked.refused(problem);
            }
            role = Role.READER;
        } else if (!t.singleSignOn()) {
            Optional<UserStore.User> user = users.user(t.user());
            if (user.isEmpty() || !fingerprint(user.get()).equals(t.fingerprint())) {
                return Checked.refused("the account changed since the login (password, role, projects, or "
                        + "removed)");
            }
            role = user.get().role();
            projects = user.get().projects();
        }
        if (!now.isBefore(t.created().plus(max))) {
            return Checked.refused("the session expired");
        }
        if (revocations.isRevoked(t.sessionId(), now)) {
            return Checked.refused("the session ended with a logout");
        }
        if (renew && t.share() == null && Duration.between(t.issued(), now).compareTo(idle.dividedBy(2)) > 0) {
            Instant expires = earliest(now.plus(idle), t.created().plus(max));
            if (expires.isAfter(t.expires())) {
                SessionToken renewed = t.renewed(now, expires);
                return new Checked(renewed, role, projects, codec.encode(renewed), null);
            }
        }
        return new Checked(t, role, projects, null, null);
    }

    /**
     * Ends the session the token belongs to on every node (its signature must be right; an expired token's session
     * is revoked too, it costs nothing).
     *
     * @return whether there was a session to end
     */
    public boolean logout(String text) {
        if (text == null) {
            return false;
        }
        Instant now = now();
        SessionCodec.Decoded decoded = codec.decode(text, Instant.EPOCH);
        if (!decoded.valid()) {
            return false;
        }
        SessionToken t = decoded.token();
        if (!now.isBefore(t.created().plus(max))) {
            return false;
        }
        revocations.revoke(t.sessionId(), t.created().plus(max), now);
        return true;
    }

    public Duration idle() {
        return idle;
    }

    /**
     * What identifies the account as it is: changes with its password (a new salt and hash), role or projects. The
     * projects count only when there are some, so that sessions of accounts without any outlive an upgrade.
     */
    String fingerprint(UserStore.User user) {
        return user.projects().isEmpty()
                ? codec.digest("account", user.name(), user.role().id(), user.passwordHash())
                : codec.digest("account", user.name(), user.role().id(), user.passwordHash(),
                String.join(",", user.projects()));
    }

    private Instant now() {
        return clock.instant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
    }

    private static Instant earliest(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    private static String newId() {
        byte[] id = new byte[18];
        RANDOM.nextBytes(id);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(id);
    }
}
