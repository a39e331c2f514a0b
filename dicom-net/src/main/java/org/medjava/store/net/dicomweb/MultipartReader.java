package org.medjava.store.net.dicomweb;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Reads a multipart body (RFC 2046, as STOW-RS sends {@code multipart/related}) part by part, streaming: each
 * part's body is an InputStream that ends at the next delimiter, so parts of any size pass without being held in
 * memory. The preamble and epilogue are skipped. Malformed input is an {@link IOException} saying what was wrong.
 */
final class MultipartReader {

    private static final int BUFFER = 1 << 16;
    private static final int MAX_HEADER_LINE = 8192;
    private static final int MAX_HEADERS = 64;
    private static final int MAX_BOUNDARY = 256;

    /** One part: its headers (names in lower case) and its body. */
    record Part(Map<String, String> headers, InputStream body) {
        String contentType() {
            return headers.getOrDefault("content-type", "");
        }
    }

    private final InputStream in;
    /** CRLF "--" boundary: what ends a part's body. */
    private final byte[] delimiter;
    private final byte[] buf;
    private int start;
    private int end;
    private boolean eof;
    private boolean finished;
    private BodyStream current;

    MultipartReader(InputStream in, String boundary) {
        // RFC 2046 allows 70 characters; some clients (Orthanc) send longer ones, which do no harm here
        if (boundary == null || boundary.isEmpty() || boundary.length() > MAX_BOUNDARY) {
            throw new IllegalArgumentException("a multipart boundary has 1 to " + MAX_BOUNDARY + " characters");
        }
        this.in = in;
        this.delimiter = ("\r\n--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
        this.buf = new byte[BUFFER + delimiter.length];
        // The first delimiter may open the body without a CRLF before it: read as if there were one.
        buf[0] = '\r';
        buf[1] = '\n';
        end = 2;
    }

    /** The next part, or null after the closing delimiter. The previous part's body is skipped if unread. */
    Part next() throws IOException {
        if (finished) {
            return null;
        }
        if (current == null) {
            skipToDelimiter(); // the preamble
        } else {
            current.skipRest();
        }
        // after a delimiter: "--" closes, otherwise (transport padding and) CRLF, then the part's headers
        ensure(2);
        if (end - start >= 2 && buf[start] == '-' && buf[start + 1] == '-') {
            finished = true;
            return null;
        }
        String rest = line();
        if (!rest.isBlank()) {
            throw new IOException("unexpected \"" + rest + "\" after a multipart boundary");
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (String line; !(line = line()).isEmpty(); ) {
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new IOException("malformed part header \"" + line + "\"");
            }
            if (headers.size() == MAX_HEADERS) {
                throw new IOException("more than " + MAX_HEADERS + " headers in a part");
            }
            headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
        }
        current = new BodyStream();
        return new Part(headers, current);
    }

    private void skipToDelimiter() throws IOException {
        BodyStream preamble = new BodyStream();
        preamble.skipRest();
    }

    /** Reads a CRLF-terminated line (ISO-8859-1, as header fields are). */
    private String line() throws IOException {
        StringBuilder sb = new StringBuilder();
        while (true) {
            ensure(1);
            if (start == end) {
                throw new IOException("the multipart body ends inside a part's headers");
            }
            byte b = buf[start++];
            if (b == '\n') {
                int len = sb.length();
                return len > 0 && sb.charAt(len - 1) == '\r' ? sb.substring(0, len - 1) : sb.toString();
            }
            if (sb.length() == MAX_HEADER_LINE) {
                throw new IOException("a part header line is longer than " + MAX_HEADER_LINE + " bytes");
            }
            sb.append((char) (b & 0xff));
        }
    }

    /** Makes at least {@code n} bytes available unless the input ends first. */
    private void ensure(int n) throws IOException {
        while (end - start < n && !eof) {
            if (start > 0) {
                System.arraycopy(buf, start, buf, 0, end - start);
                end -= start;
                start = 0;
            }
            int r = in.read(buf, end, buf.length - end);
            if (r < 0) {
                eof = true;
            } else {
                end += r;
            }
        }
    }

    private int indexOfDelimiter() {
        byte first = delimiter[0];
        outer:
        for (int i = start; i <= end - delimiter.length; i++) {
            if (buf[i] != first) {
                continue;
            }
            for (int j = 1; j < delimiter.length; j++) {
                if (buf[i + j] != delimiter[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** A part's body: the bytes up to the next delimiter, which it consumes at its end. */
    private final class BodyStream extends InputStream {
        private boolean done;

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (done) {
                return -1;
            }
            if (len == 0) {
                return 0;
            }
            ensure(delimiter.length);
            int at = indexOfDelimiter();
            int available;
            if (at >= 0) {
                available = at - start;
            } else if (eof) {
                throw new IOException("the multipart body ends without its closing boundary");
            } else {
                available = end - start - (delimiter.length - 1); // the tail may begin a delimiter
            }
            if (available == 0 && at == start) {
                start += delimiter.length;
                done = true;
                return -1;
            }
            if (available <= 0) {
                ensure(end - start + 1);
                return read(b, off, len);
            }
            int n = Math.min(len, available);
            System.arraycopy(buf, start, b, off, n);
            start += n;
            return n;
        }

        void skipRest() throws IOException {
            byte[] skip = new byte[8192];
            while (read(skip, 0, skip.length) >= 0) {
                // discard
            }
        }
    }
}
