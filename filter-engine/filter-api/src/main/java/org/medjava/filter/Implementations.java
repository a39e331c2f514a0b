package org.medjava.filter;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * A filter's kernels by {@link Implementation}: the table a plugin looks its kernel up in, instead of a
 * {@code switch (implementation)} per entry point. Immutable; every implementation has a kernel (a filter without a
 * parallel port names its optimized kernel twice).
 *
 * @param <K> the kernel type, usually a functional interface of the plugin
 */
public final class Implementations<K> {
    private final Map<Implementation, K> kernels;

    private Implementations(Map<Implementation, K> kernels) {
        this.kernels = kernels;
    }

    public static <K> Implementations<K> of(K straightforward, K optimized, K parallel) {
        Map<Implementation, K> map = new EnumMap<>(Implementation.class);
        map.put(Implementation.STRAIGHTFORWARD, Objects.requireNonNull(straightforward, "straightforward"));
        map.put(Implementation.OPTIMIZED, Objects.requireNonNull(optimized, "optimized"));
        map.put(Implementation.PARALLEL, Objects.requireNonNull(parallel, "parallel"));
        return new Implementations<>(map);
    }

    /** @throws NullPointerException for a null implementation */
    public K get(Implementation implementation) {
        return kernels.get(Objects.requireNonNull(implementation, "implementation"));
    }
}
