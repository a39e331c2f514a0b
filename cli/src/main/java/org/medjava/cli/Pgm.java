package org.medjava.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.medjava.codec.ImageCodec;
import org.medjava.filter.GrayRaster16;

/**
 * Binary PGM (P5) of grey stored values, as the grey golden cases hold them (docs/filters.md): maxval
 * {@code 2^b − 1}, each sample the offset value {@code u = v − min} (signed values offset by {@code 2^(b−1)}), one
 * byte below maxval 256, else two, most significant first. The sign is not in the file: {@code --gray s12} says it;
 * without it the file is unsigned with the bits its maxval gives.
 */
final class Pgm {
    private Pgm() {
    }

    static GrayRaster16 read(Path file, String format) throws IOException {
        try (InputStream in = new java.io.BufferedInputStream(Files.newInputStream(file))) {
            if (!"P5".equals(token(in))) {
                throw new IOException(file + " is not a binary PGM (P5)");
            }
            int width;
            int height;
            int maxval;
            try {
                width = Integer.parseInt(token(in));
                height = Integer.parseInt(token(in));
                maxval = Integer.parseInt(token(in));
            } catch (NumberFormatException e) {
                throw new IOException(file + ": damaged PGM header");
            }
            int bits = 32 - Integer.numberOfLeadingZeros(Math.max(1, maxval));
            if (maxval < 1 || maxval > 65535 || maxval != (1 << bits) - 1) {
                throw new IOException(file + ": maxval " + maxval + " is not 2^b - 1 for b bits stored, 1..16");
            }
            boolean signed = format != null && format.startsWith("s");
            if (format != null && Integer.parseInt(format.substring(1)) != bits) {
                throw new IOException(file + ": maxval " + maxval + " does not match --gray " + format
                        + " (expected " + ((1 << Integer.parseInt(format.substring(1))) - 1) + ")");
            }
            int bytes = maxval < 256 ? 1 : 2;
            byte[] data = in.readNBytes(bytes * width * height);
            if (data.length != bytes * width * height) {
                throw new IOException(file + " is truncated");
            }
            GrayRaster16 raster = new GrayRaster16(width, height, bits, signed);
            short[] words = raster.words();
            for (int i = 0; i < words.length; i++) {
                int u = bytes == 1 ? data[i] & 0xFF : (data[2 * i] & 0xFF) << 8 | data[2 * i + 1] & 0xFF;
                if (u > maxval) {
                    throw new IOException(file + ": sample " + u + " at (" + i % width + "," + i / width
                            + ") exceeds maxval " + maxval);
                }
                words[i] = GrayRaster16.word(u, raster.minValue());
            }
            return raster;
        }
    }

    static void write(GrayRaster16 raster, Path file) throws IOException {
        int maxval = raster.range();
        int bytes = maxval < 256 ? 1 : 2;
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes * raster.words().length + 32);
        out.writeBytes(("P5\n" + raster.width() + " " + raster.height() + "\n" + maxval + "\n")
                .getBytes(StandardCharsets.US_ASCII));
        for (int i = 0; i < raster.words().length; i++) {
            int u = raster.offsetValue(i);
            if (bytes == 2) {
                out.write(u >>> 8);
            }
            out.write(u & 0xFF);
        }
        byte[] content = out.toByteArray();
        ImageCodec.writeAtomically(file, o -> o.write(content));
    }

    /** Offset values scaled to 0..255 grey RGB, for an 8-bit image of a PGM (no window: the whole range). */
    static byte[] toRgb(GrayRaster16 raster) {
        byte[] rgb = new byte[3 * raster.words().length];
        long range = raster.range();
        for (int i = 0; i < raster.words().length; i++) {
            byte v = (byte) ((raster.offsetValue(i) * 255L + range / 2) / range);
            rgb[3 * i] = v;
            rgb[3 * i + 1] = v;
            rgb[3 * i + 2] = v;
        }
        return rgb;
    }

    private static String token(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '#' && sb.length() == 0) {
                while ((c = in.read()) != -1 && c != '\n') {
                    // comment
                }
                continue;
            }
            if (Character.isWhitespace(c)) {
                if (sb.length() > 0) {
                    return sb.toString();
                }
                continue;
            }
            sb.append((char) c);
        }
        return sb.toString();
    }
}
