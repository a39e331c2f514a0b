package org.medjava.filter.testkit;

import java.util.Arrays;
import java.util.HexFormat;

/** Finding a byte pattern in a test's file, to damage or inspect it there. */
public final class ByteSearch {
    private ByteSearch() {
    }

    /**
     * Where {@code pattern} first occurs in {@code data}.
     *
     * @throws AssertionError when it does not (the test's sample is not what it thinks)
     */
    public static int indexOf(byte[] data, byte[] pattern) {
        for (int i = 0; i + pattern.length <= data.length; i++) {
            if (Arrays.equals(data, i, i + pattern.length, pattern, 0, pattern.length)) {
                return i;
            }
        }
        throw new AssertionError("pattern " + HexFormat.of().formatHex(pattern) + " not found");
    }
}
