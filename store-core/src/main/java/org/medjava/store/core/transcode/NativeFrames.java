package org.medjava.store.core.transcode;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.OtherWordAttribute;
import com.pixelmed.dicom.TagFromName;

/**
 * The uncompressed pixel data of a data set as frames of samples, pixel-interleaved (R,G,B,R,G,B... whatever the
 * Planar Configuration), each sample as its bit pattern (0..255 or 0..65535; signed values are not sign-extended
 * here, so encoding them keeps their bits).
 */
record NativeFrames(int rows, int columns, int samplesPerPixel, int bitsAllocated, int bitsStored, boolean signed,
                    int frames, int[][] samples) {

    static NativeFrames of(AttributeList list) throws NotTranscodable {
        int rows = Attribute.getSingleIntegerValueOrDefault(list, TagFromName.Rows, 0);
        int columns = Attribute.getSingleIntegerValueOrDefault(list, TagFromName.Columns, 0);
        int spp = Attribute.getSingleIntegerValueOrDefault(list, TagFromName.SamplesPerPixel, 1);
        int bits = Attribute.getSingleIntegerValueOrDefault(list, TagFromName.BitsAllocated, 0);
        int frames = Math.max(1, Attribute.getSingleIntegerValueOrDefault(list, TagFromName.NumberOfFrames, 1));
        boolean planar = Attribute.getSingleIntegerValueOrDefault(list, TagFromName.PlanarConfiguration, 0) == 1;
        Attribute pixelData = list.getPixelData();
        if (pixelData == null || rows <= 0 || columns <= 0) {
            throw new NotTranscodable("the instance has no pixel data to compress");
        }
        if (bits != 8 && bits != 16 || spp != 1 && spp != 3) {
            throw new NotTranscodable("only 8- and 16-bit grey or three-sample pixel data are compressed here, not "
                    + bits + "-bit with " + spp + " sample(s) per pixel");
        }
        int perFrame = rows * columns * spp;
        int[][] out = new int[frames][perFrame];
        try {
            boolean words = pixelData instanceof OtherWordAttribute; // else bytes, whatever the bit depth
            short[] w = words ? pixelData.getShortValues() : null;
            byte[] b = words ? null : pixelData.getByteValues();
            long have = words ? w.length * 2L : b.length;
            need(have, (long) perFrame * frames * (bits / 8));
            for (int f = 0; f < frames; f++) {
                for (int i = 0; i < perFrame; i++) {
                    long at = (long) f * perFrame + i;
                    int v = bits == 8 ? byteAt(w, b, at) : byteAt(w, b, 2 * at) | byteAt(w, b, 2 * at + 1) << 8;
                    out[f][interleaved(i, rows * columns, spp, planar)] = v;
                }
            }
        } catch (DicomException e) {
            throw new NotTranscodable("the pixel data cannot be read: " + e.getMessage(), e);
        }
        int stored = Attribute.getSingleIntegerValueOrDefault(list, TagFromName.BitsStored, bits);
        boolean signed = Attribute.getSingleIntegerValueOrDefault(list, TagFromName.PixelRepresentation, 0) == 1;
        return new NativeFrames(rows, columns, spp, bits, stored <= 0 || stored > bits ? bits : stored, signed,
                frames, out);
    }

    private static void need(long have, long want) throws NotTranscodable {
        if (have < want) {
            throw new NotTranscodable("the pixel data hold " + have + " bytes where the image needs " + want);
        }
    }

    /** Byte {@code i} of the value in little-endian order, from 16-bit words or from bytes. */
    private static int byteAt(short[] words, byte[] bytes, long i) {
        return words != null ? (words[(int) (i >> 1)] >> (8 * (int) (i & 1))) & 0xFF : bytes[(int) i] & 0xFF;
    }

    /** Where sample {@code i} of a frame (in stored order) goes in pixel-interleaved order. */
    private static int interleaved(int i, int pixels, int spp, boolean planar) {
        if (!planar || spp == 1) {
            return i;
        }
        return (i % pixels) * spp + i / pixels;
    }

    /**
     * The fewest bits that hold every sample as stored: Bits Stored for unsigned samples that fit in it, else Bits
     * Allocated (signed samples narrower than Bits Allocated are sign-extended, their upper bits in use).
     */
    int precision() {
        if (signed && bitsStored < bitsAllocated) {
            return bitsAllocated;
        }
        int limit = 1 << bitsStored;
        for (int[] frame : samples) {
            for (int v : frame) {
                if (v >= limit) {
                    return bitsAllocated;
                }
            }
        }
        return bitsStored;
    }

    int bytesPerFrame() {
        return rows * columns * samplesPerPixel * (bitsAllocated / 8);
    }
}
