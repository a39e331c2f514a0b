package org.medjava.store.testkit.http;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** multipart/related for the tests, written here independently of the store's own reader and writer. */
public final class Multipart {

    /** One part: headers (lower-case names) and bytes. */
    public record Part(Map<String, String> headers, byte[] body) {
        public String contentType() {
            return headers.getOrDefault("content-type", "");
        }
    }

    private Multipart() {
    }

    /** A body of application/dicom parts with the given boundary. */
    public static byte[] dicom(String boundary, List<byte[]> parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(("--" + boundary + "\r\nContent-Type: application/dicom\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.writeBytes(p);
            out.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        }
        out.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.ISO_8859_1));
        return out.toByteArray();
    }

    /** Splits a response body by the boundary named in its Content-Type header. */
    public static List<Part> parse(byte[] body, String contentType) {
        String boundary = null;
        for (String param : contentType.split(";")) {
            String p = param.trim();
            if (p.toLowerCase(Locale.ROOT).startsWith("boundary=")) {
                boundary = p.substring(9).replace("\"", "");
            }
        }
        if (boundary == null) {
            throw new AssertionError("no boundary in " + contentType);
        }
        byte[] delimiter = ("--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
        List<Part> parts = new ArrayList<>();
        int at = indexOf(body, delimiter, 0);
        while (at >= 0) {
            int afterDelimiter = at + delimiter.length;
            if (body[afterDelimiter] == '-' && body[afterDelimiter + 1] == '-') {
                return parts;
            }
            int headersEnd = indexOf(body, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1), afterDelimiter);
            Map<String, String> headers = new LinkedHashMap<>();
            for (String line : new String(body, afterDelimiter, headersEnd - afterDelimiter,
                    StandardCharsets.ISO_8859_1).split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0) {
                    headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT),
                            line.substring(colon + 1).trim());
                }
            }
            byte[] crlfDelimiter = ("\r\n--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
            int next = indexOf(body, crlfDelimiter, headersEnd + 4);
            parts.add(new Part(headers, Arrays.copyOfRange(body, headersEnd + 4, next)));
            at = next + 2;
        }
        throw new AssertionError("no closing boundary");
    }

    private static int indexOf(byte[] data, byte[] pattern, int from) {
        outer:
        for (int i = from; i <= data.length - pattern.length; i++) {
            for (int j = 0; j < pattern.length; j++) {
                if (data[i + j] != pattern[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
