package org.medjava.store.core.repo;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import javax.imageio.ImageIO;

/** Image bodies for the repository tests: committed samples, and PNG/JPEG written on the spot. */
final class TestImages {

    private TestImages() {
    }

    static Path samples() {
        return Path.of(System.getProperty("medjava.root", "..")).resolve("testdata/samples");
    }

    static byte[] dicom(String name) {
        return read(samples().resolve("dicom").resolve(name));
    }

    static byte[] gif(String name) {
        return read(samples().resolve("gif").resolve(name));
    }

    /** A {@code width x height} gradient; {@code seed} varies the pixels, so bodies of equal size differ. */
    static byte[] png(int width, int height, int seed) {
        return encode("png", width, height, seed);
    }

    static byte[] jpeg(int width, int height, int seed) {
        return encode("jpeg", width, height, seed);
    }

    static byte[] truncated(byte[] body) {
        return Arrays.copyOf(body, body.length / 2);
    }

    private static byte[] encode(String format, int width, int height, int seed) {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                int r = (x * 7 + seed * 31) & 0xFF;
                int g = (y * 5 + seed * 17) & 0xFF;
                int b = (x ^ y ^ seed) & 0xFF;
                image.setRGB(x, y, r << 16 | g << 8 | b);
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            if (!ImageIO.write(image, format, out)) {
                throw new IllegalStateException("no ImageIO writer for " + format);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("missing sample " + file, e);
        }
    }
}
