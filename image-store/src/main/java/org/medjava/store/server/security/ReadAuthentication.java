package org.medjava.store.server.security;

import java.util.Optional;

/**
 * The caller of a plain read under {@code /images/} or a DICOMweb read, decided from the request's headers alone,
 * for the store's front (which answers some reads in front of the servlet container): the verdict
 * {@link StoreAuthenticationMechanism} reaches for a GET or HEAD without {@code Origin}, when that verdict lets the
 * request go on. Null when the request needs the full decision: a session cookie or Bearer token, a password not
 * checked before (hashing, audit), an OpenID token not verified before (its first use is audited), a throttled
 * login, no credentials where anonymous reads are off. Such a request
 * then takes the container's path, which decides it again (a throttled attempt counts nothing).
 *
 * <p>A plain object made from the mechanism's parts ({@link StoreAuthenticationMechanism#readAuthentication}): no
 * CDI proxy is passed on each of the many reads a viewer makes.
 */
public final class ReadAuthentication {
    private final UserStore users;
    private final LoginThrottle throttle;
    private final boolean anonymousRead;
    private final OidcTokens oidc;

    ReadAuthentication(UserStore users, LoginThrottle throttle, boolean anonymousRead, OidcTokens oidc) {
        this.users = users;
        this.throttle = throttle;
        this.anonymousRead = anonymousRead;
        this.oidc = oidc;
    }

    /**
     * @param authorization the Authorization header, or null
     * @param cookies       the Cookie header, or null
     * @param address       the client's address (the throttle's key)
     */
    public StoreAuthenticationMechanism.Verdict caller(String authorization, String cookies, String address) {
        return caller(authorization, cookies, address, null);
    }

    /**
     * A connection's last remembered Basic login: the same header again on that connection, for an account that
     * has not changed since, is the same login without decoding or hashing it (a viewer sends it with each of
     * hundreds of reads). Used by one thread at a time (a connection's event loop).
     */
    public static final class Remembered {
        private String authorization;
        private UserStore.User user;
    }

    /** As {@link #caller(String, String, String)}, remembering the connection's last login in {@code remembered}. */
    public StoreAuthenticationMechanism.Verdict caller(String authorization, String cookies, String address,
                                                      Remembered remembered) {
        if (cookies != null && cookies.contains(SessionCookie.NAME)) {
            return null;
        }
        if (authorization == null) {
            return anonymousRead ? StoreAuthenticationMechanism.Verdict.ANONYMOUS : null;
        }
        if (oidc != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            OidcTokens.Identity identity = oidc.remembered(authorization.substring(7).trim());
            return identity == null || identity.role().isEmpty() ? null
                    : StoreAuthenticationMechanism.Verdict.login(identity.user(), identity.role().get().groups());
        }
        if (!authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return null;
        }
        UserStore.User user = remembered == null ? null : remembered.user;
        if (user == null || !authorization.equals(remembered.authorization) || !users.isCurrent(user)) {
            StoreAuthenticationMechanism.Credential credential =
                    StoreAuthenticationMechanism.parse(authorization.substring(6).trim());
            if (credential == null) {
                return null;
            }
            user = users.rememberedUser(credential.name(), credential.password().toCharArray()).orElse(null);
            if (user == null) {
                return null;
            }
            if (remembered != null) {
                remembered.authorization = authorization;
                remembered.user = user;
            }
        }
        Optional<Role> role = Optional.of(user.role());
        // the throttle is asked every time: a login it holds back is held back however it was checked
        LoginThrottle.Attempt<Role> attempt = throttle.attempt(address, user.name(), true, () -> role);
        return attempt.outcome() == LoginThrottle.Outcome.ACCEPTED
                ? StoreAuthenticationMechanism.Verdict.login(user.name(), attempt.value().groups()) : null;
    }
}
