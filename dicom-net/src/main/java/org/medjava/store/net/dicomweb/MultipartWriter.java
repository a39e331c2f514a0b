package org.medjava.store.net.dicomweb;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/** Writes a {@code multipart/related} response part by part (RFC 2387), as WADO-RS answers. */
final class MultipartWriter {

    private final OutputStream out;
    private final String boundary;

    MultipartWriter(OutputStream out, String boundary) {
        this.out = out;
        this.boundary = boundary;
    }

    static String newBoundary() {
        return "medjava-" + UUID.randomUUID();
    }

    /** The response's Content-Type for parts of {@code type}. */
    static String contentType(String type, String boundary) {
        return "multipart/related; type=\"" + type + "\"; boundary=" + boundary;
    }

    void part(String contentType, String contentLocation, InputStream body) throws IOException {
        head(contentType, contentLocation);
        body.transferTo(out);
        out.write(CRLF);
    }

    void part(String contentType, String contentLocation, byte[] body) throws IOException {
        head(contentType, contentLocation);
        out.write(body);
        out.write(CRLF);
    }

    private void head(String contentType, String contentLocation) throws IOException {
        out.write(head(boundary, contentType, contentLocation));
    }

    /** What comes before a part's body: the delimiter and the part's headers. */
    static byte[] head(String boundary, String contentType, String contentLocation) {
        StringBuilder h = new StringBuilder("--").append(boundary).append("\r\nContent-Type: ").append(contentType)
                .append("\r\n");
        if (contentLocation != null) {
            h.append("Content-Location: ").append(contentLocation).append("\r\n");
        }
        return h.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /** What ends the body: the close delimiter. */
    static byte[] close(String boundary) {
        return ("--" + boundary + "--\r\n").getBytes(StandardCharsets.ISO_8859_1);
    }

    void finish() throws IOException {
        out.write(close(boundary));
        out.flush();
    }

    /** What follows each part's body. */
    static final byte[] CRLF = {'\r', '\n'};
}
