package org.medjava.store.server.rest;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.bind.annotation.JsonbProperty;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.index.TrashScope;
import org.medjava.store.core.index.Trashed;
import org.medjava.store.core.index.TrashedFile;
import org.medjava.store.core.trash.Trash;
import org.medjava.store.server.config.LinkSettings;
import org.medjava.store.server.http.PublicBase;
import org.medjava.store.server.http.RequestCaller;
import org.medjava.store.server.security.Access;
import org.medjava.store.server.security.Role;

/**
 * {@code /trash}: what deletions ({@code DELETE /dicomweb/studies/...}) took, restorable until their grace period
 * ends (medjava.trash.grace-hours), then purged in the background. Listing and restoring need the uploader role,
 * purging before the time the administrator's.
 */
@RequestScoped
@Path("trash")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = ApiDocs.TRASH)
@SecurityRequirement(name = ApiDocs.BASIC)
@SecurityRequirement(name = ApiDocs.BEARER)
@SecurityRequirement(name = ApiDocs.SESSION)
public class TrashResource {

    /**
     * One deletion: what it named, how many instances it took, when, by whom, why, until when it can be restored,
     * and (for one deletion asked by its id) the store paths of its files.
     */
    public record Deletion(String trashId, String level, @JsonbProperty("StudyInstanceUID") String studyInstanceUid,
            @JsonbProperty("SeriesInstanceUID") String seriesInstanceUid,
            @JsonbProperty("SOPInstanceUID") String sopInstanceUid, int instances, Instant trashedAt,
            Instant purgeAfter, String trashedBy, String reason, String location, List<String> files) {

        static Deletion of(Trashed t, Instant trashedAt, String by, String reason, String location) {
            TrashScope s = t.scope();
            return new Deletion(t.trashId(), s.level(), s.studyInstanceUid(), s.seriesInstanceUid(),
                    s.sopInstanceUid(), t.instances(), trashedAt, t.purgeAfter(), by, reason, location, null);
        }

        static Deletion of(List<TrashedFile> files, String location, boolean withFiles) {
            TrashedFile f = files.get(0);
            // the previous versions a correction kept are of a whole study, like a study's deletion
            boolean series = !f.level().equals("STUDY") && !f.level().equals(TrashedFile.VERSION);
            boolean instance = f.level().equals("INSTANCE");
            return new Deletion(f.trashId(), f.level(), f.studyInstanceUid(), series ? f.seriesInstanceUid() : null,
                    instance ? f.sopInstanceUid() : null, files.size(), f.trashedAt(), f.purgeAfter(), f.trashedBy(),
                    f.reason(), location, withFiles ? files.stream().map(TrashedFile::path).toList() : null);
        }
    }

    @Inject
    Trash trash;

    @Inject
    LinkSettings links;

    @Context
    SecurityContext security;

    /** Whose request this is, for the audit trail ({@link RequestCaller}). */
    @Context
    jakarta.servlet.http.HttpServletRequest servletRequest;

    @Context
    UriInfo uri;

    @Context
    HttpHeaders headers;

    @GET
    @Operation(summary = "The deletions in the trash (uploader role)", description = "Oldest first; each with what it"
            + " named, its number of instances and until when it can be restored.")
    @APIResponse(responseCode = "200", description = "the deletions", content = @Content(mediaType = ApiDocs.JSON,
            schema = @Schema(ref = "DeletionList")))
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public List<Deletion> list() {
        Access.require(security, Role.UPLOADER);
        return trash.list().values().stream().map(files -> Deletion.of(files, location(files.get(0).trashId()),
                false)).toList();
    }

    @GET
    @Path("{id}")
    @Operation(summary = "One deletion in the trash, with its files (uploader role)")
    @APIResponse(responseCode = "200", description = "the deletion and the store paths of its files",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "Deletion")))
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Deletion get(@PathParam("id") String id) {
        Access.require(security, Role.UPLOADER);
        return Deletion.of(trash.files(checked(id)), location(id), true);
    }

    @POST
    @Path("{id}/restore")
    @Operation(summary = "Restore a deletion (uploader role)", description = "Each file still as it was deleted is"
            + " indexed again and readable at once; a file written at its path since counts as replaced (the new"
            + " one stays) and leaves the trash.")
    @APIResponse(responseCode = "200", description = "what was restored, replaced, failed",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "TrashOutcome")))
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Trash.Outcome restore(@PathParam("id") String id) {
        Access.require(security, Role.UPLOADER);
        return trash.restore(checked(id), RequestCaller.of(servletRequest));
    }

    @DELETE
    @Path("{id}")
    @Operation(summary = "Purge a deletion now (admin role)", description = "Removes its files from the storage"
            + " before its grace period ends; it cannot be restored afterwards.")
    @APIResponse(responseCode = "200", description = "what was purged", content = @Content(
            mediaType = ApiDocs.JSON, schema = @Schema(ref = "TrashOutcome")))
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Trash.Outcome purge(@PathParam("id") String id) {
        Access.require(security, Role.ADMIN);
        return trash.purge(checked(id), RequestCaller.of(servletRequest));
    }

    /** Deletes what {@code scope} names into the trash at {@code caller}'s request, for DICOMweb DELETE. */
    static Response delete(Trash trash, TrashScope scope, boolean force, String reason, SecurityContext security,
            Caller caller, LinkSettings links, UriInfo uri, HttpHeaders headers) {
        Access.require(security, Role.UPLOADER);
        if (force) {
            Access.require(security, Role.ADMIN);
        }
        if (reason != null && (reason.length() > 256 || reason.chars().anyMatch(Character::isISOControl))) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "reason: at most 256 characters, no control"
                    + " characters");
        }
        Instant at = Instant.now();
        Trashed t = trash.delete(scope, reason, force, caller);
        String location = PublicBase.resolve(links, uri, headers, "trash/" + t.trashId()).toString();
        String by = security.getUserPrincipal() == null ? null : security.getUserPrincipal().getName();
        return Response.ok(Deletion.of(t, at, by, reason, location)).type(MediaType.APPLICATION_JSON_TYPE).build();
    }

    private String location(String id) {
        return PublicBase.resolve(links, uri, headers, "trash/" + id).toString();
    }

    private static String checked(String id) {
        if (!id.matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, "no deletion " + id + " in the trash");
        }
        return id;
    }
}
