package org.medjava.filter;

import java.util.Objects;

/**
 * A filter that is only its {@link FilterDeclaration} (API 1.4): the base checks the {@link Filter#apply} contract,
 * decodes the parameters and runs the declared kernel for the depth and implementation asked for. A plugin's filter
 * extends it with a constructor passing its declaration; plugins implementing {@link Filter} directly keep working.
 *
 * @param <A> the arguments the filter's kernels take
 */
public abstract class DeclaredFilter<A> implements Filter {
    private final FilterDeclaration<A> declaration;

    /** @throws IllegalArgumentException when the declaration has no 8-bit kernels */
    protected DeclaredFilter(FilterDeclaration<A> declaration) {
        this.declaration = Objects.requireNonNull(declaration, "declaration");
        if (declaration.rgbKernels() == null) {
            throw new IllegalArgumentException("filter " + declaration.descriptor().id()
                    + " declares no 8-bit kernels");
        }
    }

    /** What the filter was made from: the testkit derives its contract and golden runs from it. */
    public final FilterDeclaration<A> declaration() {
        return declaration;
    }

    @Override
    public final FilterDescriptor descriptor() {
        return declaration.descriptor();
    }

    @Override
    public final void apply(Raster src, Raster dst, Region region, FilterParams params,
                            Implementation implementation) {
        Filter.requireContract(this, src, dst, region, params);
        declaration.rgbKernels().get(implementation).apply(src, dst, region, declaration.arguments(params));
    }

    @Override
    public final boolean supportsGray16() {
        return declaration.gray16Kernels() != null;
    }

    @Override
    public final void applyGray16(GrayRaster16 src, GrayRaster16 dst, Region region, FilterParams params,
                                  Implementation implementation) {
        if (!supportsGray16()) {
            throw UnsupportedDataException.of(this, src.describe());
        }
        Filter.requireContract(this, src, dst, region, params);
        declaration.gray16Kernels().get(implementation).apply(src, dst, region, declaration.arguments(params));
    }
}
