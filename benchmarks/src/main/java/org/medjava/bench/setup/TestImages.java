package org.medjava.bench.setup;

import java.util.SplittableRandom;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Raster;

/**
 * The benchmark inputs, the same in every fork and variant: uniform random RGB noise from a fixed seed (8-bit), and
 * a generated CT-like slice (16-bit grey).
 */
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

    /**
     * A CT-like axial slice in Hounsfield units, generated (no file is read), the same in every fork: air around an
     * elliptic body with a fat layer under the skin, two lungs with a gradient, a heart, the aorta, a vertebra
     * (cortical ring around cancellous bone), ribs, a slow variation across the soft tissue, and noise (about 12 HU
     * standard deviation, a sum of four uniform bytes). The anatomy scales with the image: every size shows the same
     * slice. Unsigned formats hold {@code HU + 1024} (DICOM's usual CT encoding with rescale intercept −1024),
     * signed ones the HU themselves; values are clamped to the format's range.
     */
    public static GrayRaster16 ct(ImageSize size, GrayFormat format) {
        int w = size.width();
        int h = size.height();
        GrayRaster16 raster = new GrayRaster16(w, h, format.bitsStored(), format.signed());
        short[] words = raster.words();
        int offset = format.signed() ? 0 : 1024;
        int min = format.minValue();
        int max = format.maxValue();
        SplittableRandom random = new SplittableRandom(SEED);
        for (int y = 0; y < h; y++) {
            double ny = (y + 0.5) / h * 2 - 1;
            for (int x = 0; x < w; x++) {
                double nx = (x + 0.5) / w * 2 - 1;
                long bits = random.nextLong();
                int noise = (int) ((bits & 0xFF) + (bits >>> 8 & 0xFF) + (bits >>> 16 & 0xFF) + (bits >>> 24 & 0xFF))
                        - 510;
                int hu = (int) Math.round(anatomy(nx, ny)) + noise * 12 / 148;
                words[y * w + x] = (short) Math.max(min, Math.min(max, hu + offset));
            }
        }
        return raster;
    }

    /** Hounsfield units of the phantom at (nx, ny) in [−1, 1]², without noise. */
    static double anatomy(double nx, double ny) {
        double body = sq(nx / 0.88) + sq(ny / 0.68);
        if (body >= 1) {
            return -1000;
        }
        if (body >= 0.86) {
            return -100 + 20 * nx; // subcutaneous fat
        }
        // ribs: small bright ellipses just inside the fat layer
        double angle = Math.atan2(ny / 0.68, nx / 0.88);
        double rib = Math.abs(Math.sin(6 * angle));
        if (body >= 0.70 && body < 0.78 && rib < 0.35 && ny < 0.4) {
            return 900 - 300 * rib;
        }
        double vertebra = sq(nx / 0.11) + sq((ny - 0.45) / 0.1);
        if (vertebra < 1) {
            return vertebra > 0.6 ? 1250 : 280 + 60 * ny;
        }
        if (sq((nx + 0.08) / 0.07) + sq((ny - 0.25) / 0.07) < 1) {
            return 190; // aorta (contrast)
        }
        if (sq((nx - 0.06) / 0.24) + sq((ny + 0.02) / 0.2) < 1) {
            return 45 + 25 * ny; // heart
        }
        for (int side = -1; side <= 1; side += 2) {
            if (sq((nx - side * 0.4) / 0.27) + sq((ny + 0.05) / 0.42) < 1) {
                return -860 + 60 * ny; // lung, denser towards the back
            }
        }
        return 40 + 15 * Math.sin(3 * nx) * Math.cos(2 * ny); // soft tissue
    }

    private static double sq(double v) {
        return v * v;
    }
}
