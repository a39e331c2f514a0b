package org.medjava.store.server.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.core.SecurityContext;
import java.util.List;
import java.util.Set;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.StudyQuery;
import org.medjava.store.core.index.Visibility;
import org.medjava.store.core.repo.StorePath;

/**
 * Which studies a request may see, under access by project ({@code medjava.access.by-project}): an administrator
 * every study, anyone else the studies labelled like one of their projects (none without a project). The one
 * decision every read door asks; the index applies it beneath them ({@link Visibility} on each query).
 *
 * <p>A session a share link opened sees its one study, whoever made the link and whatever the study's labels, and
 * reads nothing but the doors that serve a study ({@link #sharedRead}).
 *
 * <p>Where a caller's projects come from: the OpenID provider's token (a Bearer JWT, or the session a single
 * sign-on made), or a local account's own ({@link UserStore.User#projects}, as the account is at each request, by
 * HTTP Basic or its session), put on the request by {@link StoreAuthenticationMechanism}.
 */
public final class StudyAccess {

    /** The request attribute holding the caller's projects (a {@code Set<String>}). */
    public static final String PROJECTS_ATTRIBUTE = StudyAccess.class.getName() + ".projects";

    /**
     * The doors that do not filter by study yet: under access by project only an administrator reads there (a
     * write reveals nothing and keeps its role check). Of {@code /images/}, the listings: a file is read through
     * its study ({@link #fileVisible}).
     */
    private static final String FILES = "/images/";
    private static final List<String> UNFILTERED = List.of("/images", "/trash", "/jobs", "/derived",
            "/pacs", "/uploads");

    /** What a share link's session may read: a study's index entries and DICOMweb, the filters, who it is. */
    private static final List<String> SHARED = List.of("/index/patients", "/index/studies", "/dicomweb", "/filters",
            "/auth/me");

    /** The request attribute holding the study of the share link behind the request's session. */
    public static final String SHARED_STUDY_ATTRIBUTE = StudyAccess.class.getName() + ".sharedStudy";

    private StudyAccess() {
    }

    /** What the request may see. */
    public static Visibility of(HttpServletRequest request, SecurityContext security, boolean byProject) {
        return of(request, security.isUserInRole(Role.ADMIN.id()), byProject);
    }

    /** What the request of an administrator (or not) may see. */
    static Visibility of(HttpServletRequest request, boolean admin, boolean byProject) {
        if (request.getAttribute(SHARED_STUDY_ATTRIBUTE) instanceof String study) {
            return Visibility.study(study);
        }
        if (!byProject || admin) {
            return Visibility.everything();
        }
        Object projects = request.getAttribute(PROJECTS_ATTRIBUTE);
        if (projects instanceof Set<?> set) {
            return Visibility.labels(set.stream().filter(String.class::isInstance).map(String.class::cast)
                    .filter(org.medjava.store.core.index.Labels::valid).collect(java.util.stream.Collectors.toSet()));
        }
        return Visibility.labels(Set.of());
    }

    /** A read of one stored file under {@code /images/} (not a listing): seen through the study it holds. */
    static boolean fileRead(String method, String path) {
        return StoreAuthenticationMechanism.isRead(method) && path.startsWith(FILES) && !path.endsWith("/");
    }

    /**
     * Whether the file a read names ({@code /images/} and its name as sent) is an instance of a study {@code v}
     * shows. A file the index does not hold (not DICOM, or not indexed) belongs to no study and is seen by
     * administrators alone; a name that does not parse names no file, and is left to the resource to refuse.
     */
    static boolean fileVisible(DicomIndex index, String path, Visibility v) {
        String raw = org.medjava.store.server.web.FileDownloadFilter.decode(path.substring(FILES.length()));
        String relative;
        try {
            relative = raw == null ? null : StorePath.parse(raw).relative();
        } catch (RuntimeException e) {
            relative = null;
        }
        if (relative == null) {
            return true;
        }
        return index.instance(relative).map(i -> !index.studies(StudyQuery.all()
                .studyInstanceUid(i.studyInstanceUid()).limit(1).visibleTo(v)).isEmpty()).orElse(false);
    }

    /** Whether a share link's session may ask for {@code path} (a read of a door that serves one study). */
    static boolean sharedRead(String method, String path) {
        return StoreAuthenticationMechanism.isRead(method)
                && SHARED.stream().anyMatch(door -> path.equals(door) || path.startsWith(door + "/"));
    }

    /** Whether a read of {@code path} is kept to administrators under access by project (see {@link #UNFILTERED}). */
    static boolean unfilteredRead(String method, String path) {
        if (!StoreAuthenticationMechanism.isRead(method) || fileRead(method, path)) {
            return false;
        }
        return UNFILTERED.stream().anyMatch(door -> path.equals(door) || path.startsWith(door + "/"));
    }
}
