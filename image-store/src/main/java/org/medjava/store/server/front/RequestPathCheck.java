package org.medjava.store.server.front;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Whether a request's raw path can be decoded into the one path every part of the store would see. The servlet
 * container decodes it only once it has committed to the request, and on a malformed escape it logged a stack trace
 * and answered with no reason (200 to a PUT: a write the client took for stored). The front ({@link FrontReads}) asks this
 * first, for every method, and refuses what fails with 400 and the reason.
 */
final class RequestPathCheck {

    private RequestPathCheck() {
    }

    /** Why {@code rawPath} (as sent, before decoding, without its query) cannot be decoded; null when it can. */
    static String problem(String rawPath) {
        if (rawPath.indexOf('%') < 0) {
            return null;
        }
        byte[] decoded = new byte[rawPath.length()];
        int n = 0;
        for (int i = 0; i < rawPath.length(); i++) {
            char c = rawPath.charAt(i);
            if (c != '%') {
                decoded[n++] = (byte) c; // the container reads the request line as ISO-8859-1: one byte a char
                continue;
            }
            int hi = i + 2 < rawPath.length() ? Character.digit(rawPath.charAt(i + 1), 16) : -1;
            int lo = hi >= 0 ? Character.digit(rawPath.charAt(i + 2), 16) : -1;
            if (lo < 0) {
                return "the address has a malformed percent escape (" + escape(rawPath, i) + "): '%' must be followed "
                        + "by two hexadecimal digits; write a '%' itself as %25";
            }
            int b = hi << 4 | lo;
            if (b == '/' || b == 0) {
                return "the address has an encoded " + (b == 0 ? "NUL" : "'/'") + " (" + rawPath.substring(i, i + 3)
                        + "), which no stored name can hold";
            }
            decoded[n++] = (byte) b;
            i += 2;
        }
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(decoded, 0, n));
        } catch (CharacterCodingException e) {
            return "the address's percent escapes are not UTF-8; encode names as UTF-8 bytes";
        }
        return null;
    }

    /** The escape at {@code i} as sent, at most three characters and printable. */
    private static String escape(String rawPath, int i) {
        String s = rawPath.substring(i, Math.min(rawPath.length(), i + 3));
        StringBuilder out = new StringBuilder();
        for (char c : s.toCharArray()) {
            out.append(c >= 0x21 && c < 0x7f ? c : '?');
        }
        return out.toString();
    }
}
