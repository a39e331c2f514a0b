package org.medjava.bench;

import java.util.SplittableRandom;
import org.medjava.filter.Raster;

/** The benchmark input: uniform random RGB noise from a fixed seed, the same in every fork and variant. */
public final class TestImages {
    public static final long SEED = 42;

    private TestImages() {
    }

    public static Raster noise(ImageSize size) {
        byte[] rgb = new byte[Math.toIntExact(3 * size.pixels())];
        SplittableRandom random = new SplittableRandom(SEED);
        for (int i = 0; i < rgb.length; i += 8) {
            long bits = random.nextLong();
            for (int k = 0; k < 8 && i + k < rgb.length; k++) {
                rgb[i + k] = (byte) (bits >>> (8 * k));
            }
        }
        return new Raster(size.width(), size.height(), rgb);
    }

    /**
     * Random noise from xorshift64 (state 42, shifts 13, 7, 17, bits 24..31 of each step): the same bytes as
     * c-reference's {@code bench_harness}, so the pure-C and the JNI timing of a C port filter the same image.
     */
    public static Raster xorshift(ImageSize size) {
        byte[] rgb = new byte[Math.toIntExact(3 * size.pixels())];
        long s = 42;
        for (int i = 0; i < rgb.length; i++) {
            s ^= s << 13;
            s ^= s >>> 7;
            s ^= s << 17;
            rgb[i] = (byte) (s >>> 24);
        }
        return new Raster(size.width(), size.height(), rgb);
    }
}
