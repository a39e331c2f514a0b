package org.medjava.plugin.emboss;

import java.util.List;
import org.medjava.filter.Filter;
import org.medjava.filter.FilterDescriptor;
import org.medjava.filter.FilterParams;
import org.medjava.filter.Implementation;
import org.medjava.filter.ParamSpec;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;

/**
 * xv's Emboss ("TinFoil", spec 2.5): a diagonal relief kernel on the interior around grey 128, then MONO of the
 * whole region; the frame ends up 128. {@code rounding=xv} (default) divides by 8 truncating toward zero (a dead
 * zone −7..+7); {@code rounding=floor} (non-xv) uses {@code floor(S / 8)}.
 */
public final class EmbossFilter implements Filter {
    public static final String ID = "emboss";

    private static final FilterDescriptor DESCRIPTOR = FilterDescriptor.builder(ID)
            .displayName("Emboss")
            .version("1")
            .specSection("2.5")
            .description("Grey relief: each interior channel becomes 128 + S/8 with the kernel "
                    + "[-2 -1 0; -1 0 +1; 0 +1 +2], the frame becomes 128, and every region pixel becomes the MONO "
                    + "luminance of its channels.")
            .param(ParamSpec.choice("rounding", "xv", List.of("xv", "floor"),
                    "xv: S / 8 truncated toward zero (dead zone -7..+7); floor: floor(S / 8), bins of equal width "
                            + "(non-xv)"))
            .build();

    @Override
    public FilterDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public void apply(Raster src, Raster dst, Region region, FilterParams params, Implementation implementation) {
        Filter.requireContract(this, src, dst, region, params);
        boolean floor = params.getChoice("rounding").equals("floor");
        switch (implementation) {
            case STRAIGHTFORWARD:
                EmbossStraightforward.apply(src, dst, region, floor);
                break;
            case OPTIMIZED:
                EmbossOptimized.apply(src, dst, region, floor);
                break;
            case PARALLEL:
                EmbossOptimized.applyParallel(src, dst, region, floor);
                break;
            default:
                throw new IllegalArgumentException("unknown implementation " + implementation);
        }
    }
}
