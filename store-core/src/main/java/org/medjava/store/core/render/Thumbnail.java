package org.medjava.store.core.render;

import org.medjava.filter.Raster;

/**
 * A rendered image fitted into a viewport for a thumbnail, its aspect ratio kept: each pixel of the result is the
 * average of the source pixels it covers (so a reduction does not alias), or the nearest one when enlarging.
 */
public final class Thumbnail {

    private Thumbnail() {
    }

    /** The size {@code width x height} takes when fitted into {@code maxWidth x maxHeight}: {width, height}. */
    public static int[] fittedSize(int width, int height, int maxWidth, int maxHeight) {
        if (maxWidth < 1 || maxHeight < 1) {
            throw new IllegalArgumentException("a viewport is at least 1x1, not " + maxWidth + "x" + maxHeight);
        }
        double scale = Math.min((double) maxWidth / width, (double) maxHeight / height);
        return new int[] {
            (int) Math.max(1, Math.min(maxWidth, Math.round(width * scale))),
            (int) Math.max(1, Math.min(maxHeight, Math.round(height * scale)))};
    }

    /**
     * A grey image ({@code width x height} levels, one byte a pixel) fitted as {@link #fit} fits the RGB image with
     * those levels in each channel — the same bytes, from a third of the reads.
     */
    public static Raster fitGrey(byte[] grey, int width, int height, int maxWidth, int maxHeight) {
        int[] size = fittedSize(width, height, maxWidth, maxHeight);
        int w = size[0];
        int h = size[1];
        byte[] dst = new byte[3 * w * h];
        if (width % w == 0 && height % h == 0) { // whole boxes (512 to 128): the same sums, in a loop the JIT unrolls
            return whole(grey, width, width / w, height / h, w, h, dst);
        }
        int[] x0 = new int[w];
        int[] x1 = new int[w];
        for (int x = 0; x < w; x++) {
            x0[x] = (int) ((long) x * width / w);
            x1[x] = Math.max(x0[x] + 1, (int) ((long) (x + 1) * width / w));
        }
        for (int y = 0; y < h; y++) {
            int y0 = (int) ((long) y * height / h);
            int y1 = Math.max(y0 + 1, (int) ((long) (y + 1) * height / h));
            for (int x = 0; x < w; x++) {
                int sum = 0;
                for (int sy = y0; sy < y1; sy++) {
                    int row = sy * width;
                    for (int sx = x0[x]; sx < x1[x]; sx++) {
                        sum += grey[row + sx] & 0xFF;
                    }
                }
                int n = (y1 - y0) * (x1[x] - x0[x]);
                byte v = (byte) ((sum + n / 2) / n);
                int o = 3 * (y * w + x);
                dst[o] = v;
                dst[o + 1] = v;
                dst[o + 2] = v;
            }
        }
        return new Raster(w, h, dst);
    }

    private static Raster whole(byte[] grey, int width, int bw, int bh, int w, int h, byte[] dst) {
        int n = bw * bh;
        int[] sums = new int[w];
        for (int y = 0; y < h; y++) {
            java.util.Arrays.fill(sums, 0);
            for (int sy = y * bh; sy < (y + 1) * bh; sy++) {
                int row = sy * width;
                for (int x = 0, at = row; x < w; x++) {
                    int sum = 0;
                    for (int k = 0; k < bw; k++) {
                        sum += grey[at++] & 0xFF;
                    }
                    sums[x] += sum;
                }
            }
            for (int x = 0, o = 3 * y * w; x < w; x++, o += 3) {
                byte v = (byte) ((sums[x] + n / 2) / n);
                dst[o] = v;
                dst[o + 1] = v;
                dst[o + 2] = v;
            }
        }
        return new Raster(w, h, dst);
    }

    public static Raster fit(Raster source, int maxWidth, int maxHeight) {
        int[] size = fittedSize(source.width(), source.height(), maxWidth, maxHeight);
        int w = size[0];
        int h = size[1];
        if (w == source.width() && h == source.height()) {
            return source;
        }
        byte[] src = source.rgb();
        int sw = source.width();
        int sh = source.height();
        byte[] dst = new byte[3 * w * h];
        for (int y = 0; y < h; y++) {
            int y0 = (int) ((long) y * sh / h);
            int y1 = Math.max(y0 + 1, (int) ((long) (y + 1) * sh / h));
            for (int x = 0; x < w; x++) {
                int x0 = (int) ((long) x * sw / w);
                int x1 = Math.max(x0 + 1, (int) ((long) (x + 1) * sw / w));
                int r = 0;
                int g = 0;
                int b = 0;
                for (int sy = y0; sy < y1; sy++) {
                    int row = 3 * sy * sw;
                    for (int sx = x0; sx < x1; sx++) {
                        int i = row + 3 * sx;
                        r += src[i] & 0xFF;
                        g += src[i + 1] & 0xFF;
                        b += src[i + 2] & 0xFF;
                    }
                }
                int n = (y1 - y0) * (x1 - x0);
                int o = 3 * (y * w + x);
                dst[o] = (byte) ((r + n / 2) / n);
                dst[o + 1] = (byte) ((g + n / 2) / n);
                dst[o + 2] = (byte) ((b + n / 2) / n);
            }
        }
        return new Raster(w, h, dst);
    }
}
