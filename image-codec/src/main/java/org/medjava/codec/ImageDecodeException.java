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
}
