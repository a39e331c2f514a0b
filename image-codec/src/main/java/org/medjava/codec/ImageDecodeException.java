package org.medjava.codec;

import java.io.IOException;

/** Bytes that are not a decodable image of the expected kind; the message says what was wrong. */
public class ImageDecodeException extends IOException {
    private static final long serialVersionUID = 1L;

    public ImageDecodeException(String message) {
        super(message);
    }

    public ImageDecodeException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * Whether {@code e}, thrown from inside a decoder, means bad data rather than a failing JVM: JJ2000 (the JPEG 2000
     * decoder inside PixelMed and jai-imageio) throws a plain {@code java.lang.Error} for a damaged code stream
     * ("Corrupted Bitstream: Could not parse EPH marker", found by the fuzz round) and its own
     * {@code NotImplementedError} for what it cannot decode. Anything else — OutOfMemoryError, StackOverflowError,
     * LinkageError — goes on.
     */
    public static boolean isDecoderRefusal(Error e) {
        return e.getClass() == Error.class || e.getClass().getName().startsWith("jj2000.");
    }
}
