package org.medjava.codec.dicom;

import org.medjava.codec.ImageDecodeException;

/**
 * A well-formed DICOM object whose pixels this codec cannot decode (a transfer syntax without a decoder, JPEG-LS
 * when CharLS cannot be loaded, an unsupported photometric interpretation or bit depth): it may still be stored and
 * served as it is.
 */
public class UnsupportedDicomException extends ImageDecodeException {
    private static final long serialVersionUID = 1L;

    public UnsupportedDicomException(String message) {
        super(message);
    }
}
