package org.medjava.store.server.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.core.SecurityContext;
import java.util.List;
import java.util.Set;
import org.medjava.store.core.index.Visibility;

/**
 * Which studies a request may see, under access by project ({@code medjava.access.by-project}): an administrator
 * every study, anyone else the studies labelled like one of their projects (none without a project). The one
 * decision every read door asks; the index applies it beneath them ({@link Visibility} on each query).
 *
 * <p>Where a caller's projects come from: the OpenID provider's token (a Bearer JWT, or the session a single
 * sign-on made), put on the request by {@link StoreAuthenticationMechanism}. A local account has none yet.
 */
public final class StudyAccess {

    /** The request attribute holding the caller's projects (a {@code Set<String>}). */
    public static final String PROJECTS_ATTRIBUTE = StudyAccess.class.getName() + ".projects";

    /**
     * The doors that do not filter by study yet: under access by project only an administrator reads there (a
     * write reveals nothing and keeps its role check).
     */
    private static final List<String> UNFILTERED = List.of("/images", "/changes", "/trash", "/jobs", "/derived",
            "/pacs", "/uploads");

    private StudyAccess() {
    }

    /** What the request may see. */
    public static Visibility of(HttpServletRequest request, SecurityContext security, boolean byProject) {
        if (!byProject || security.isUserInRole(Role.ADMIN.id())) {
            return Visibility.everything();
        }
        Object projects = request.getAttribute(PROJECTS_ATTRIBUTE);
        if (projects instanceof Set<?> set) {
            return Visibility.labels(set.stream().filter(String.class::isInstance).map(String.class::cast)
                    .filter(org.medjava.store.core.index.Labels::valid).collect(java.util.stream.Collectors.toSet()));
        }
        return Visibility.labels(Set.of());
    }

    /** Whether a read of {@code path} is kept to administrators under access by project (see {@link #UNFILTERED}). */
    static boolean unfilteredRead(String method, String path) {
        if (!StoreAuthenticationMechanism.isRead(method)) {
            return false;
        }
        return UNFILTERED.stream().anyMatch(door -> path.equals(door) || path.startsWith(door + "/"));
    }
}
