package org.medjava.store.server.filter;

import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.medjava.store.net.dicomweb.AcceptHeader;
import org.medjava.store.net.dicomweb.MediaRange;

/**
 * Reads Accept and Content-Type headers the way DICOMweb clients write them, before Jersey sees them. Jersey's
 * strict parser refuses forms real clients send — OHIF's {@code multipart/related; type=application/octet-stream;
 * transfer-syntax=*} (a {@code /} in an unquoted value), Java's {@code *; q=.2} — with a 400 and the container's
 * HTML error page before any resource runs; it reads Content-Type already in its servlet, before any JAX-RS filter,
 * hence a servlet filter here.
 *
 * <p>Under {@code /dicomweb} the Accept header is parsed here ({@link AcceptHeader}) and handed to the resource as
 * the request attribute {@link #ACCEPT} (a JAX-RS request property), which negotiates itself; Jersey is shown
 * {@code *}{@code /*}. Elsewhere the header is rewritten in a form Jersey reads (the same ranges, values quoted
 * where needed), or {@code *}{@code /*} when not even this parser reads it. A Content-Type is rewritten likewise.
 * Under {@code /dicomweb} what cannot be read is a short JSON refusal: 400 for Accept, 415 for Content-Type.
 *
 * <p>Under {@code /dicomweb} an {@code accept} query parameter (PS3.18 8.3.3.1) is read instead of the Accept
 * header, as Cornerstone3D's progressive loader sends it ({@code ?accept=image/jhc}); {@code image/jhc}, the name
 * Static DICOMweb and Cornerstone3D's documents use, is read as HTJ2K's registered {@code image/jphc}.
 */
public class MediaTypeHeaderFilter extends HttpFilter {

    private static final long serialVersionUID = 1L;

    /** Made on first use (a JSON-B provider is looked up; there is one in the server, not in unit tests). */
    private static final class Json {
        static final Jsonb JSONB = JsonbBuilder.create();
    }

    /** The request attribute (JAX-RS request property) holding the parsed {@link AcceptHeader} of a DICOMweb request. */
    public static final String ACCEPT = AcceptHeader.class.getName();

    /** What to do with one request's headers: replacement values, the parsed Accept header, or a refusal. */
    record Outcome(Map<String, String> headers, AcceptHeader accept, int status, String refusal) {
    }

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        String accept = isDicomWeb(path) ? acceptParameter(request.getQueryString()) : null;
        Outcome outcome = outcome(path, accept != null ? accept : request.getHeader("Accept"),
                request.getHeader("Content-Type"));
        if (outcome.refusal() != null) {
            byte[] body = Json.JSONB.toJson(Map.of("status", outcome.status(), "error", outcome.status() == 400
                    ? "Bad Request" : "Unsupported Media Type", "message", outcome.refusal()))
                    .getBytes(StandardCharsets.UTF_8);
            response.setStatus(outcome.status());
            response.setContentType("application/json");
            response.setContentLength(body.length);
            response.getOutputStream().write(body);
            return;
        }
        if (outcome.accept() != null) {
            request.setAttribute(ACCEPT, outcome.accept());
        }
        chain.doFilter(outcome.headers().isEmpty() ? request : new Rewritten(request, outcome.headers()), response);
    }

    /** The value of the query's {@code accept} parameter (its last one, decoded); null when there is none. */
    static String acceptParameter(String query) {
        String found = null;
        if (query != null) {
            for (String pair : query.split("&")) {
                if (pair.regionMatches(true, 0, "accept=", 0, 7) && pair.length() > 7) {
                    found = java.net.URLDecoder.decode(pair.substring(7), StandardCharsets.UTF_8);
                }
            }
        }
        return found == null || found.isBlank() ? null : found;
    }

    /** {@code image/jhc} (the HTJ2K file extension, used as a media type by Static DICOMweb) read as image/jphc. */
    private static final java.util.regex.Pattern JHC = java.util.regex.Pattern.compile("(?i)image/jhc(?=[\\s;,\"]|$)");

    /** The rule, for a path relative to the application ({@code /dicomweb/studies}). */
    static Outcome outcome(String path, String accept, String contentType) {
        boolean dicomWeb = isDicomWeb(path);
        Map<String, String> headers = new LinkedHashMap<>();
        AcceptHeader parsed = null;
        if (dicomWeb) {
            try {
                parsed = AcceptHeader.parse(accept == null ? null : JHC.matcher(accept).replaceAll("image/jphc"));
            } catch (IllegalArgumentException e) {
                return new Outcome(Map.of(), null, 400, e.getMessage());
            }
            headers.put("accept", "*/*");
        } else if (accept != null && !accept.isBlank()) {
            try {
                headers.put("accept", AcceptHeader.parse(accept).toHeader());
            } catch (IllegalArgumentException e) {
                headers.put("accept", "*/*");
            }
        }
        if (contentType != null && !contentType.isBlank()) {
            try {
                headers.put("content-type", MediaRange.parse(contentType).toHeader());
            } catch (IllegalArgumentException e) {
                if (dicomWeb) {
                    return new Outcome(Map.of(), null, 415, "Content-Type: " + e.getMessage());
                }
            }
        }
        headers.entrySet().removeIf(h -> h.getValue().equals(h.getKey().equals("accept") ? accept : contentType));
        return new Outcome(headers, parsed, 0, null);
    }

    /** The DICOMweb services' path ({@code /dicomweb/...}, relative to the application). */
    public static boolean isDicomWeb(String path) {
        String p = path.startsWith("/") ? path.substring(1) : path;
        return p.equals("dicomweb") || p.startsWith("dicomweb/");
    }

    /** The request with some headers replaced (names lower case). */
    private static final class Rewritten extends HttpServletRequestWrapper {
        private final Map<String, String> headers;

        Rewritten(HttpServletRequest request, Map<String, String> headers) {
            super(request);
            this.headers = headers;
        }

        @Override
        public String getHeader(String name) {
            String value = headers.get(name.toLowerCase(java.util.Locale.ROOT));
            return value != null ? value : super.getHeader(name);
        }

        @Override
        public Enumeration<String> getHeaders(String name) {
            String value = headers.get(name.toLowerCase(java.util.Locale.ROOT));
            return value != null ? Collections.enumeration(java.util.List.of(value)) : super.getHeaders(name);
        }

        @Override
        public String getContentType() {
            String value = headers.get("content-type");
            return value != null ? value : super.getContentType();
        }
    }
}
