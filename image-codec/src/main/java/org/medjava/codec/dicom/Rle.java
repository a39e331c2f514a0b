package org.medjava.codec.dicom;

import org.medjava.codec.ImageDecodeException;

/**
 * DICOM RLE Lossless (PS3.5 Annex G) in every layout: one segment a byte of each sample, most significant byte first,
 * so 8-, 16- and 32-bit grey or colour frames all decode the same way (PixelMed decodes only 8-bit and 16-bit grey).
 */
final class Rle {
    private Rle() {
    }

    /** The native frame: samples of Bits Allocated bits, little endian, pixel-interleaved. */
    static byte[] decode(byte[] data, PixelFrames.Layout layout) throws ImageDecodeException {
        int bytesPerSample = layout.bitsAllocated() / 8;
        if (layout.bitsAllocated() % 8 != 0 || bytesPerSample < 1 || bytesPerSample > 4) {
            throw new ImageDecodeException("RLE with Bits Allocated " + layout.bitsAllocated() + " is not decoded");
        }
        int segments = layout.samples() * bytesPerSample;
        if (data.length < 64) {
            throw new ImageDecodeException("RLE frame shorter than its 64-byte header");
        }
        int declared = u32(data, 0);
        if (declared != segments) {
            throw new ImageDecodeException("RLE frame has " + declared + " segments, " + segments + " expected for "
                    + layout.samples() + " samples of " + layout.bitsAllocated() + " bits");
        }
        int pixels = layout.rows() * layout.columns();
        int stride = segments; // bytes a pixel in the output
        byte[] out = new byte[pixels * stride];
        byte[] segment = new byte[pixels];
        for (int s = 0; s < segments; s++) {
            int start = u32(data, 4 + 4 * s);
            int end = s + 1 < segments ? u32(data, 8 + 4 * s) : data.length;
            if (start < 64 || end < start || end > data.length) {
                throw new ImageDecodeException("RLE segment " + (s + 1) + " offsets are out of range");
            }
            unpack(data, start, end, segment);
            int sample = s / bytesPerSample;
            int byteInSample = bytesPerSample - 1 - s % bytesPerSample; // segments go most significant first
            int offset = sample * bytesPerSample + byteInSample;
            for (int p = 0; p < pixels; p++) {
                out[p * stride + offset] = segment[p];
            }
        }
        return out;
    }

    /** PackBits; a segment that decodes short is an error, extra bytes (padding) are ignored. */
    private static void unpack(byte[] data, int from, int to, byte[] out) throws ImageDecodeException {
        int o = 0;
        int i = from;
        while (o < out.length && i < to) {
            int n = data[i++];
            if (n >= 0) {
                int count = n + 1;
                if (i + count > to || o + count > out.length) {
                    count = Math.min(to - i, out.length - o);
                }
                System.arraycopy(data, i, out, o, count);
                i += count;
                o += count;
            } else if (n != -128) {
                if (i >= to) {
                    break;
                }
                int count = Math.min(1 - n, out.length - o);
                java.util.Arrays.fill(out, o, o + count, data[i++]);
                o += count;
            }
        }
        if (o < out.length) {
            throw new ImageDecodeException("RLE segment decodes to " + o + " bytes, " + out.length + " expected");
        }
    }

    private static int u32(byte[] b, int p) {
        return (b[p] & 0xFF) | (b[p + 1] & 0xFF) << 8 | (b[p + 2] & 0xFF) << 16 | (b[p + 3] & 0xFF) << 24;
    }
}
