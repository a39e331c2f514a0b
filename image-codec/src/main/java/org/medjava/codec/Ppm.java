package org.medjava.codec;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.medjava.filter.Raster;

/** Binary PPM ({@code P6}, maxval 255): the language-neutral format of the golden cases and the C tools. */
public final class Ppm {
    private Ppm() {
    }

    /**
     * Reads one P6 image. Header fields are separated by whitespace; {@code #} comments are allowed in the header;
     * exactly one whitespace byte follows the maxval.
     *
     * @param maxPixels images with more pixels are refused before any pixel memory is allocated
     */
    public static Raster read(InputStream in, long maxPixels) throws IOException {
        if (in.read() != 'P' || in.read() != '6') {
            throw new ImageDecodeException("not a binary PPM: it must start with \"P6\"");
        }
        int width = headerNumber(in, "width");
        int height = headerNumber(in, "height");
        int maxval = headerNumber(in, "maxval");
        if (width < 1 || height < 1) {
            throw new ImageDecodeException("PPM size " + width + "x" + height + " is empty");
        }
        if (maxval != 255) {
            throw new ImageDecodeException("PPM maxval " + maxval + " is not supported; only 8-bit (255) is");
        }
        if ((long) width * height > Math.min(maxPixels, Raster.MAX_PIXELS)) {
            throw new ImageDecodeException("PPM " + width + "x" + height + " exceeds the limit of "
                    + Math.min(maxPixels, Raster.MAX_PIXELS) + " pixels");
        }
        byte[] rgb = new byte[3 * width * height];
        int read = in.readNBytes(rgb, 0, rgb.length);
        if (read < rgb.length) {
            throw new ImageDecodeException("PPM truncated: " + width + "x" + height + " needs " + rgb.length
                    + " bytes of pixel data, found " + read);
        }
        return new Raster(width, height, rgb);
    }

    public static Raster read(InputStream in) throws IOException {
        return read(in, Raster.MAX_PIXELS);
    }

    /** Parses one decimal header field and consumes the single whitespace byte after it. */
    private static int headerNumber(InputStream in, String field) throws IOException {
        int c = in.read();
        while (c == '#' || Character.isWhitespace(c)) {
            if (c == '#') {
                while (c != '\n' && c != '\r' && c != -1) {
                    c = in.read();
                }
            }
            c = in.read();
        }
        if (c == -1) {
            throw new ImageDecodeException("PPM header truncated before the " + field);
        }
        long value = 0;
        int digits = 0;
        while (c >= '0' && c <= '9') {
            value = value * 10 + (c - '0');
            if (++digits > 9) {
                throw new ImageDecodeException("PPM " + field + " is too large");
            }
            c = in.read();
        }
        if (digits == 0) {
            throw new ImageDecodeException("PPM header: expected the " + field + " as a decimal number, found "
                    + (c == -1 ? "end of file" : "'" + (char) c + "'"));
        }
        if (c == -1) {
            throw new ImageDecodeException("PPM header truncated after the " + field);
        }
        if (!Character.isWhitespace(c)) {
            throw new ImageDecodeException("PPM header: unexpected '" + (char) c + "' after the " + field);
        }
        return (int) value;
    }

    public static void write(Raster raster, OutputStream out) throws IOException {
        out.write(("P6\n" + raster.width() + " " + raster.height() + "\n255\n").getBytes(StandardCharsets.US_ASCII));
        out.write(raster.rgb());
    }
}
