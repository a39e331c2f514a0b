package org.medjava.filter.testkit;

import java.util.SplittableRandom;
import org.medjava.filter.Raster;

/**
 * Seeded test images, the same for the same seed on every machine. Each kind stresses something particular:
 * noise (all colours distinct), flat and posterized areas (repeats for Oil paint and Despeckle), grey (Sharpen's
 * no-hue branch), extremes (clamps), a bright frame (Edge detect's quirk).
 */
public final class ImageGenerators {
    public enum Kind { NOISE, GREY_NOISE, GRADIENT, POSTERIZED, FLAT, EXTREMES, BRIGHT_FRAME, MIXED }

    private ImageGenerators() {
    }

    public static Raster generate(Kind kind, int width, int height, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        Raster raster = new Raster(width, height);
        byte[] rgb = raster.rgb();
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                int i = 3 * (y * width + x);
                int[] c = pixel(kind, x, y, width, height, random);
                rgb[i] = (byte) c[0];
                rgb[i + 1] = (byte) c[1];
                rgb[i + 2] = (byte) c[2];
            }
        }
        return raster;
    }

    private static int[] pixel(Kind kind, int x, int y, int w, int h, SplittableRandom random) {
        switch (kind) {
            case NOISE:
                return new int[] {random.nextInt(256), random.nextInt(256), random.nextInt(256)};
            case GREY_NOISE: {
                int v = random.nextInt(256);
                return new int[] {v, v, v};
            }
            case GRADIENT:
                return new int[] {255 * x / Math.max(1, w - 1), 255 * y / Math.max(1, h - 1),
                        (255 * (x + y) / Math.max(1, w + h - 2) + random.nextInt(8)) & 0xFF};
            case POSTERIZED: {
                int level = random.nextInt(4) == 0 ? random.nextInt(4) : ((x / 3) + (y / 2)) % 4;
                return new int[] {level * 85, (3 - level) * 85, level % 2 * 255};
            }
            case FLAT:
                return new int[] {100, 150, 200};
            case EXTREMES: {
                int r = random.nextInt(2) * 255;
                return new int[] {r, random.nextInt(2) * 255, random.nextBoolean() ? r : random.nextInt(256)};
            }
            case BRIGHT_FRAME: {
                boolean frame = x == 0 || y == 0 || x == w - 1 || y == h - 1;
                int v = frame ? 255 : 60 + random.nextInt(40);
                return new int[] {v, frame ? 255 : v / 2, frame ? 255 : 255 - v};
            }
            default: {
                int quadrant = (x * 2 / Math.max(1, w)) + 2 * (y * 2 / Math.max(1, h));
                Kind[] kinds = {Kind.NOISE, Kind.POSTERIZED, Kind.GREY_NOISE, Kind.GRADIENT};
                return pixel(kinds[quadrant % 4], x, y, w, h, random);
            }
        }
    }
}
