package org.medjava.plugin.emboss;

import java.util.Arrays;
import org.medjava.filter.Cancellation;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Region;
import org.medjava.filter.RowBands;

/**
 * Emboss on grey data, hand-optimized; pure integer arithmetic, so any exact rewrite gives the output of
 * {@link EmbossGray16Straightforward}.
 * <ul>
 *   <li>The fill and the kernel are fused into one pass: frame pixels are written as the mid-grey directly,
 *       interior pixels once, from six loads of offset values.</li>
 *   <li>{@code S / 8} is a shift: {@code S >> 3} is {@code floor(S / 8)}, and adding 7 to a negative S first
 *       truncates toward zero (xv's rounding) — no division.</li>
 *   <li>The clamp to [0, R] is dropped: {@code |S| ≤ 4R}, so {@code M + T} stays in [0, R] for both roundings
 *       (docs/xv-filters-16bit.md 2.5).</li>
 *   <li>Parallel: bands of written rows (every region row is written).</li>
 * </ul>
 */
final class EmbossGray16Optimized {
    private static final int MIN_BAND_ROWS = 16;

    private EmbossGray16Optimized() {
    }

    static void apply(GrayRaster16 src, GrayRaster16 dst, Region region, boolean floorRounding, boolean parallel) {
        if (parallel) {
            RowBands.run(region.y(), region.endY(), MIN_BAND_ROWS,
                    (from, to) -> rows(src, dst, region, floorRounding, from, to));
        } else {
            rows(src, dst, region, floorRounding, region.y(), region.endY());
        }
    }

    static void rows(GrayRaster16 src, GrayRaster16 dst, Region region, boolean floorRounding, int fromRow,
                     int toRow) {
        final short[] in = src.words();
        final short[] out = dst.words();
        final int width = src.width();
        final int min = src.minValue();
        final int mid = (src.range() + 1) / 2;
        final short midWord = (short) (mid + min);
        final int sx = region.x();
        final int ex = region.endX() - 1;
        final int sy = region.y();
        final int ey = region.endY() - 1;
        final int roundUp = floorRounding ? 0 : 7; // added to a negative S before the shift: truncation
        for (int y = fromRow; y < toRow; y++) {
            Cancellation.check();
            int row = y * width;
            if (y == sy || y == ey || ex - sx < 2) {
                Arrays.fill(out, row + sx, row + ex + 1, midWord);
                continue;
            }
            out[row + sx] = midWord;
            out[row + ex] = midWord;
            int up = row - width;
            int down = row + width;
            for (int x = sx + 1; x < ex; x++) {
                int s = 2 * ((in[down + x + 1] - min) & 0xFFFF) + ((in[down + x] - min) & 0xFFFF)
                        + ((in[row + x + 1] - min) & 0xFFFF) - ((in[row + x - 1] - min) & 0xFFFF)
                        - ((in[up + x] - min) & 0xFFFF) - 2 * ((in[up + x - 1] - min) & 0xFFFF);
                int t = (s + ((s >> 31) & roundUp)) >> 3;
                out[row + x] = (short) (mid + t + min);
            }
        }
    }
}
