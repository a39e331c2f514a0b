package org.medjava.store.core.transcode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * An uncompressed object written again as HTJ2K Lossless RPCL (1.2.840.10008.1.2.4.202) for storage, and kept only
 * when it is: the written file is decoded again (OpenJPH, as every later reader decodes it) and every sample of every
 * frame must come back with the bit pattern it was received with. The attributes other than the pixel data, the
 * transfer syntax and the file meta information are written as they were read.
 */
public final class LosslessRecompression {

    /**
     * Objects larger than this (bytes) are not recompressed: the check holds the image's samples twice, as ints,
     * besides PixelMed's copy (about 10 times the pixel data), and the store's heap is sized for serving, not for
     * that. A 512² CT slice is 0.5 MiB, a 30-frame 640×480 colour ultrasound 27 MiB.
     */
    public static final long MAX_BYTES = 32L << 20;

    private LosslessRecompression() {
    }

    /** Whether an object in {@code transferSyntax} of {@code bytes} is one this recompresses (others stay as sent). */
    public static boolean applies(String transferSyntax, long bytes) {
        return TransferSyntaxes.isNative(transferSyntax) && bytes <= MAX_BYTES;
    }

    /**
     * Writes the uncompressed object at {@code file}, stored in {@code from}, to {@code out} in HTJ2K Lossless RPCL
     * and checks it by decoding {@code out}.
     *
     * @param sourceAe the Source Application Entity Title of the new file meta information
     * @throws NotTranscodable when the object cannot be written so (no pixel data, a layout the encoder does not
     *                         take) or the check finds a sample changed; {@code out} is then to be discarded
     */
    public static void toHtj2k(Path file, String from, Path out, String sourceAe) throws IOException,
            NotTranscodable {
        if (!TransferSyntaxes.isNative(from)) {
            throw new NotTranscodable("only uncompressed objects are recompressed, not "
                    + TransferSyntaxes.name(from));
        }
        NativeFrames before = NativeFrames.of(Transcoder.decode(file, from, from));
        Files.write(out, Transcoder.part10(file, from, TransferSyntaxes.HTJ2K_RPCL_LOSSLESS, sourceAe));
        NativeFrames after = NativeFrames.of(Transcoder.decode(out, TransferSyntaxes.HTJ2K_RPCL_LOSSLESS,
                TransferSyntaxes.EXPLICIT_LE));
        String changed = difference(before, after);
        if (changed != null) {
            throw new NotTranscodable("HTJ2K did not give the samples back: " + changed);
        }
    }

    /** What differs between two images, or null when they are the same samples in the same geometry. */
    static String difference(NativeFrames a, NativeFrames b) {
        if (a.rows() != b.rows() || a.columns() != b.columns() || a.samplesPerPixel() != b.samplesPerPixel()
                || a.bitsAllocated() != b.bitsAllocated() || a.frames() != b.frames()) {
            return "the geometry changed (" + a.columns() + "×" + a.rows() + "×" + a.samplesPerPixel() + ", "
                    + a.frames() + " frames → " + b.columns() + "×" + b.rows() + "×" + b.samplesPerPixel() + ", "
                    + b.frames() + ")";
        }
        for (int f = 0; f < a.frames(); f++) {
            int at = Arrays.mismatch(a.samples()[f], b.samples()[f]);
            if (at >= 0) {
                return "frame " + (f + 1) + ", sample " + at + ": " + a.samples()[f][at] + " → " + b.samples()[f][at];
            }
        }
        return null;
    }
}
