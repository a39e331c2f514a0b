package org.medjava.store.server.security;

import jakarta.ws.rs.core.SecurityContext;
import org.medjava.store.core.StoreException;

/** Role checks for the resources: one line at the top of each method that needs more than a read. */
public final class Access {

    private Access() {
    }

    public static void require(SecurityContext security, Role role) {
        if (security.getUserPrincipal() == null) {
            throw new StoreException(StoreException.Kind.UNAUTHORIZED, "log in: this needs the " + role.id()
                    + " role");
        }
        if (!security.isUserInRole(role.id())) {
            throw new StoreException(StoreException.Kind.FORBIDDEN, "user " + security.getUserPrincipal().getName()
                    + " lacks the " + role.id() + " role this needs");
        }
    }
}
