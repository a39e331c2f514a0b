package org.medjava.store.server.http;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;

/**
 * A stored file's name as a request path carries it, read the way JAX-RS reads a {@code @PathParam}, so that the
 * authentication mechanism and the access checks name the same file as the resource that answers.
 */
public final class PathParams {

    private PathParams() {
    }

    /**
     * Percent-decoding of a path as JAX-RS does it for {@code @PathParam} (UTF-8; a {@code +} stays a plus); null for
     * a malformed escape or malformed UTF-8, left to JAX-RS to answer.
     */
    public static String decode(String path) {
        if (path.indexOf('%') < 0) {
            return path;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(path.length());
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '%') {
                if (i + 2 >= path.length()) {
                    return null;
                }
                int hi = Character.digit(path.charAt(i + 1), 16);
                int lo = Character.digit(path.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    return null;
                }
                bytes.write(hi << 4 | lo);
                i += 2;
            } else if (c < 0x80) {
                bytes.write(c);
            } else {
                return null; // not how a client sends a path: JAX-RS decides
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
