package org.medjava.store.testkit.store;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, byte for byte as the test writes it: request lines no client library would send
 * (NUL, backslashes, raw {@code ;}, a hostile {@code Host}), bodies that lie about their length, connections
 * dropped mid-upload. One request per connection ({@code Connection: close}); the answer is read whole.
 */
public final class RawHttp {

    private final String host;
    private final int port;

    public RawHttp(String host, int port) {
        this.host = host;
        this.port = port;
    }

    public static RawHttp to(PayaraStore store) {
        return new RawHttp("127.0.0.1", store.port());
    }

    /** A parsed answer; {@code headers} by lower-case name (the last of repeated ones). */
    public record Response(int status, Map<String, String> headers, byte[] body) {
        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /**
     * Sends {@code method target HTTP/1.1}, then {@code headerLines} (each ending in CRLF; a {@code Host} line and
     * {@code Connection: close} are added unless given), then {@code body} (with its Content-Length unless the
     * headers give one or a Transfer-Encoding), and reads the answer.
     */
    public Response send(String method, String target, String headerLines, byte[] body) throws IOException {
        try (Socket socket = new Socket(host, port)) {
            socket.setSoTimeout(60_000);
            StringBuilder head = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\n");
            String lower = headerLines.toLowerCase(Locale.ROOT);
            if (!lower.startsWith("host:") && !lower.contains("\nhost:")) {
                head.append("Host: 127.0.0.1:").append(port).append("\r\n");
            }
            head.append(headerLines);
            if (!lower.contains("connection:")) {
                head.append("Connection: close\r\n");
            }
            if (body != null && !lower.contains("content-length:") && !lower.contains("transfer-encoding:")) {
                head.append("Content-Length: ").append(body.length).append("\r\n");
            }
            head.append("\r\n");
            OutputStream out = socket.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            if (body != null) {
                try {
                    out.write(body);
                } catch (IOException e) {
                    // the store may answer (413, 400) and close before taking the whole body: read what it said
                }
            }
            out.flush();
            return read(socket.getInputStream());
        }
    }

    /**
     * Sends HEAD requests for {@code targets} pipelined on one connection, all in one write (each with
     * {@code headerLines}, the last with {@code Connection: close}), and reads their answers in the order they come.
     */
    public List<Response> pipelinedHeads(List<String> targets, String headerLines) throws IOException {
        try (Socket socket = new Socket(host, port)) {
            socket.setSoTimeout(60_000);
            StringBuilder requests = new StringBuilder();
            for (int i = 0; i < targets.size(); i++) {
                requests.append("HEAD ").append(targets.get(i)).append(" HTTP/1.1\r\nHost: 127.0.0.1:").append(port)
                        .append("\r\n").append(headerLines)
                        .append(i == targets.size() - 1 ? "Connection: close\r\n" : "").append("\r\n");
            }
            socket.getOutputStream().write(requests.toString().getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            byte[] all = socket.getInputStream().readAllBytes(); // the server closes after the last answer
            List<Response> answers = new ArrayList<>();
            for (int start = 0, end; (end = indexOf(all, start)) >= 0; start = end + 4) {
                answers.add(parse(java.util.Arrays.copyOfRange(all, start, end + 4), true));
            }
            return answers;
        }
    }

    /**
     * Starts an upload that announces {@code declared} bytes, sends {@code sent} of them and drops the connection
     * (a reset, as a crashed client's kernel would send).
     */
    public void dropMidUpload(String method, String target, String headerLines, long declared, byte[] sent)
            throws IOException {
        try (Socket socket = new Socket(host, port)) {
            String head = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n" + headerLines
                    + "Content-Length: " + declared + "\r\n\r\n";
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.ISO_8859_1));
            out.write(sent);
            out.flush();
            socket.setSoLinger(true, 0); // RST on close
        }
    }

    /** Reads one whole answer from a connection. */
    public static Response read(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buffer = new byte[16384];
        try {
            for (int n; (n = in.read(buffer)) > 0; ) {
                all.write(buffer, 0, n);
                Response done = parse(all.toByteArray(), false);
                if (done != null) {
                    return done;
                }
            }
        } catch (SocketTimeoutException e) {
            throw new IOException("no complete answer within 60 s; got: " + all.toString(StandardCharsets.ISO_8859_1),
                    e);
        } catch (IOException e) {
            if (all.size() == 0) {
                throw e;
            }
            // reset after the answer: keep what arrived
        }
        Response r = parse(all.toByteArray(), true);
        if (r == null) {
            throw new IOException("the connection closed without an answer ("
                    + all.size() + " bytes: " + all.toString(StandardCharsets.ISO_8859_1) + ")");
        }
        return r;
    }

    /** The answer once it is complete (skipping 1xx interim answers), or null; {@code closed}: no more bytes come. */
    static Response parse(byte[] bytes, boolean closed) {
        int start = 0;
        while (true) {
            int end = indexOf(bytes, start);
            if (end < 0) {
                return null;
            }
            String[] lines = new String(bytes, start, end - start, StandardCharsets.ISO_8859_1).split("\r\n");
            String[] statusLine = lines[0].split(" ", 3);
            if (statusLine.length < 2) {
                return closed ? new Response(-1, Map.of(), bytes) : null;
            }
            int status = Integer.parseInt(statusLine[1]);
            Map<String, String> headers = new LinkedHashMap<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                if (colon > 0) {
                    headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                            lines[i].substring(colon + 1).trim());
                }
            }
            int bodyStart = end + 4;
            if (status >= 100 && status < 200) {
                start = bodyStart;
                continue;
            }
            byte[] rest = java.util.Arrays.copyOfRange(bytes, bodyStart, bytes.length);
            String length = headers.get("content-length");
            if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
                byte[] body = dechunk(rest);
                return body != null ? new Response(status, headers, body)
                        : closed ? new Response(status, headers, rest) : null;
            }
            if (length != null) {
                int n = Integer.parseInt(length);
                if (rest.length >= n) {
                    return new Response(status, headers, java.util.Arrays.copyOf(rest, n));
                }
                return closed ? new Response(status, headers, rest) : null;
            }
            return closed ? new Response(status, headers, rest) : null;
        }
    }

    private static int indexOf(byte[] b, int from) {
        for (int i = from; i + 3 < b.length; i++) {
            if (b[i] == '\r' && b[i + 1] == '\n' && b[i + 2] == '\r' && b[i + 3] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** The body of a complete chunked encoding, or null while it is incomplete. */
    private static byte[] dechunk(byte[] b) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int i = 0;
        while (true) {
            int eol = -1;
            for (int j = i; j + 1 < b.length; j++) {
                if (b[j] == '\r' && b[j + 1] == '\n') {
                    eol = j;
                    break;
                }
            }
            if (eol < 0) {
                return null;
            }
            int size = Integer.parseInt(new String(b, i, eol - i, StandardCharsets.ISO_8859_1).split(";")[0].trim(),
                    16);
            if (size == 0) {
                return out.toByteArray();
            }
            if (eol + 2 + size + 2 > b.length) {
                return null;
            }
            out.write(b, eol + 2, size);
            i = eol + 2 + size + 2;
        }
    }
}
