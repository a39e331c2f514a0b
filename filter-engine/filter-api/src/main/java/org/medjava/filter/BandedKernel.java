package org.medjava.filter;

/**
 * An optimized port that serves both {@link Implementation#OPTIMIZED} and {@link Implementation#PARALLEL}: with
 * {@code parallel} it splits the rows it writes into {@link RowBands} (API 1.4). Declared once instead of as two
 * kernels that differ only in that flag.
 *
 * @param <R> the raster type
 * @param <A> the decoded arguments
 */
@FunctionalInterface
public interface BandedKernel<R, A> {
    void apply(R src, R dst, Region region, A arguments, boolean parallel);
}
