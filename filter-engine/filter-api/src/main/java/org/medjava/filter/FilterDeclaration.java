package org.medjava.filter;

import java.util.Objects;
import java.util.function.Function;

/**
 * What a {@link DeclaredFilter} is made of (API 1.4): its descriptor (id, spec section, parameters), how its
 * parameters become kernel arguments, and its kernels per depth (8-bit RGB, and grey if it has them) and
 * {@link Implementation}. Immutable; each method returns a new declaration.
 *
 * @param <A> the arguments every kernel of the filter takes
 */
public final class FilterDeclaration<A> {
    private final FilterDescriptor descriptor;
    private final Function<FilterParams, A> arguments;
    private final Implementations<Kernel<Raster, A>> rgb;
    private final Implementations<Kernel<GrayRaster16, A>> gray16;

    private FilterDeclaration(FilterDescriptor descriptor, Function<FilterParams, A> arguments,
                              Implementations<Kernel<Raster, A>> rgb,
                              Implementations<Kernel<GrayRaster16, A>> gray16) {
        this.descriptor = Objects.requireNonNull(descriptor, "descriptor");
        this.arguments = Objects.requireNonNull(arguments, "arguments");
        this.rgb = rgb;
        this.gray16 = gray16;
    }

    /** A declaration without kernels yet; {@code arguments} decodes validated parameters for the kernels. */
    public static <A> FilterDeclaration<A> of(FilterDescriptor descriptor, Function<FilterParams, A> arguments) {
        return new FilterDeclaration<>(descriptor, arguments, null, null);
    }

    /** The 8-bit RGB kernels (spec/xv-filters.md). A sequential filter names its optimized kernel as parallel too. */
    public FilterDeclaration<A> rgb(Kernel<Raster, A> straightforward, Kernel<Raster, A> optimized,
                                    Kernel<Raster, A> parallel) {
        return new FilterDeclaration<>(descriptor, arguments, Implementations.of(straightforward, optimized, parallel),
                gray16);
    }

    /** The 8-bit RGB kernels, OPTIMIZED and PARALLEL being one port with and without bands. */
    public FilterDeclaration<A> rgb(Kernel<Raster, A> straightforward, BandedKernel<Raster, A> optimized) {
        return rgb(straightforward, single(optimized), banded(optimized));
    }

    /** The grey kernels, OPTIMIZED and PARALLEL being one port with and without bands. */
    public FilterDeclaration<A> gray16(Kernel<GrayRaster16, A> straightforward,
                                       BandedKernel<GrayRaster16, A> optimized) {
        return gray16(straightforward, single(optimized), banded(optimized));
    }

    private static <R, A> Kernel<R, A> single(BandedKernel<R, A> kernel) {
        Objects.requireNonNull(kernel, "optimized");
        return (src, dst, region, arguments) -> kernel.apply(src, dst, region, arguments, false);
    }

    private static <R, A> Kernel<R, A> banded(BandedKernel<R, A> kernel) {
        return (src, dst, region, arguments) -> kernel.apply(src, dst, region, arguments, true);
    }

    /** The grey kernels (docs/xv-filters-16bit.md); without them the filter refuses grey data. */
    public FilterDeclaration<A> gray16(Kernel<GrayRaster16, A> straightforward, Kernel<GrayRaster16, A> optimized,
                                       Kernel<GrayRaster16, A> parallel) {
        return new FilterDeclaration<>(descriptor, arguments, rgb,
                Implementations.of(straightforward, optimized, parallel));
    }

    public FilterDescriptor descriptor() {
        return descriptor;
    }

    /** The kernels' arguments for parameters made by {@link #descriptor()}. */
    public A arguments(FilterParams params) {
        return arguments.apply(params);
    }

    /** @return the 8-bit kernels, or null when none were declared */
    public Implementations<Kernel<Raster, A>> rgbKernels() {
        return rgb;
    }

    /** @return the grey kernels, or null when the filter has none */
    public Implementations<Kernel<GrayRaster16, A>> gray16Kernels() {
        return gray16;
    }
}
