package org.medjava.filter.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.medjava.filter.Raster;

/**
 * Binary PPM (P6, maxval 255) files for tests: the golden cases' format, and the diff images a failing test leaves.
 * Enough of the format for files that Java and C tools write (no header comments); image-codec's {@code Ppm} is the
 * full reader, and the testkit does not depend on image-codec so that the filter engine's tests stay on filter-api.
 */
public final class PpmFiles {

    private PpmFiles() {
    }

    public static Raster read(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            if (!"P6".equals(token(in))) {
                throw new IOException(file + " is not a binary PPM (P6)");
            }
            int width = Integer.parseInt(token(in));
            int height = Integer.parseInt(token(in));
            if (!"255".equals(token(in))) {
                throw new IOException(file + ": only maxval 255 is supported");
            }
            byte[] rgb = in.readNBytes(3 * width * height);
            if (rgb.length != 3 * width * height) {
                throw new IOException(file + " is truncated");
            }
            return new Raster(width, height, rgb);
        }
    }

    public static void write(Raster raster, Path file) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            out.write(("P6\n" + raster.width() + " " + raster.height() + "\n255\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(raster.rgb());
        }
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
