package org.medjava.store.server.security;

import java.time.Instant;
import java.util.Set;

/**
 * What a browser session's cookie (or a Bearer token) carries, signed by {@link SessionCodec}.
 *
 * @param user        the account's name, or the name the OpenID provider gave
 * @param sessionId   random, the same in every renewal of one session (what a logout revokes)
 * @param created     when the user logged in: the absolute limit counts from here
 * @param issued      when this token was made (at login or at a renewal)
 * @param expires     when this token stops being accepted
 * @param fingerprint of a local account as it was at login: a changed password, role or projects, or a deleted
 *                    account, ends the session; {@link #SINGLE_SIGN_ON} for a login through the OpenID provider
 * @param role        the role the OpenID provider granted at login; null for a local account (its role is the
 *                    account's, looked up on each request)
 * @param projects    the projects the OpenID provider listed at login (empty for a local account: its projects are
 *                    the account's, looked up on each request)
 * @param share       the id of the share link that opened this session (one study, read only), or null
 */
public record SessionToken(String user, String sessionId, Instant created, Instant issued, Instant expires,
                           String fingerprint, Role role, Set<String> projects, String share) {

    /** The fingerprint of a session made by single sign-on: there is no local account to compare. */
    public static final String SINGLE_SIGN_ON = "oidc";
    /** The fingerprint of a session a share link opened: its share is checked instead of an account. */
    public static final String SHARE = "share";

    public SessionToken {
        projects = Set.copyOf(projects);
    }

    /** A local account's session. */
    public SessionToken(String user, String sessionId, Instant created, Instant issued, Instant expires,
                        String fingerprint) {
        this(user, sessionId, created, issued, expires, fingerprint, null, Set.of(), null);
    }

    /** A single sign-on's session. */
    public SessionToken(String user, String sessionId, Instant created, Instant issued, Instant expires,
                        String fingerprint, Role role, Set<String> projects) {
        this(user, sessionId, created, issued, expires, fingerprint, role, projects, null);
    }

    /** Whether the OpenID provider, not a local account, stands behind this session. */
    public boolean singleSignOn() {
        return role != null && share == null;
    }

    /** The same session, renewed: issued now, expiring later. */
    SessionToken renewed(Instant now, Instant newExpiry) {
        return new SessionToken(user, sessionId, created, now, newExpiry, fingerprint, role, projects, share);
    }
}
