package org.medjava.store.core.index;

import org.eclipse.persistence.config.SessionCustomizer;
import org.eclipse.persistence.sessions.Session;

/**
 * Turns off EclipseLink's own retry of a query whose connection failed (3 more tries, 5 s apart): with the database
 * away a query took 16 s to fail. {@link IndexSession} tries a cut connection again itself, at once, and
 * {@link Reachability} refuses callers at once while the server is away. Named in the persistence properties.
 */
public final class NoQueryRetry implements SessionCustomizer {

    @Override
    public void customize(Session session) {
        session.getLogin().setQueryRetryAttemptCount(0);
        session.getLogin().setDelayBetweenConnectionAttempts(0);
    }
}
