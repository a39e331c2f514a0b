package org.medjava.plugin.oilpaint;

import java.util.List;
import org.medjava.filter.Filter;
import org.medjava.filter.FilterDescriptor;
import org.medjava.filter.FilterParams;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.Implementations;
import org.medjava.filter.ParamSpec;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;

/**
 * xv's Oil Painting (spec 2.6): every region pixel becomes the most frequent colour of its window (clipped to the
 * region), ties going to the colour that occurs first in row-major window order. {@code window=xv} (default)
 * keeps xv's adjustment (an odd n becomes n+1, window {@code [x−h, x+h−1]²}, h = n' div 2: 4×4 at offsets
 * −2..+1 for the default n = 3); {@code window=centred} (non-xv) uses {@code [x−h, x+h]²} with h = n div 2. On
 * grey data (docs/xv-filters-16bit.md 2.6) the most frequent grey value, with the same windows and tie rule.
 */
public final class OilPaintFilter implements Filter {
    public static final String ID = "oil-paint";

    private static final FilterDescriptor DESCRIPTOR = FilterDescriptor.builder(ID)
            .displayName("Oil Painting")
            .version("1")
            .specSection("2.6")
            .description("Most frequent colour of the window around each pixel, copied verbatim; ties go to the "
                    + "colour occurring first in row-major order. With all colours distinct this is a translation "
                    + "by (+2,+2) for xv's default window.")
            .help("Flattens the image into patches of uniform colour, like brush strokes: each pixel takes the "
                    + "most common value of its neighbourhood. Noise and texture disappear; the image shifts "
                    + "slightly towards the lower right with xv's window.")
            .param(ParamSpec.integer("n", 3, 1, 31,
                    "mask size, with xv's adjustment: an odd n becomes n+1, window [x-h, x+h-1] x [y-h, y+h-1], "
                            + "h = n' div 2")
                    .withHelp("Brush size", "Width of the neighbourhood whose most common value each pixel takes, "
                            + "in pixels (1 to 31; xv rounds odd sizes up to the next even one). Higher gives larger, "
                            + "flatter patches and loses more detail."))
            .param(ParamSpec.choice("window", "xv", List.of("xv", "centred"),
                    "xv: xv's uncentred even window; centred: h = n div 2, window [x-h, x+h] x [y-h, y+h], "
                            + "no adjustment of n (non-xv)")
                    .withHelp("Window position", "xv (default): the neighbourhood is not centred, so the "
                            + "image shifts by about two pixels to the lower right, as in xv. centred: the "
                            + "neighbourhood is centred on each pixel and nothing shifts."))
            .build();

    @FunctionalInterface
    interface Kernel {
        void apply(Raster src, Raster dst, Region region, Window window);
    }

    @FunctionalInterface
    interface GrayKernel {
        void apply(GrayRaster16 src, GrayRaster16 dst, Region region, Window window);
    }

    private static final Implementations<Kernel> RGB = Implementations.of(OilPaintStraightforward::apply,
            OilPaintOptimized::apply, OilPaintOptimized::applyParallel);

    private static final Implementations<GrayKernel> GRAY = Implementations.of(
            OilPaintGray16Straightforward::apply,
            (src, dst, region, window) -> OilPaintGray16Optimized.apply(src, dst, region, window, false),
            (src, dst, region, window) -> OilPaintGray16Optimized.apply(src, dst, region, window, true));

    @Override
    public FilterDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public void apply(Raster src, Raster dst, Region region, FilterParams params, Implementation implementation) {
        Filter.requireContract(this, src, dst, region, params);
        RGB.get(implementation).apply(src, dst, region, window(params));
    }

    @Override
    public boolean supportsGray16() {
        return true;
    }

    @Override
    public void applyGray16(GrayRaster16 src, GrayRaster16 dst, Region region, FilterParams params,
                            Implementation implementation) {
        Filter.requireContract(this, src, dst, region, params);
        GRAY.get(implementation).apply(src, dst, region, window(params));
    }

    private static Window window(FilterParams params) {
        return Window.of(params.getInt("n"), params.getChoice("window").equals("centred"));
    }

    /**
     * The window around (x, y): columns {@code x+lo .. x+hi} and rows {@code y+lo .. y+hi} (before clipping to the
     * region); {@code size = hi − lo + 1}.
     */
    static final class Window {
        final int lo;
        final int hi;
        final int size;

        private Window(int lo, int hi) {
            this.lo = lo;
            this.hi = hi;
            this.size = hi - lo + 1;
        }

        static Window of(int n, boolean centred) {
            if (centred) {
                int h = n / 2;
                return new Window(-h, h);
            }
            int adjusted = (n & 1) == 1 ? n + 1 : n; // xv's "force odd" step adds 1 to an odd n
            int h = adjusted / 2;
            return new Window(-h, h - 1);
        }

        @Override
        public String toString() {
            return "[" + lo + ".." + hi + "]";
        }
    }
}
