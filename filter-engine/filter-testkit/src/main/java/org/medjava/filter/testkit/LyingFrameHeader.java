package org.medjava.filter.testkit;

import java.util.HexFormat;

/**
 * A compressed frame whose own header claims another size than the DICOM header's Rows x Columns: the hostile input
 * of the coded-frame-size check (a decoder would allocate what the frame header says). Patches the first JPEG SOF or
 * JPEG 2000 SIZ marker found in a byte array, file or bare frame alike.
 */
public enum LyingFrameHeader {
    /** JPEG baseline SOF0: height, then width, 2 bytes each, 5 bytes after the marker's start. */
    JPEG_SOF0("FFC0", 5, 2),
    /** JPEG extended SOF1 (12-bit), laid out as SOF0. */
    JPEG_SOF1("FFC1", 5, 2),
    /** JPEG 2000 SOC then SIZ: Xsiz, then Ysiz, 4 bytes each, 8 bytes after SOC (image offsets are 0). */
    JPEG2000_SIZ("FF4FFF51", 8, 4);

    private final byte[] marker;
    private final int sizeOffset;
    private final int fieldBytes;

    LyingFrameHeader(String marker, int sizeOffset, int fieldBytes) {
        this.marker = HexFormat.of().parseHex(marker);
        this.sizeOffset = sizeOffset;
        this.fieldBytes = fieldBytes;
    }

    /**
     * Writes {@code size} into both size fields of the first marker in {@code data}, in place.
     *
     * @return {@code data}
     * @throws AssertionError when the marker is not there (the test's sample is not what it thinks)
     */
    public byte[] claim(byte[] data, int size) {
        int at = ByteSearch.indexOf(data, marker);
        for (int p = at + sizeOffset; p < at + sizeOffset + 2 * fieldBytes; p += fieldBytes) {
            for (int k = 0; k < fieldBytes; k++) {
                data[p + k] = (byte) (size >>> 8 * (fieldBytes - 1 - k));
            }
        }
        return data;
    }
}
