package org.medjava.filter.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.medjava.filter.Raster;

/** Compares rasters at tolerance 0 and, on a difference, writes a diff image a person can look at. */
public final class RasterDiff {
    private RasterDiff() {
    }

    /**
     * Null when identical; otherwise a message naming the first differing pixel and how many differ, after writing
     * {@code <name>-diff.ppm} (differing pixels red, the rest dimmed grey), {@code <name>-expected.ppm} and
     * {@code <name>-actual.ppm} into {@code dir}.
     */
    public static String describe(Raster expected, Raster actual, Path dir, String name) {
        if (!expected.sameSize(actual)) {
            return name + ": size " + actual.width() + "x" + actual.height() + ", expected " + expected.width()
                    + "x" + expected.height();
        }
        byte[] e = expected.rgb();
        byte[] a = actual.rgb();
        Raster diff = new Raster(expected.width(), expected.height());
        byte[] d = diff.rgb();
        long differing = 0;
        int first = -1;
        for (int i = 0; i < e.length; i += 3) {
            if (e[i] != a[i] || e[i + 1] != a[i + 1] || e[i + 2] != a[i + 2]) {
                differing++;
                if (first < 0) {
                    first = i;
                }
                d[i] = (byte) 255;
            } else {
                byte grey = (byte) (((e[i] & 0xFF) + (e[i + 1] & 0xFF) + (e[i + 2] & 0xFF)) / 9);
                d[i] = grey;
                d[i + 1] = grey;
                d[i + 2] = grey;
            }
        }
        if (differing == 0) {
            return null;
        }
        try {
            PpmFiles.write(diff, dir.resolve(name + "-diff.ppm"));
            PpmFiles.write(expected, dir.resolve(name + "-expected.ppm"));
            PpmFiles.write(actual, dir.resolve(name + "-actual.ppm"));
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        int p = first / 3;
        int x = p % expected.width();
        int y = p / expected.width();
        return String.format("%s: %d of %d pixels differ; first at (%d,%d): expected %s, actual %s; diff image %s",
                name, differing, e.length / 3, x, y, rgb(e, first), rgb(a, first), dir.resolve(name + "-diff.ppm"));
    }

    private static String rgb(byte[] b, int i) {
        return "(" + (b[i] & 0xFF) + "," + (b[i + 1] & 0xFF) + "," + (b[i + 2] & 0xFF) + ")";
    }
}
