package org.medjava.plugin.pixelize;

import org.medjava.filter.Cancellation;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;
import org.medjava.filter.RowBands;
import org.medjava.filter.VectorSupport;

/**
 * Pixelize, hand-optimized; identical to {@link PixelizeStraightforward} (the same sums, counts and divisions).
 *
 * <ul>
 *   <li>One block row at a time, read in raster order: each region row is added into per-column sums
 *       ({@code col[3i+c]}, at most 65535·255, an int) in one sequential pass, so every pixel is read once and
 *       in memory order instead of block by block.</li>
 *   <li>Block sums then add A column sums (a long, since a block may hold more than 2^31/255 pixels); one
 *       division per block and channel. For blocks of at most 65025 pixels (255×255) the sums are ints and the
 *       division by the block row's common count is a multiply and shift ({@link #reciprocal}): a 64-bit
 *       division costs tens of cycles, and with 4×4 blocks there is one per 16 bytes of image.</li>
 *   <li>With the Vector API ({@link PixelizeVector}, when the JVM has it) the column sums are added a vector of
 *       bytes at a time, up to eight rows in registers before a sum is stored.</li>
 *   <li>The block row's output row is built once and copied into each of its rows with
 *       {@link System#arraycopy}.</li>
 *   <li>1×1 blocks are the identity and do nothing. Scratch: two arrays of 3·width.</li>
 * </ul>
 *
 * <p>The parallel version runs bands of block rows, each writing only its own rows.
 */
final class PixelizeOptimized {
    /** Below this many region pixels per band, splitting costs more than it saves. */
    private static final int MIN_BAND_PIXELS = 1 << 16;

    private PixelizeOptimized() {
    }

    /** Shift of the reciprocal multiply: exact for counts up to 255² (see {@link #divide}). */
    static final int SHIFT = 40;
    /** Largest block (pixels) whose sums and division take the int path. */
    static final int MAX_FAST_COUNT = 255 * 255;

    /** {@code ceil(2^SHIFT / d)}: {@code x / d == (x · m) >>> SHIFT} for {@code 0 ≤ x ≤ 255·d ≤ 255·255²}. */
    static long reciprocal(int d) {
        return ((1L << SHIFT) + d - 1) / d;
    }

    /**
     * {@code x / d}, given {@code m = reciprocal(d)}: with {@code e = m·d − 2^40 < d} and {@code x = q·d + r},
     * {@code x·m / 2^40 = q + (r + x·e/2^40) / d}, and {@code x·e < 255·d² ≤ 255·255⁴ < 2^40}, so the floor is q
     * (the same argument as Blur's; PixelizeVectorTest checks both ends of every quotient).
     */
    static int divide(int x, long m) {
        return (int) ((x * m) >>> SHIFT);
    }

    static void apply(Raster src, Raster dst, Region region, int a, int b, boolean parallel) {
        apply(src, dst, region, a, b, parallel, VectorSupport.AVAILABLE);
    }

    /** {@code vector}: column sums with {@link PixelizeVector} (tests compare both kernels in one JVM). */
    static void apply(Raster src, Raster dst, Region region, int a, int b, boolean parallel, boolean vector) {
        if (a == 1 && b == 1) {
            return; // every block is one pixel, its own mean: dst already is a copy of src
        }
        byte[] in = src.rgb();
        byte[] out = dst.rgb();
        int width = src.width();
        int sx = region.x();
        int sy = region.y();
        int sw = region.width();
        int sh = region.height();
        int nh = (sh + b - 1) / b;
        if (parallel) {
            int minBlockRows = (int) Math.max(1, MIN_BAND_PIXELS / ((long) sw * b));
            RowBands.run(0, nh, minBlockRows,
                    (from, to) -> blockRows(in, out, width, sx, sy, sw, sh, a, b, from, to, vector));
        } else {
            blockRows(in, out, width, sx, sy, sw, sh, a, b, 0, nh, vector);
        }
    }

    /** Pixelizes block rows {@code [fromBlockRow, toBlockRow)} of the centred grid. */
    static void blockRows(byte[] in, byte[] out, int width, int sx, int sy, int sw, int sh, int a, int b,
                          int fromBlockRow, int toBlockRow, boolean vector) {
        final int stride = 3 * width;
        final int len = 3 * sw;
        final int nw = (sw + a - 1) / a;
        final int nh = (sh + b - 1) / b;
        final int leftOverhang = (nw * a - sw) / 2; // columns of block 0 left of the region
        final int y0 = sy - (nh * b - sh) / 2;
        final int rowOffset = 3 * sx;
        final int[] col = new int[len];
        final byte[] pattern = new byte[len];
        for (int j = fromBlockRow; j < toBlockRow; j++) {
            Cancellation.check();
            int by0 = Math.max(y0 + j * b, sy);
            int by1 = Math.min(y0 + (j + 1) * b, sy + sh);
            int rows = by1 - by0;
            // column sums over the block row
            int base = by0 * stride + rowOffset;
            if (vector) {
                PixelizeVector.sumRows(in, base, stride, rows, col, len);
            } else {
                for (int k = 0; k < len; k++) {
                    col[k] = in[base + k] & 0xFF;
                }
                for (int y = by0 + 1; y < by1; y++) {
                    base += stride;
                    for (int k = 0; k < len; k++) {
                        col[k] += in[base + k] & 0xFF;
                    }
                }
            }
            if ((long) a * rows <= MAX_FAST_COUNT) {
                fastBlocks(col, pattern, sw, a, rows, leftOverhang);
                for (int y = by0, o = by0 * stride + rowOffset; y < by1; y++, o += stride) {
                    System.arraycopy(pattern, 0, out, o, len);
                }
                continue;
            }
            // block means into the pattern row; block i covers region columns [c0, c1)
            int c0 = 0;
            int c1 = a - leftOverhang;
            while (c0 < sw) {
                if (c1 > sw) {
                    c1 = sw;
                }
                long r = 0;
                long g = 0;
                long bl = 0;
                for (int k = 3 * c0, end = 3 * c1; k < end; k += 3) {
                    r += col[k];
                    g += col[k + 1];
                    bl += col[k + 2];
                }
                long count = (long) (c1 - c0) * rows;
                byte mr = (byte) (r / count);
                byte mg = (byte) (g / count);
                byte mb = (byte) (bl / count);
                for (int k = 3 * c0, end = 3 * c1; k < end; k += 3) {
                    pattern[k] = mr;
                    pattern[k + 1] = mg;
                    pattern[k + 2] = mb;
                }
                c0 = c1;
                c1 += a;
            }
            for (int y = by0, o = by0 * stride + rowOffset; y < by1; y++, o += stride) {
                System.arraycopy(pattern, 0, out, o, len);
            }
        }
    }

    /**
     * Block means of one block row into {@code pattern} when a block holds at most {@link #MAX_FAST_COUNT}
     * pixels: int sums, and the full blocks' common count divided by a reciprocal multiply. Partial blocks at the
     * left and right edges divide directly.
     */
    private static void fastBlocks(int[] col, byte[] pattern, int sw, int a, int rows, int leftOverhang) {
        final long full = reciprocal(a * rows);
        int c0 = 0;
        int c1 = a - leftOverhang;
        while (c0 < sw) {
            if (c1 > sw) {
                c1 = sw;
            }
            int r = 0;
            int g = 0;
            int bl = 0;
            for (int k = 3 * c0, end = 3 * c1; k < end; k += 3) {
                r += col[k];
                g += col[k + 1];
                bl += col[k + 2];
            }
            byte mr;
            byte mg;
            byte mb;
            if (c1 - c0 == a) {
                mr = (byte) divide(r, full);
                mg = (byte) divide(g, full);
                mb = (byte) divide(bl, full);
            } else {
                int count = (c1 - c0) * rows;
                mr = (byte) (r / count);
                mg = (byte) (g / count);
                mb = (byte) (bl / count);
            }
            for (int k = 3 * c0, end = 3 * c1; k < end; k += 3) {
                pattern[k] = mr;
                pattern[k + 1] = mg;
                pattern[k + 2] = mb;
            }
            c0 = c1;
            c1 += a;
        }
    }
}
