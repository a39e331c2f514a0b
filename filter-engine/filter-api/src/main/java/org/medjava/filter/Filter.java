package org.medjava.filter;

/**
 * An image filter: a pure kernel over interleaved RGB bytes, as defined by {@code spec/xv-filters.md}.
 *
 * <p>Contract of {@link #apply}: {@code dst} has the size of {@code src} and arrives as an exact copy of it;
 * {@code region} is clipped to the image and not empty; {@code params} were made by this filter's descriptor.
 * The filter writes only inside the region and reads {@code src} only inside the region (Spread works in place
 * on {@code dst}). Hosts call {@link #run}, which establishes that contract.
 */
public interface Filter {

    FilterDescriptor descriptor();

    void apply(Raster src, Raster dst, Region region, FilterParams params, Implementation implementation);

    /**
     * Checks the {@link #apply} contract for callers that bypass {@link #run} (benchmarks, tests): parameters made
     * for this filter, same-size rasters, a region clipped to the image and not empty.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    static void requireContract(Filter filter, Raster src, Raster dst, Region region, FilterParams params) {
        String id = filter.descriptor().id();
        if (!id.equals(params.filterId())) {
            throw new IllegalArgumentException("parameters of " + params.filterId() + " given to " + id);
        }
        src.requireSameSize(dst);
        if (region.isEmpty() || region.x() < 0 || region.y() < 0
                || region.endX() > src.width() || region.endY() > src.height()) {
            throw new IllegalArgumentException(id + ": region " + region + " is empty or not clipped to the "
                    + src.width() + "x" + src.height() + " image");
        }
    }

    /**
     * Runs {@code filter} on a copy of {@code src}: clips the region, copies, applies.
     *
     * @param region {@code null} for the whole image
     * @return a new raster; {@code src} is never modified
     */
    static Raster run(Filter filter, Raster src, Region region, FilterParams params, Implementation implementation) {
        if (!params.filterId().equals(filter.descriptor().id())) {
            throw new IllegalArgumentException("parameters of " + params.filterId() + " given to "
                    + filter.descriptor().id());
        }
        Region clipped = (region == null ? src.bounds() : region).clip(src.width(), src.height());
        Raster dst = src.copy();
        if (!clipped.isEmpty()) {
            filter.apply(src, dst, clipped, params, implementation);
        }
        return dst;
    }
}
