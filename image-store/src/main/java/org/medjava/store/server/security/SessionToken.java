package org.medjava.store.server.security;

import java.time.Instant;

/**
 * What a browser session's cookie (or a Bearer token) carries, signed by {@link SessionCodec}.
 *
 * @param user        the account's name
 * @param sessionId   random, the same in every renewal of one session (what a logout revokes)
 * @param created     when the user logged in: the absolute limit counts from here
 * @param issued      when this token was made (at login or at a renewal)
 * @param expires     when this token stops being accepted
 * @param fingerprint of the account as it was at login: a changed password or role, or a deleted account, ends the
 *                    session
 */
public record SessionToken(String user, String sessionId, Instant created, Instant issued, Instant expires,
                           String fingerprint) {
}
