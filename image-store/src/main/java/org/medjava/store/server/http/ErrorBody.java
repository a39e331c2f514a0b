package org.medjava.store.server.http;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The store's one error format, {@code {"status":..., "error":..., "message":...}}, for refusals that do not come
 * from a {@link org.medjava.store.core.StoreException}: the HTTP layer's own (no such resource, wrong method, media type,
 * unreadable body) and the container's. The message is a short plain-language reason: never an exception's class,
 * a stack trace or the server product.
 */
public final class ErrorBody {

    private ErrorBody() {
    }

    /** The reason phrase of a status ("Not Found"), also for those {@link Response.Status} lacks. */
    public static String reason(int status) {
        Response.Status known = Response.Status.fromStatusCode(status);
        if (known != null) {
            return known.getReasonPhrase();
        }
        return switch (status) {
            case 422 -> "Unprocessable Content";
            case 423 -> "Locked";
            case 429 -> "Too Many Requests";
            case 431 -> "Request Header Fields Too Large";
            case 501 -> "Not Implemented";
            case 505 -> "HTTP Version Not Supported";
            case 507 -> "Insufficient Storage";
            default -> status >= 500 ? "Server Error" : "Request Refused";
        };
    }

    /** The body as a map (for JAX-RS to write as JSON). */
    public static Map<String, Object> of(int status, String message) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", status);
        body.put("error", reason(status));
        body.put("message", message);
        return body;
    }

    /** The same as JSON text (for the servlet layer, which has no JSON writer of its own). */
    public static String json(int status, String message) {
        return "{\"status\":" + status + ",\"error\":" + quoted(reason(status)) + ",\"message\":" + quoted(message)
                + "}";
    }

    /** A response with the body; for anything but 5xx the status is the client's to fix. */
    public static Response response(int status, String message) {
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).entity(of(status, message)).build();
    }

    /**
     * The plain reason for a refusal the HTTP layer makes without one of the store's messages, by status: what was
     * wrong and what to do.
     */
    public static String standardMessage(int status, String method, String path) {
        String where = path == null || path.isEmpty() ? "this address" : path;
        return switch (status) {
            case 400 -> "the request is malformed (its address, a header or the body); correct it and try again";
            case 401 -> "log in: this needs an account (POST /auth/login, or HTTP Basic)";
            case 403 -> "this account may not do that";
            case 404 -> "nothing at " + where + " (see /openapi for the store's API)";
            case 405 -> where + " does not take " + (method == null ? "this method" : method)
                    + " (the Allow header lists what it takes)";
            case 406 -> where + " cannot answer in a media type the Accept header allows";
            case 408 -> "the request took too long to arrive; send it again";
            case 411 -> "a body needs a Content-Length (or chunked transfer encoding)";
            case 413 -> "the request body is larger than the store accepts";
            case 414 -> "the address is too long";
            case 415 -> where + " does not take a body of this Content-Type";
            case 416 -> "the range asked for is outside the file";
            case 431 -> "the request's headers are too large";
            case 503 -> "the store is not ready or is busy; try again later";
            default -> status >= 500 ? "the store failed to answer this request; the server log has the details"
                    : reason(status);
        };
    }

    static String quoted(String s) {
        StringBuilder out = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == '<' || c == '>' || c == '&') {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
