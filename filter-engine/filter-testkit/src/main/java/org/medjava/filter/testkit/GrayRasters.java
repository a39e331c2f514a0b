package org.medjava.filter.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;

/**
 * Grey rasters for filter tests: rasters from literal values, random and seeded images of every format, the 8-bit
 * grey identity's conversion, and readable differences (with diff images) at tolerance 0.
 */
public final class GrayRasters {

    /** Kinds of seeded grey images; each stresses something (see {@link #generate}). */
    public enum Kind {
        /** Uniform noise over the whole range: values rarely repeat. */
        NOISE,
        /** Only min, max and their neighbours: sums, clamps and stretches at the ends of the range. */
        EXTREMES,
        /** A smooth ramp plus small noise: Emboss's dead zone, Sharpen's gentle slopes. */
        GRADIENT,
        /** Four levels including min and max: repeats and ties for Oil Painting and Despeckle. */
        POSTERIZED,
        /** One value. */
        FLAT,
        /** A frame at max around dim noise near min: Edge Detect's quirk. */
        BRIGHT_FRAME,
        /** Values in a narrow band near min: Edge Detect's stretch with a small maxv. */
        DIM,
        /** CT-like: a disc of tissue values on a background near min, with noise. */
        PHANTOM
    }

    private GrayRasters() {
    }

    /** A raster from rows of values (not offset values). */
    public static GrayRaster16 of(int bitsStored, boolean signed, int[][] rows) {
        GrayRaster16 r = new GrayRaster16(rows[0].length, rows.length, bitsStored, signed);
        for (int y = 0; y < rows.length; y++) {
            for (int x = 0; x < rows[0].length; x++) {
                r.setValue(x, y, rows[y][x]);
            }
        }
        return r;
    }

    /** The values as rows. */
    public static int[][] values(GrayRaster16 r) {
        int[][] rows = new int[r.height()][r.width()];
        for (int y = 0; y < r.height(); y++) {
            for (int x = 0; x < r.width(); x++) {
                rows[y][x] = r.valueAt(x, y);
            }
        }
        return rows;
    }

    /** Seeded, the same on every machine: golden inputs. */
    public static GrayRaster16 generate(Kind kind, int width, int height, int bitsStored, boolean signed, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        GrayRaster16 r = new GrayRaster16(width, height, bitsStored, signed);
        int range = r.range();
        short[] words = r.words();
        int level = random.nextInt(range + 1);
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                int u = offsetValue(kind, x, y, width, height, range, level, random);
                words[y * width + x] = GrayRaster16.word(Math.max(0, Math.min(range, u)), r.minValue());
            }
        }
        return r;
    }

    private static int offsetValue(Kind kind, int x, int y, int w, int h, int range, int level,
                                   SplittableRandom random) {
        switch (kind) {
            case NOISE:
                return random.nextInt(range + 1);
            case EXTREMES: {
                int v = random.nextBoolean() ? range : 0;
                int step = random.nextInt(4);
                return step == 0 ? v : step == 1 ? Math.abs(v - 1) : step == 2 ? Math.abs(v - random.nextInt(3)) : v;
            }
            case GRADIENT: {
                long ramp = (long) range * (x + y) / Math.max(1, w + h - 2);
                return (int) Math.max(0, Math.min(range, ramp + random.nextInt(17) - 8));
            }
            case POSTERIZED: {
                int k = random.nextInt(4) == 0 ? random.nextInt(4) : ((x / 3) + (y / 2)) % 4;
                return (int) ((long) range * k / 3);
            }
            case FLAT:
                return level;
            case BRIGHT_FRAME: {
                boolean frame = x == 0 || y == 0 || x == w - 1 || y == h - 1;
                return frame ? range : random.nextInt(Math.max(1, range / 16) + 1);
            }
            case DIM:
                return random.nextInt(Math.min(range, 40) + 1);
            default: {
                double dx = (x - w / 2.0) / Math.max(1.0, w / 2.0);
                double dy = (y - h / 2.0) / Math.max(1.0, h / 2.0);
                boolean inside = dx * dx + dy * dy < 0.8;
                int base = inside ? range / 2 + range / 8 * ((x / 4 + y / 4) % 3) : range / 32;
                int noise = Math.max(1, range / 200);
                return Math.max(0, Math.min(range, base + random.nextInt(2 * noise + 1) - noise));
            }
        }
    }

    /** A random format: bits 1..16 (biased to 8, 12 and 16), signed or not. */
    public static int[] randomFormat(SplittableRandom rnd) {
        int[] common = {16, 16, 12, 12, 8, 10, 15};
        int bits = rnd.nextInt(5) == 0 ? 1 + rnd.nextInt(16) : common[rnd.nextInt(common.length)];
        return new int[] {bits, rnd.nextBoolean() ? 1 : 0};
    }

    /** A random image of the given format, of one of the {@link Kind}s. */
    public static GrayRaster16 random(SplittableRandom rnd, int w, int h, int bitsStored, boolean signed) {
        Kind kind = Kind.values()[rnd.nextInt(Kind.values().length)];
        return generate(kind, w, h, bitsStored, signed, rnd.nextLong());
    }

    /** The 8-bit grey identity's other side: an unsigned 8-bit raster as the RGB image r = g = b = v. */
    public static Raster toGreyRgb(GrayRaster16 r) {
        if (r.bitsStored() != 8 || r.signed()) {
            throw new IllegalArgumentException("only 8-bit unsigned grey has an RGB twin, not " + r.describe());
        }
        Raster rgb = new Raster(r.width(), r.height());
        byte[] b = rgb.rgb();
        short[] words = r.words();
        for (int i = 0; i < words.length; i++) {
            b[3 * i] = (byte) words[i];
            b[3 * i + 1] = (byte) words[i];
            b[3 * i + 2] = (byte) words[i];
        }
        return rgb;
    }

    /** An 8-bit unsigned raster of the red channel of {@code rgb}. */
    public static GrayRaster16 fromRed(Raster rgb) {
        GrayRaster16 r = new GrayRaster16(rgb.width(), rgb.height(), 8, false);
        for (int i = 0; i < r.words().length; i++) {
            r.words()[i] = (short) (rgb.rgb()[3 * i] & 0xFF);
        }
        return r;
    }

    /** Description of the first pixel where the two rasters differ, for failure messages; null if equal. */
    public static String firstDifference(GrayRaster16 expected, GrayRaster16 actual) {
        if (!expected.sameFormat(actual)) {
            return "formats differ: " + expected + " and " + actual;
        }
        short[] e = expected.words();
        short[] a = actual.words();
        int differing = 0;
        int first = -1;
        for (int i = 0; i < e.length; i++) {
            if (e[i] != a[i]) {
                differing++;
                if (first < 0) {
                    first = i;
                }
            }
        }
        if (first < 0) {
            return null;
        }
        int w = expected.width();
        return differing + " of " + e.length + " pixels differ; first at (" + first % w + "," + first / w
                + "): expected " + GrayRaster16.value(e[first], expected.signed()) + ", actual "
                + GrayRaster16.value(a[first], actual.signed());
    }

    /**
     * {@link #firstDifference}, and on a difference the expected and actual PGM files and a diff PGM (differing
     * pixels white, the rest the expected image dimmed) in {@code dir}.
     */
    public static String describe(GrayRaster16 expected, GrayRaster16 actual, Path dir, String name) {
        String difference = firstDifference(expected, actual);
        if (difference == null || !expected.sameFormat(actual)) {
            return difference;
        }
        GrayRaster16 diff = new GrayRaster16(expected.width(), expected.height(), 16, false);
        for (int i = 0; i < diff.words().length; i++) {
            long dimmed = (long) expected.offsetValue(i) * 0x7FFF / Math.max(1, expected.range());
            diff.words()[i] = (short) (expected.words()[i] != actual.words()[i] ? 0xFFFF : dimmed);
        }
        try {
            PgmFiles.write(diff, dir.resolve(name + "-diff.pgm"));
            PgmFiles.write(expected, dir.resolve(name + "-expected.pgm"));
            PgmFiles.write(actual, dir.resolve(name + "-actual.pgm"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return name + ": " + difference + "; diff image " + dir.resolve(name + "-diff.pgm");
    }

    /** Description of the first pixel outside {@code region} (clipped) that differs, or null. */
    public static String changedOutside(GrayRaster16 before, GrayRaster16 after, Region region) {
        Region r = (region == null ? before.bounds() : region).clip(before.width(), before.height());
        for (int y = 0; y < before.height(); y++) {
            for (int x = 0; x < before.width(); x++) {
                int i = y * before.width() + x;
                if (!r.contains(x, y) && before.words()[i] != after.words()[i]) {
                    return "pixel (" + x + "," + y + ") outside region " + r + " changed";
                }
            }
        }
        return null;
    }
}
