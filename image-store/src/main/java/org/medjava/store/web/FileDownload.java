package org.medjava.store.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One stored file as an HTTP answer, on the servlet API: conditional requests (RFC 9110 §13: If-Match,
 * If-Unmodified-Since, If-None-Match, If-Modified-Since, evaluated in that order), one byte range with If-Range
 * ({@link ByteRange}), then the bytes. A client hanging up mid-body ends the body at the first failed write with one
 * FINE line, as {@link ClientGoneInterceptor} does for JAX-RS answers; errors reading storage propagate.
 */
final class FileDownload {
    private static final Logger LOG = Logger.getLogger(FileDownload.class.getName());
    private static final int CHUNK = 256 * 1024;

    private FileDownload() {
    }

    /** What is sent: the file's validators, type and bytes. */
    record Entity(long size, Instant modified, String etag, String contentType, Body body) {
    }

    /** Opens a byte range of the file (the caller closes it). */
    @FunctionalInterface
    interface Body {
        InputStream open(long offset, long length) throws IOException;
    }

    static void send(HttpServletRequest request, HttpServletResponse response, Entity file) throws IOException {
        boolean head = "HEAD".equals(request.getMethod());
        long modifiedSecond = file.modified().getEpochSecond(); // HTTP dates have whole seconds
        int precondition = precondition(request, file.etag(), modifiedSecond);
        if (precondition == 304) {
            response.setStatus(304);
            response.setHeader("ETag", file.etag());
            response.setDateHeader("Last-Modified", modifiedSecond * 1000);
            return;
        }
        if (precondition == 412) {
            error(response, head, 412, "the file's current version does not match the request's preconditions");
            return;
        }
        ByteRange range = null;
        if (rangeApplies(request.getHeader("If-Range"), file.etag(), modifiedSecond)) {
            try {
                range = ByteRange.parse(request.getHeader("Range"), file.size());
            } catch (ByteRange.Unsatisfiable e) {
                response.setHeader("Content-Range", "bytes */" + file.size());
                error(response, head, 416, "the range " + request.getHeader("Range") + " is outside the file ("
                        + file.size() + " bytes)");
                return;
            }
        }
        long start = range == null ? 0 : range.start();
        long length = range == null ? file.size() : range.length();
        if (range != null) {
            response.setStatus(206);
            response.setHeader("Content-Range", "bytes " + range.start() + "-" + range.end() + "/" + file.size());
        }
        response.setContentType(file.contentType());
        response.setHeader("ETag", file.etag());
        response.setDateHeader("Last-Modified", modifiedSecond * 1000);
        response.setHeader("Accept-Ranges", "bytes");
        response.setContentLengthLong(length);
        if (head || length == 0) {
            return;
        }
        try (InputStream in = file.body().open(start, length)) {
            copy(in, response.getOutputStream(), length);
        }
    }

    /** 0 to go on, 304 or 412. */
    static int precondition(HttpServletRequest request, String etag, long modifiedSecond) {
        boolean read = "GET".equals(request.getMethod()) || "HEAD".equals(request.getMethod());
        String ifMatch = request.getHeader("If-Match");
        if (ifMatch != null) {
            if (!matches(ifMatch, etag, false)) {
                return 412;
            }
        } else {
            long since = date(request.getHeader("If-Unmodified-Since"));
            if (since != Long.MIN_VALUE && modifiedSecond > since) {
                return 412;
            }
        }
        String ifNoneMatch = request.getHeader("If-None-Match");
        if (ifNoneMatch != null) {
            if (matches(ifNoneMatch, etag, true)) {
                return read ? 304 : 412;
            }
        } else if (read) {
            long since = date(request.getHeader("If-Modified-Since"));
            if (since != Long.MIN_VALUE && modifiedSecond <= since) {
                return 304;
            }
        }
        return 0;
    }

    /** A Range is honoured without If-Range, or when If-Range names this version (strong ETag, or the exact date). */
    static boolean rangeApplies(String ifRange, String etag, long modifiedSecond) {
        if (ifRange == null) {
            return true;
        }
        String v = ifRange.trim();
        if (v.startsWith("\"") || v.startsWith("W/")) {
            return v.equals(etag) && !etag.startsWith("W/");
        }
        return date(v) == modifiedSecond;
    }

    /** An If-Match / If-None-Match list against the ETag: {@code *}, or any member (weak comparison if asked). */
    static boolean matches(String header, String etag, boolean weak) {
        String h = header.trim();
        if (h.equals("*")) {
            return true;
        }
        String own = weak ? opaque(etag) : etag;
        for (String member : h.split(",")) {
            String m = member.trim();
            if (weak ? opaque(m).equals(own) : m.equals(own) && !m.startsWith("W/")) {
                return true;
            }
        }
        return false;
    }

    private static String opaque(String tag) {
        return tag.startsWith("W/") ? tag.substring(2) : tag;
    }

    /** An HTTP date in epoch seconds; {@link Long#MIN_VALUE} when absent or not a date (the header is ignored). */
    static long date(String header) {
        if (header == null) {
            return Long.MIN_VALUE;
        }
        try {
            return ZonedDateTime.parse(header.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toEpochSecond();
        } catch (DateTimeParseException e) {
            return Long.MIN_VALUE;
        }
    }

    private static void copy(InputStream in, OutputStream out, long length) throws IOException {
        byte[] buffer = new byte[(int) Math.min(CHUNK, length)];
        long written = 0;
        for (int n; (n = in.readNBytes(buffer, 0, buffer.length)) > 0; ) {
            try {
                out.write(buffer, 0, n);
            } catch (IOException gone) {
                LOG.log(Level.FINE, "the client went after {0} bytes of the body: {1}",
                        new Object[] {written, gone.toString()});
                return;
            }
            written += n;
        }
    }

    private static void error(HttpServletResponse response, boolean head, int status, String message)
            throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        byte[] body = ErrorBody.json(status, message).getBytes(StandardCharsets.UTF_8);
        response.setContentLength(body.length);
        if (!head) {
            response.getOutputStream().write(body);
        }
    }
}
