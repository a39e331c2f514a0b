package org.medjava.filter;

/**
 * An image filter: a pure kernel over interleaved RGB bytes, as defined by {@code spec/xv-filters.md}, and, when
 * {@link #supportsGray16()}, over 1..16-bit signed or unsigned grey values ({@link GrayRaster16}) as defined by
 * {@code docs/xv-filters-16bit.md}.
 *
 * <p>Contract of {@link #apply}: {@code dst} has the size of {@code src} and arrives as an exact copy of it;
 * {@code region} is clipped to the image and not empty; {@code params} were made by this filter's descriptor.
 * The filter writes only inside the region and reads {@code src} only inside the region (Spread works in place
 * on {@code dst}). Hosts call {@link #run}, which establishes that contract. {@link #applyGray16} has the same
 * contract, with {@code dst} of the same format (size, bits stored, signedness) as {@code src} and every value of
 * {@code src} inside its range (what happens to a value outside it is unspecified).
 *
 * <p>The grey methods are default methods (API 1.1): a plugin compiled against API 1.0 loads and runs unchanged
 * and refuses grey data with an {@link UnsupportedDataException}.
 */
public interface Filter {

    FilterDescriptor descriptor();

    void apply(Raster src, Raster dst, Region region, FilterParams params, Implementation implementation);

    /** Whether {@link #applyGray16} filters grey data. False unless the plugin says otherwise. */
    default boolean supportsGray16() {
        return false;
    }

    /**
     * The filter on grey values (docs/xv-filters-16bit.md); same contract as {@link #apply}. This default refuses.
     *
     * @throws UnsupportedDataException naming this filter and the data, when {@link #supportsGray16()} is false
     */
    default void applyGray16(GrayRaster16 src, GrayRaster16 dst, Region region, FilterParams params,
                             Implementation implementation) {
        throw UnsupportedDataException.of(this, src.describe());
    }

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
     * Checks the {@link #applyGray16} contract for callers that bypass {@link #run(Filter, GrayRaster16, Region,
     * FilterParams, Implementation)}: parameters made for this filter, rasters of the same size and format, a
     * region clipped to the image and not empty. Does not scan the values (see
     * {@link GrayRaster16#requireValuesInRange()}).
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    static void requireContract(Filter filter, GrayRaster16 src, GrayRaster16 dst, Region region,
                                FilterParams params) {
        String id = filter.descriptor().id();
        if (!id.equals(params.filterId())) {
            throw new IllegalArgumentException("parameters of " + params.filterId() + " given to " + id);
        }
        src.requireSameFormat(dst);
        if (region.isEmpty() || region.x() < 0 || region.y() < 0
                || region.endX() > src.width() || region.endY() > src.height()) {
            throw new IllegalArgumentException(id + ": region " + region + " is empty or not clipped to the "
                    + src.width() + "x" + src.height() + " image");
        }
    }

    /**
     * Runs {@code filter} on a copy of grey {@code src}: refuses data the filter does not serve, checks the values
     * against their range, clips the region, copies, applies.
     *
     * @param region {@code null} for the whole image
     * @return a new raster of the same format; {@code src} is never modified
     * @throws UnsupportedDataException when the filter does not filter grey data
     * @throws IllegalArgumentException for a value outside the raster's range or foreign parameters
     */
    static GrayRaster16 run(Filter filter, GrayRaster16 src, Region region, FilterParams params,
                            Implementation implementation) {
        if (!filter.supportsGray16()) {
            throw UnsupportedDataException.of(filter, src.describe());
        }
        if (!params.filterId().equals(filter.descriptor().id())) {
            throw new IllegalArgumentException("parameters of " + params.filterId() + " given to "
                    + filter.descriptor().id());
        }
        src.requireValuesInRange();
        Region clipped = (region == null ? src.bounds() : region).clip(src.width(), src.height());
        GrayRaster16 dst = src.copy();
        if (!clipped.isEmpty()) {
            filter.applyGray16(src, dst, clipped, params, implementation);
        }
        return dst;
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
