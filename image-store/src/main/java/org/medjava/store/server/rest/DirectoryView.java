package org.medjava.store.server.rest;

import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.IndexException;
import org.medjava.store.core.repo.ImageRepository;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.medjava.store.core.index.InstanceSummary;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.model.StoredFile;

/**
 * A directory listing: JSON for programs ({@code Accept: application/json}), an HTML page for people, each entry
 * with its size, modification time, media type and, for DICOM files, a summary from the index.
 */
final class DirectoryView {

    /** The JSON form. */
    @Schema(name = "Listing", description = "A directory under /images/: its path, its parent's (absent for the "
            + "top) and its entries.")
    public record Listing(String path, String parent, List<Entry> entries) {
    }

    /** One entry; {@code dicom} is the index's summary of a DICOM file, else null. */
    @Schema(name = "ListingEntry", description = "A file or directory (kind); size and contentType for files; "
            + "dicom: the index's summary of a DICOM file.")
    public record Entry(String name, String kind, String href, @Schema(type = SchemaType.INTEGER) Long size,
                        @Schema(type = SchemaType.STRING, format = "date-time") Instant modified, String contentType,
                        @Schema(ref = "InstanceSummary") InstanceSummary dicom) {
    }

    private DirectoryView() {
    }

    static Response respond(StorePath dir, ImageRepository images, DicomIndex index, HttpHeaders headers) {
        List<StoredFile> files = images.list(dir);
        Map<String, InstanceSummary> dicom;
        try {
            dicom = index.instancesIn(dir.relative());
        } catch (IndexException e) { // the listing stands without the DICOM summaries while the index is away
            dicom = Map.of();
        }
        List<Entry> entries = new ArrayList<>();
        for (StoredFile f : files) {
            String name = f.path().name();
            entries.add(new Entry(name, f.directory() ? "directory" : "file", href(name, f.directory()),
                    f.directory() ? null : f.size(), f.modified(), f.contentType(), dicom.get(name)));
        }
        Listing listing = new Listing("/images/" + dir.relative(),
                dir.isRoot() ? null : "/images/" + dir.parent().relative(), entries);
        if (prefersJson(headers)) {
            return Response.ok(listing, MediaType.APPLICATION_JSON_TYPE).build();
        }
        return Response.ok(html(listing), MediaType.TEXT_HTML_TYPE.withCharset("UTF-8")).build();
    }

    private static boolean prefersJson(HttpHeaders headers) {
        for (MediaType type : headers.getAcceptableMediaTypes()) {
            if (type.isCompatible(MediaType.TEXT_HTML_TYPE) && !type.isWildcardType()) {
                return false;
            }
            if (type.isCompatible(MediaType.APPLICATION_JSON_TYPE) && !type.isWildcardType()) {
                return true;
            }
        }
        return false; // */* alone: a person with a simple client; HTML
    }

    private static String href(String name, boolean directory) {
        return URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20") + (directory ? "/" : "");
    }

    private static String html(Listing listing) {
        StringBuilder b = new StringBuilder(4096);
        b.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
                .append(escape(listing.path())).append(" - MedJava</title><style>")
                .append("body{font-family:system-ui,sans-serif;margin:2em}table{border-collapse:collapse}")
                .append("td,th{padding:.25em 1em;text-align:left;border-bottom:1px solid #ddd}")
                .append("td.n{text-align:right}</style></head><body><h1>");
        b.append(escape(listing.path())).append("</h1>");
        if (listing.parent() != null) {
            b.append("<p><a href=\"../\">&larr; up</a></p>");
        }
        b.append("<table><tr><th>Name</th><th>Size</th><th>Modified</th><th>Type</th><th>DICOM</th><th></th></tr>");
        for (Entry e : listing.entries()) {
            b.append("<tr><td><a href=\"").append(escape(e.href())).append("\">").append(escape(e.name()))
                    .append(e.kind().equals("directory") ? "/" : "").append("</a></td><td class=\"n\">")
                    .append(e.size() == null ? "" : e.size()).append("</td><td>").append(e.modified())
                    .append("</td><td>").append(e.contentType() == null ? "directory" : escape(e.contentType()))
                    .append("</td><td>").append(e.dicom() == null ? "" : escape(summary(e.dicom())))
                    .append("</td><td>");
            if (e.contentType() != null && !e.contentType().equals("application/octet-stream")) {
                b.append("<a href=\"").append(escape(e.href())).append("?render=png\">view</a>");
            }
            b.append("</td></tr>");
        }
        return b.append("</table></body></html>").toString();
    }

    /** Modality, study date, series and size: enough to tell files apart, and no patient name on the page. */
    private static String summary(InstanceSummary d) {
        StringBuilder b = new StringBuilder();
        for (String part : new String[] {d.modality(), d.studyDate(), d.seriesDescription()}) {
            if (part != null && !part.isBlank()) {
                b.append(b.length() == 0 ? "" : " · ").append(part);
            }
        }
        if (d.columns() != null && d.rows() != null) {
            b.append(b.length() == 0 ? "" : " · ").append(d.columns()).append('×').append(d.rows());
        }
        if (d.numberOfFrames() != null && d.numberOfFrames() > 1) {
            b.append(", ").append(d.numberOfFrames()).append(" frames");
        }
        return b.toString();
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")
                .replace("'", "&#39;");
    }
}
