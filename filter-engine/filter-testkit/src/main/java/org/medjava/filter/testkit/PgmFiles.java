package org.medjava.filter.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.medjava.filter.GrayRaster16;

/**
 * Binary PGM (P5) files holding grey rasters of 1..16 bits: the grey golden cases' format (docs/filters.md).
 * The maxval is {@code 2^b − 1}; each sample is the pixel's offset value {@code u = v − min} (so signed values are
 * stored offset by {@code 2^(b−1)}), one byte when the maxval is below 256 and two bytes, most significant first,
 * otherwise (Netpbm). Signedness is not in the file: the case says it. Writers write {@code P5\n<w> <h>\n<maxval>\n}.
 */
public final class PgmFiles {

    private PgmFiles() {
    }

    /**
     * Reads a P5 file as a raster of the given format.
     *
     * @throws IOException when the file is not P5, is truncated, or its maxval is not {@code 2^bitsStored − 1}
     */
    public static GrayRaster16 read(Path file, int bitsStored, boolean signed) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            if (!"P5".equals(token(in))) {
                throw new IOException(file + " is not a binary PGM (P5)");
            }
            int width = Integer.parseInt(token(in));
            int height = Integer.parseInt(token(in));
            int maxval = Integer.parseInt(token(in));
            int range = (1 << bitsStored) - 1;
            if (maxval != range) {
                throw new IOException(file + ": maxval " + maxval + " does not match " + bitsStored
                        + " bits stored (expected " + range + ")");
            }
            int bytesPerSample = maxval < 256 ? 1 : 2;
            byte[] data = in.readNBytes(bytesPerSample * width * height);
            if (data.length != bytesPerSample * width * height) {
                throw new IOException(file + " is truncated");
            }
            GrayRaster16 raster = new GrayRaster16(width, height, bitsStored, signed);
            short[] words = raster.words();
            int min = raster.minValue();
            for (int i = 0; i < words.length; i++) {
                int u = bytesPerSample == 1 ? data[i] & 0xFF : (data[2 * i] & 0xFF) << 8 | data[2 * i + 1] & 0xFF;
                if (u > maxval) {
                    throw new IOException(file + ": sample " + u + " at (" + i % width + "," + i / width
                            + ") exceeds maxval " + maxval);
                }
                words[i] = GrayRaster16.word(u, min);
            }
            return raster;
        }
    }

    public static void write(GrayRaster16 raster, Path file) throws IOException {
        Files.write(file, bytes(raster));
    }

    /** The file's bytes. */
    public static byte[] bytes(GrayRaster16 raster) {
        int maxval = raster.range();
        int bytesPerSample = maxval < 256 ? 1 : 2;
        byte[] header = ("P5\n" + raster.width() + " " + raster.height() + "\n" + maxval + "\n")
                .getBytes(StandardCharsets.US_ASCII);
        int n = raster.width() * raster.height();
        byte[] out = new byte[header.length + bytesPerSample * n];
        System.arraycopy(header, 0, out, 0, header.length);
        for (int i = 0, o = header.length; i < n; i++) {
            int u = raster.offsetValue(i);
            if (bytesPerSample == 2) {
                out[o++] = (byte) (u >>> 8);
            }
            out[o++] = (byte) u;
        }
        return out;
    }

    /** One header field; consumes the single whitespace byte after it. */
    private static String token(InputStream in) throws IOException {
        ByteArrayOutputStream field = new ByteArrayOutputStream();
        for (int c = in.read(); c != -1; c = in.read()) {
            if (Character.isWhitespace(c)) {
                if (field.size() > 0) {
                    break;
                }
            } else {
                field.write(c);
            }
        }
        return field.toString(StandardCharsets.US_ASCII);
    }
}
