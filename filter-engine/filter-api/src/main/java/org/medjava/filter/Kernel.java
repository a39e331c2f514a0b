package org.medjava.filter;

/**
 * One port of a filter on one kind of raster ({@link Raster} or {@link GrayRaster16}), with the arguments the
 * filter's declaration decoded from its parameters (API 1.4). Called only once the {@link Filter#apply} contract
 * holds.
 *
 * @param <R> the raster type
 * @param <A> the decoded arguments, e.g. {@code Integer} for a mask size
 */
@FunctionalInterface
public interface Kernel<R, A> {
    void apply(R src, R dst, Region region, A arguments);
}
