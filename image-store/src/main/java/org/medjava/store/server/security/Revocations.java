package org.medjava.store.server.security;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.cluster.SharedRevocations;

/**
 * The sessions ended by a logout, until they would have expired anyway: in memory on one node, in the shared
 * PostgreSQL on several (a logout on one node holds on the next request to any other).
 */
public interface Revocations {

    void revoke(String sessionId, Instant until, Instant now);

    boolean isRevoked(String sessionId, Instant now);

    /** One node's revocations, in memory (a restart forgets them; the sessions' own expiry still holds). */
    static Revocations local() {
        return new InMemory();
    }

    /**
     * A cluster's revocations. When the shared database cannot be reached, the revocations this node knows of
     * still hold and the others are not checked: a store that lost its database keeps serving reads to the users
     * already logged in (as it does for HTTP Basic), rather than logging everybody out.
     */
    static Revocations shared(SharedRevocations shared) {
        return new Shared(shared);
    }

    /** Revocations in a map, forgotten once past their instant. */
    final class InMemory implements Revocations {
        private final Map<String, Instant> revoked = new ConcurrentHashMap<>();

        @Override
        public void revoke(String sessionId, Instant until, Instant now) {
            revoked.merge(sessionId, until, (a, b) -> a.isAfter(b) ? a : b);
            revoked.values().removeIf(u -> u.isBefore(now));
        }

        @Override
        public boolean isRevoked(String sessionId, Instant now) {
            return revoked.containsKey(sessionId);
        }
    }

    /** The shared table, with this node's own revocations kept too for when the database is away. */
    final class Shared implements Revocations {
        private static final Logger LOG = Logger.getLogger(Revocations.class.getName());
        private final SharedRevocations shared;
        private final InMemory known = new InMemory();
        private volatile boolean warned;
        private volatile long warnedAt;

        Shared(SharedRevocations shared) {
            this.shared = shared;
        }

        @Override
        public void revoke(String sessionId, Instant until, Instant now) {
            known.revoke(sessionId, until, now);
            shared.revoke(sessionId, until, now); // a failure is the logout's 503: the user may log out again
        }

        @Override
        public boolean isRevoked(String sessionId, Instant now) {
            if (known.isRevoked(sessionId, now)) {
                return true;
            }
            try {
                boolean revoked = shared.isRevoked(sessionId);
                if (revoked) {
                    known.revoke(sessionId, now.plus(java.time.Duration.ofDays(1)), now);
                }
                return revoked;
            } catch (StoreException e) {
                long t = System.nanoTime();
                if (warned && t - warnedAt < 60_000_000_000L) {
                    return false; // said once a minute
                }
                warned = true;
                warnedAt = t;
                LOG.warning("cannot check the session's revocation: " + e.getMessage()
                        + "; only this node's revocations hold until the shared database is back");
                return false;
            }
        }
    }
}
