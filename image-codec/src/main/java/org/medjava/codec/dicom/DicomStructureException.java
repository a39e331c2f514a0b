package org.medjava.codec.dicom;

import org.medjava.codec.ImageDecodeException;

/**
 * A DICOM data set refused by {@link DicomPreScan} before any parser recursed into it: nested or repeated beyond the
 * reader's limits, or with lengths that do not fit the data. Never stored; the message says what was wrong.
 */
public class DicomStructureException extends ImageDecodeException {
    private static final long serialVersionUID = 1L;

    public DicomStructureException(String message) {
        super(message);
    }
}
