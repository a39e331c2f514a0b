package org.medjava.store.server.rest;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.index.Change;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.server.config.AccessSettings;
import org.medjava.store.server.security.StudyAccess;

/**
 * {@code GET /changes?since=N&limit=M}: the change feed, for systems that follow the store (a cache, a research
 * copy, a router): every instance created, updated (its file replaced), deleted (removed, or into the trash),
 * restored or purged, numbered in commit order across every node; poll with the {@code last} of the previous page.
 * A read like a query: it needs what reads need, and under access by project a caller follows the studies they may
 * see (the numbers of the others are gaps, as numbers already have).
 */
@RequestScoped
@Path("changes")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = ApiDocs.INDEX)
@SecurityRequirement(name = ApiDocs.BASIC)
@SecurityRequirement(name = ApiDocs.BEARER)
@SecurityRequirement(name = ApiDocs.SESSION)
public class ChangesResource {
    static final int MAX_LIMIT = 10_000;

    /** One page of the feed: the changes after {@code since}, the number to ask from next, whether that was all. */
    public record ChangeFeed(List<Change> changes, long last, boolean done) {
    }

    @Inject
    DicomIndex index;

    @Inject
    AccessSettings access;

    @Context
    HttpServletRequest request;

    @Context
    SecurityContext security;

    @GET
    @Operation(summary = "The change feed", description = "Changes numbered after since (0: from the start), at most"
            + " limit (100 by default, at most 10000), in order. Numbers have gaps; each is larger than every number"
            + " committed before it, on any node. last is the number to pass as since next time; done is true when"
            + " this page reached the end of the feed.")
    @APIResponse(responseCode = "200", description = "one page of changes", content = @Content(
            mediaType = ApiDocs.JSON, schema = @Schema(ref = "ChangeFeed")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public ChangeFeed changes(
            @Parameter(description = "the last number already seen (0: from the start)") @QueryParam("since")
            @DefaultValue("0") String since,
            @Parameter(description = "at most this many (1 to 10000)") @QueryParam("limit") @DefaultValue("100")
            String limit) {
        long from = number("since", since, 0, Long.MAX_VALUE);
        int max = (int) number("limit", limit, 1, MAX_LIMIT);
        List<Change> page = index.changes(from, max, StudyAccess.of(request, security, access.byProject()));
        long last = page.isEmpty() ? Math.max(from, 0) : page.get(page.size() - 1).seq();
        return new ChangeFeed(page, last, page.size() < max);
    }

    private static long number(String name, String text, long min, long max) {
        try {
            long n = Long.parseLong(text.trim());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // the message below says what is allowed
        }
        throw new StoreException(StoreException.Kind.BAD_REQUEST, name + " must be a whole number from " + min
                + " to " + max + ", not \"" + text + "\"");
    }
}
