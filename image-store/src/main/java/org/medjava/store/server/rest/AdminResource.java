package org.medjava.store.server.rest;

import org.medjava.store.server.http.PublicBase;
import org.medjava.store.server.http.RequestCaller;
import org.medjava.store.server.security.UserStore;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.repo.ImageRepository;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.UriInfo;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.backup.StoreBackup;
import org.medjava.store.server.config.LinkSettings;
import org.medjava.store.core.jobs.JobStatus;
import org.medjava.store.core.jobs.JobWorkers;
import org.medjava.store.server.security.Access;
import org.medjava.store.server.security.Role;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Administration: rebuilding the DICOM index from the files, the accounts, backups. Admins only. */
@RequestScoped
@Path("admin")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = ApiDocs.ADMIN)
@SecurityRequirement(name = ApiDocs.BASIC)
@SecurityRequirement(name = ApiDocs.BEARER)
@SecurityRequirement(name = ApiDocs.SESSION)
public class AdminResource {

    /** The body of {@code PUT /admin/users/{name}}. */
    @Schema(name = "Account", description = "A new or changed account: its password (8 to 1024 characters), role "
            + "and, optionally, projects (labels: 1 to 64 letters, digits, _ or -). Under access by project "
            + "(medjava.access.by-project) a reader or uploader sees the studies labelled like one of its projects. "
            + "Without projects, an existing account keeps its own and a new one has none; [] removes them all.",
            example = "{\"password\": \"reader-pass-1\", \"role\": \"reader\", \"projects\": [\"cardiology\"]}")
    public record Account(String password, String role, List<String> projects) {
    }

    /** An account in {@code GET /admin/users?details=true}. */
    @Schema(name = "AccountDetails", description = "An account's role and projects (sorted; empty: none).",
            example = "{\"role\": \"reader\", \"projects\": [\"cardiology\"]}")
    public record AccountDetails(String role, List<String> projects) {
    }

    /** The body of {@code POST /admin/backup}. */
    @Schema(name = "BackupRequest", description = "Where to write the backup: an absolute directory on the store's "
            + "disk, new or empty, outside the data directory.", example = "{\"directory\": "
            + "\"/var/backups/medjava/2026-11-25\"}")
    public record BackupRequest(String directory) {
    }

    @Inject
    ImageRepository images;

    @Inject
    StoreBackup backup;

    @Inject
    JobWorkers jobs;

    @Inject
    LinkSettings links;

    @Context
    UriInfo uri;

    @Context
    HttpHeaders headers;

    @Inject
    DicomIndex index;

    @Inject
    UserStore users;

    @Context
    SecurityContext security;

    /** Whose request this is, for the audit trail ({@link RequestCaller}). */
    @Context
    jakarta.servlet.http.HttpServletRequest servletRequest;

    @POST
    @Path("index/rebuild")
    @Operation(summary = "Rebuild the DICOM index from the stored files", description = "Reads every stored "
            + "file, indexes the DICOM ones and removes rows of files that are gone; answers when done. On a large "
            + "store prefer POST /jobs with kind index-rebuild, which runs in the background.")
    @APIResponse(responseCode = "200", description = "what the rebuild did",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "RebuildReport")))
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Object rebuildIndex() {
        Access.require(security, Role.ADMIN);
        return index.rebuild(images.storage());
    }

    /**
     * Starts a backup of the store into {@code directory} (absolute, on the store's disk, new or empty, outside the
     * data directory) as a job: 202 with the job, whose result gives the snapshot's instant (every write
     * acknowledged before it is in the backup). 400 for a directory that is not allowed, 409 for one that is not
     * empty or while a backup runs.
     */
    @POST
    @Path("backup")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Back up the store: objects, index, accounts and plugins as one consistent snapshot",
            description = "Runs as a job (kind backup). New writes pause briefly while the index is copied and the"
                    + " objects are listed (at most medjava.backup.max-pause-seconds); every write acknowledged"
                    + " before the snapshot instant in the job's result is in the backup. Restore with ./medjava"
                    + " admin restore on a stopped store.")
    @RequestBody(required = true, content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "BackupRequest")))
    @APIResponse(responseCode = "202", description = "the backup job; Location is its URL to poll",
            headers = @Header(name = "Location", schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "JobStatus")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "409", ref = ApiDocs.CONFLICT)
    public Response backup(BackupRequest body) throws IOException {
        Access.require(security, Role.ADMIN);
        if (backup.isRunning()) {
            throw new StoreException(StoreException.Kind.CONFLICT, "a backup is running already; wait for it (GET"
                    + " /jobs)");
        }
        java.nio.file.Path target = backup.prepareTarget(body == null ? null : body.directory());
        JobStatus job = jobs.submit(StoreBackup.JOB_KIND, Map.of("directory", target.toString()),
                security.getUserPrincipal().getName());
        return Response.accepted(job).location(PublicBase.resolve(links, uri, headers, "jobs/" + job.id())).build();
    }

    @GET
    @Path("users")
    @Operation(summary = "The accounts and their roles (and projects, with details=true)", description = "By user "
            + "name: the role alone (the answer older clients read), or with details=true an AccountDetails, the role "
            + "and the projects.")
    @Parameter(name = "details", in = ParameterIn.QUERY, description = "true: each account's role and projects")
    @APIResponse(responseCode = "200", description = "role (or AccountDetails) by user name",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "Accounts")))
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    public Map<String, Object> users(@QueryParam("details") boolean details) {
        Access.require(security, Role.ADMIN);
        Map<String, Object> accounts = new java.util.TreeMap<>();
        users.accounts().forEach((name, user) -> accounts.put(name, details
                ? new AccountDetails(user.role().id(), List.copyOf(user.projects())) : user.role().id()));
        return accounts;
    }

    @PUT
    @Path("users/{name}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Create an account or change its password, role and projects", description = "The account "
            + "is replaced whole but for its projects: the password and role are always sent (the store keeps only a "
            + "hash), the projects when they change. A change ends the account's sessions.")
    @Parameter(name = "name", in = ParameterIn.PATH, required = true, description = "the user name")
    @RequestBody(required = true, content = @Content(mediaType = ApiDocs.JSON,
            schema = @Schema(ref = "Account")))
    @APIResponse(responseCode = "201", description = "created")
    @APIResponse(responseCode = "204", description = "changed")
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    public Response putUser(@PathParam("name") String name, Account account) throws IOException {
        Access.require(security, Role.ADMIN);
        if (account == null || account.password() == null || account.role() == null) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "send {\"password\": \"...\", \"role\": "
                    + "\"reader|uploader|admin\"}");
        }
        boolean exists = users.roles().containsKey(name);
        try {
            if (account.projects() == null) {
                users.put(name, account.password().toCharArray(), Role.parse(account.role()),
                        RequestCaller.of(servletRequest));
            } else {
                users.put(name, account.password().toCharArray(), Role.parse(account.role()), account.projects(),
                        RequestCaller.of(servletRequest));
            }
        } catch (IllegalArgumentException e) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, e.getMessage());
        }
        return exists ? Response.noContent().build() : Response.status(Response.Status.CREATED).build();
    }

    @DELETE
    @Path("users/{name}")
    @Operation(summary = "Delete an account (not your own)")
    @Parameter(name = "name", in = ParameterIn.PATH, required = true, description = "the user name")
    @APIResponse(responseCode = "204", description = "deleted")
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "409", ref = ApiDocs.CONFLICT)
    public Response deleteUser(@PathParam("name") String name) throws IOException {
        Access.require(security, Role.ADMIN);
        if (name.equals(security.getUserPrincipal().getName())) {
            throw new StoreException(StoreException.Kind.CONFLICT, "you cannot delete your own account");
        }
        if (!users.remove(name, RequestCaller.of(servletRequest))) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, "no user " + name);
        }
        return Response.noContent().build();
    }
}
