package org.medjava.store.server.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.core.SecurityContext;
import java.util.List;
import java.util.Set;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.StudyQuery;
import org.medjava.store.core.index.Visibility;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.server.http.PathParams;

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
     * its study ({@link #fileStudy}).
     */
    private static final String FILES = "/images/";
    private static final List<String> UNFILTERED = List.of("/images", "/trash", "/jobs", "/uploads");
    /**
     * The doors that act on any stored study by name — send to or browse a remote PACS, derive from a file — with no
     * study filter: administrators' alone under access by project, whatever the method.
     */
    private static final List<String> ADMINS_ONLY = List.of("/pacs", "/derived");

    /**
     * What a share link's session may read: a study's index entries and DICOMweb, its files (one at a time, through
     * their study), the filters, who it is.
     */
    private static final List<String> SHARED = List.of("/index/patients", "/index/studies", "/index/series",
            "/dicomweb", "/filters", "/auth/me");

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

    /** A request about one stored file under {@code /images/} (not a listing). */
    static boolean fileRequest(String path) {
        return path.startsWith(FILES) && !path.endsWith("/");
    }

    /**
     * The study of the file a request names ({@code /images/} and its name as sent), as the index holds it; empty
     * for a file the index does not hold (not DICOM, not indexed, not there) and for a name that does not parse
     * (left to the resource to refuse).
     */
    static java.util.Optional<String> fileStudy(DicomIndex index, String path) {
        String raw = PathParams.decode(path.substring(FILES.length()));
        try {
            return raw == null ? java.util.Optional.empty()
                    : index.instance(StorePath.parse(raw).relative()).map(i -> i.studyInstanceUid());
        } catch (RuntimeException e) {
            return java.util.Optional.empty();
        }
    }

    /** Whether {@code v} shows the study of that UID. */
    static boolean visible(DicomIndex index, Visibility v, String studyUid) {
        return v.all() || !index.studies(StudyQuery.all().studyInstanceUid(studyUid).limit(1).visibleTo(v))
                .isEmpty();
    }

    /**
     * For a door that acts on a stored study or series a request names (a deletion, a job): the same 404 as for
     * one that does not exist unless the request may see it.
     */
    public static void requireVisible(DicomIndex index, Visibility v, String studyUid, String seriesUid) {
        if (v.all()) {
            return;
        }
        boolean seen = studyUid != null ? studyUid.matches("[0-9.]{1,64}") && visible(index, v, studyUid)
                : seriesUid != null && !index.instances(seriesUid, org.medjava.store.core.index.InstanceQuery.all()
                        .limit(1).visibleTo(v)).isEmpty();
        if (!seen) {
            throw new org.medjava.store.core.StoreException(org.medjava.store.core.StoreException.Kind.NOT_FOUND,
                    "no " + (studyUid != null ? "study " + studyUid : "series " + seriesUid) + " in the store");
        }
    }

    /** Whether a share link's session may ask for {@code path} (a read of a door that serves one study). */
    static boolean sharedRead(String method, String path) {
        return StoreAuthenticationMechanism.isRead(method) && (fileRequest(path)
                || SHARED.stream().anyMatch(door -> path.equals(door) || path.startsWith(door + "/")));
    }

    /**
     * Whether {@code path} is kept to administrators under access by project: a read of a door without a study
     * filter ({@link #UNFILTERED}), anything on a door that acts on any study ({@link #ADMINS_ONLY}).
     */
    static boolean administratorsOnly(String method, String path) {
        if (ADMINS_ONLY.stream().anyMatch(door -> path.equals(door) || path.startsWith(door + "/"))) {
            return true;
        }
        return StoreAuthenticationMechanism.isRead(method) && !fileRequest(path)
                && UNFILTERED.stream().anyMatch(door -> path.equals(door) || path.startsWith(door + "/"));
    }
}
