package org.medjava.plugin.despeckle;

import org.medjava.filter.Cancellation;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Region;
import org.medjava.filter.RowBands;

/**
 * DeSpeckle on grey data, hand-optimized; identical to {@link DespeckleGray16Straightforward} because the median
 * of a multiset does not depend on how it is found. The 8-bit port's two techniques, carried to 2^b values:
 *
 * <ul>
 *   <li>n = 3, interior: the median of 9 from sorted columns, each 3-pixel column sorted once and reused by the
 *       three windows containing it: {@code med3(max of minima, med3 of medians, min of maxima)}. The frame
 *       (clipped windows of 1 to 6 values) gathers and sorts.</li>
 *   <li>n ≥ 5: Huang's sliding histogram over offset values, one row at a time: moving right removes one window
 *       column and adds one, O(n) per pixel. A 256-bin histogram no longer covers the values, so it has two levels
 *       sized to the format: {@code 2^⌈b/2⌉} fine bins under each of {@code 2^⌊b/2⌋} coarse bins (256 × 256 for
 *       16 bits). A rank is found by walking the coarse prefix sums, then the fine ones of one coarse bin: at most
 *       2^⌊b/2⌋ + 2^⌈b/2⌉ steps. At the end of a row the window's values are removed again, so the histogram is
 *       never cleared in full.</li>
 *   <li>Scratch per band: {@code 2^b + 2^⌊b/2⌋} ints for n ≥ 5 (256 KiB for 16 bits), 9 ints for n = 3.</li>
 * </ul>
 */
final class DespeckleGray16Optimized {
    /** Below this many region pixels per band, splitting costs more than it saves. */
    private static final int MIN_BAND_PIXELS = 1 << 14;

    private DespeckleGray16Optimized() {
    }

    static void apply(GrayRaster16 src, GrayRaster16 dst, Region region, int n, boolean parallel) {
        if (n == 1) {
            return; // the median of one value is that value
        }
        int sy = region.y();
        int sh = region.height();
        if (parallel) {
            int minRows = Math.max(1, MIN_BAND_PIXELS / (region.width() * Math.min(n, 9)));
            RowBands.run(sy, sy + sh, minRows, (from, to) -> rows(src, dst, region, n, from, to));
        } else {
            rows(src, dst, region, n, sy, sy + sh);
        }
    }

    static void rows(GrayRaster16 src, GrayRaster16 dst, Region region, int n, int fromRow, int toRow) {
        if (n == 3) {
            new Small(src, dst, region).rows(fromRow, toRow);
        } else {
            new Sliding(src, dst, region, n / 2).rows(fromRow, toRow);
        }
    }

    /** The median rule on sorted values {@code a[0..count)}. */
    static int median(int[] a, int count) {
        return (count & 1) == 1 ? a[count >> 1] : (a[(count >> 1) - 1] + a[count >> 1]) >> 1;
    }

    /** n = 3: sorted columns in the interior, gather-and-sort on the frame. */
    private static final class Small {
        final short[] in;
        final short[] out;
        final int width;
        final int min;
        final int sx;
        final int sy;
        final int ex;
        final int ey;
        final int[] scratch = new int[9];

        Small(GrayRaster16 src, GrayRaster16 dst, Region region) {
            in = src.words();
            out = dst.words();
            width = src.width();
            min = src.minValue();
            sx = region.x();
            sy = region.y();
            ex = region.endX() - 1;
            ey = region.endY() - 1;
        }

        void rows(int fromRow, int toRow) {
            for (int y = fromRow; y < toRow; y++) {
                Cancellation.check();
                if (y == sy || y == ey || ex - sx < 2) {
                    for (int x = sx; x <= ex; x++) {
                        frame(x, y);
                    }
                    continue;
                }
                frame(sx, y);
                interior(y);
                frame(ex, y);
            }
        }

        private int u(int i) {
            return (in[i] - min) & 0xFFFF;
        }

        private void frame(int x, int y) {
            int count = 0;
            for (int wy = Math.max(y - 1, sy); wy <= Math.min(y + 1, ey); wy++) {
                for (int wx = Math.max(x - 1, sx); wx <= Math.min(x + 1, ex); wx++) {
                    int v = u(wy * width + wx);
                    int j = count++;
                    for (; j > 0 && scratch[j - 1] > v; j--) {
                        scratch[j] = scratch[j - 1]; // insertion sort of at most 9 values
                    }
                    scratch[j] = v;
                }
            }
            out[y * width + x] = (short) (median(scratch, count) + min);
        }

        /** Columns sx+1 .. ex−1 of interior row y. */
        private void interior(int y) {
            int mid = y * width;
            int up = mid - width;
            int down = mid + width;
            // sorted columns x−1 (lo0 ≤ md0 ≤ hi0) and x (lo1 ≤ md1 ≤ hi1), for x = sx + 1
            int a = u(up + sx);
            int b = u(mid + sx);
            int c = u(down + sx);
            int lo0 = Math.min(Math.min(a, b), c);
            int hi0 = Math.max(Math.max(a, b), c);
            int md0 = a + b + c - lo0 - hi0;
            a = u(up + sx + 1);
            b = u(mid + sx + 1);
            c = u(down + sx + 1);
            int lo1 = Math.min(Math.min(a, b), c);
            int hi1 = Math.max(Math.max(a, b), c);
            int md1 = a + b + c - lo1 - hi1;
            for (int x = sx + 1; x < ex; x++) {
                a = u(up + x + 1);
                b = u(mid + x + 1);
                c = u(down + x + 1);
                int lo2 = Math.min(Math.min(a, b), c);
                int hi2 = Math.max(Math.max(a, b), c);
                int md2 = a + b + c - lo2 - hi2;
                int maxLo = Math.max(Math.max(lo0, lo1), lo2);
                int minHi = Math.min(Math.min(hi0, hi1), hi2);
                int medMd = med3(md0, md1, md2);
                out[mid + x] = (short) (med3(maxLo, medMd, minHi) + min);
                lo0 = lo1;
                md0 = md1;
                hi0 = hi1;
                lo1 = lo2;
                md1 = md2;
                hi1 = hi2;
            }
        }

        private static int med3(int a, int b, int c) {
            return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
        }
    }

    /** n ≥ 5: Huang's sliding two-level histogram. */
    private static final class Sliding {
        final short[] in;
        final short[] out;
        final int width;
        final int min;
        final int sx;
        final int sy;
        final int ex;
        final int ey;
        final int h;
        final int fineBits;
        final int[] fine;
        final int[] coarse;

        Sliding(GrayRaster16 src, GrayRaster16 dst, Region region, int h) {
            in = src.words();
            out = dst.words();
            width = src.width();
            min = src.minValue();
            sx = region.x();
            sy = region.y();
            ex = region.endX() - 1;
            ey = region.endY() - 1;
            this.h = h;
            int bits = src.bitsStored();
            fineBits = (bits + 1) / 2;
            fine = new int[1 << bits];
            coarse = new int[1 << (bits - fineBits)];
        }

        void rows(int fromRow, int toRow) {
            for (int y = fromRow; y < toRow; y++) {
                Cancellation.check();
                int y0 = Math.max(y - h, sy);
                int y1 = Math.min(y + h, ey);
                int rows = y1 - y0 + 1;
                for (int x = sx, end = Math.min(sx + h, ex); x <= end; x++) {
                    column(x, y0, y1, 1);
                }
                for (int x = sx; x <= ex; x++) {
                    if (x > sx) {
                        if (x - h - 1 >= sx) {
                            column(x - h - 1, y0, y1, -1);
                        }
                        if (x + h <= ex) {
                            column(x + h, y0, y1, 1);
                        }
                    }
                    int count = rows * (Math.min(x + h, ex) - Math.max(x - h, sx) + 1);
                    int half = count >> 1;
                    int m = (count & 1) == 1 ? rank(half) : (rank(half - 1) + rank(half)) >> 1;
                    out[y * width + x] = (short) (m + min);
                }
                for (int x = Math.max(ex - h, sx); x <= ex; x++) {
                    column(x, y0, y1, -1); // leave the histogram empty for the next row
                }
            }
        }

        private void column(int x, int y0, int y1, int delta) {
            for (int y = y0, i = y0 * width + x; y <= y1; y++, i += width) {
                int u = (in[i] - min) & 0xFFFF;
                fine[u] += delta;
                coarse[u >>> fineBits] += delta;
            }
        }

        /** The offset value of rank r (0-based) in the window. */
        private int rank(int r) {
            int c = 0;
            int below = 0;
            while (below + coarse[c] <= r) {
                below += coarse[c++];
            }
            int f = c << fineBits;
            while (below + fine[f] <= r) {
                below += fine[f++];
            }
            return f;
        }
    }
}
