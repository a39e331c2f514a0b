package org.medjava.bench.report;

import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.medjava.bench.setup.ImageSize;
import org.medjava.bench.variant.JavaFilters;

/** Everything one run produced, as read back from {@code raw/}. */
record ReportData(Map<String, String> environment, List<Measurement> measurements, List<HarnessResult> harness,
                  Throughput transport, Throughput store, List<String> problems) {

    /** The same run restricted to measurements of one kind of data ({@link Measurement#data}). */
    ReportData only(String kind) {
        return new ReportData(environment, measurements.stream().filter(m -> kind.equals(m.data()))
                .collect(Collectors.toList()), harness, transport, store, problems);
    }

    /** The grey formats measured ({@code u16}, {@code s16}), unsigned first. */
    List<String> grayFormats() {
        return measurements.stream().map(Measurement::data).filter(d -> !Measurement.RGB8.equals(d)).distinct()
                .sorted(Comparator.comparing((String d) -> d.charAt(0) == 's').thenComparing(d -> d))
                .collect(Collectors.toList());
    }

    /** A quick run: it proves the pipeline; its numbers are not measurements and are never judged. */
    boolean isSmokeTest() {
        return "quick".equals(environment.get("mode"));
    }

    /** The filters measured, in the spec's order. */
    List<String> filters() {
        Set<String> seen = measurements.stream().filter(m -> !m.isCopy()).map(Measurement::filter)
                .collect(Collectors.toSet());
        return JavaFilters.ids().stream().filter(seen::contains).collect(Collectors.toList());
    }

    /** Sizes measured, smallest first. */
    List<ImageSize> sizes() {
        TreeSet<ImageSize> sizes = new TreeSet<>(Comparator.comparingLong(ImageSize::pixels)
                .thenComparingInt(ImageSize::width));
        measurements.forEach(m -> sizes.add(m.size()));
        return List.copyOf(sizes);
    }

    /** The size the targets are stated at: 4096² when measured, else the largest square size. */
    Optional<ImageSize> referenceSize() {
        List<ImageSize> squares = sizes().stream().filter(ImageSize::square).collect(Collectors.toList());
        if (squares.isEmpty()) {
            return Optional.empty();
        }
        return squares.stream().filter(s -> s.width() == 4096).findFirst()
                .or(() -> Optional.of(squares.get(squares.size() - 1)));
    }

    Optional<Measurement> find(String filter, ImageSize size, SeriesKey series) {
        return measurements.stream().filter(m -> m.series().equals(series) && m.size().equals(size)
                && (series.isCopy() || filter.equals(m.filter()))).findFirst();
    }

    /** Series measured at this size, in legend order, copy excluded. */
    List<SeriesKey> seriesAt(ImageSize size) {
        Set<SeriesKey> present = new LinkedHashSet<>();
        measurements.stream().filter(m -> m.size().equals(size) && !m.isCopy()).map(Measurement::series)
                .sorted(Comparator.comparingInt(SeriesKey::order)).forEach(present::add);
        return List.copyOf(present);
    }

    /** The filters the vectorized C had no kernel for in this run (environment {@code c.vectorized.missing}). */
    List<String> vectorizedMissing() {
        String missing = environment.getOrDefault("c.vectorized.missing", "").trim();
        return missing.isEmpty() ? List.of() : List.of(missing.split("\\s+"));
    }

    /** A series' title, the vectorized C's with the SIMD level the run dispatched to. */
    String title(SeriesKey s) {
        return s.impl() == null ? s.title() : s.impl() == org.medjava.bench.variant.Impl.C_VECTORIZED
                ? s.impl().title(environment.get("c.simd")) : s.title();
    }

    Optional<HarnessResult> harness(boolean jni, String filter, ImageSize size, org.medjava.bench.variant.Impl impl) {
        return harness.stream().filter(h -> h.jni() == jni && h.filter().equals(filter) && h.size().equals(size)
                && h.impl() == impl).findFirst();
    }
}
