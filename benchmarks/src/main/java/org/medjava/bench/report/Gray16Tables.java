package org.medjava.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import org.medjava.bench.setup.GrayFormat;
import org.medjava.bench.setup.ImageSize;
import org.medjava.bench.setup.JvmColumn;
import org.medjava.bench.variant.Impl;

/**
 * The 16-bit grey tables (issue 17): times per series for each measured size and format, and the ratios the issue
 * asks for, Java ÷ C and Java ÷ OpenCV per filter at every measured size, beside the 8-bit ratios of the same run.
 */
final class Gray16Tables {
    private final ReportData all;

    Gray16Tables(ReportData all) {
        this.all = all;
    }

    List<Table> all() {
        List<Table> tables = new ArrayList<>();
        List<String> formats = all.grayFormats();
        if (formats.isEmpty()) {
            return tables;
        }
        tables.add(ratios(false));
        tables.add(ratios(true));
        for (String format : formats) {
            ReportData grey = all.only(format);
            for (ImageSize size : grey.sizes()) {
                tables.add(times(grey, format, size));
            }
        }
        tables.removeIf(Table::isEmpty);
        return tables;
    }

    private static String formatTitle(String format) {
        GrayFormat f = GrayFormat.parse(format);
        return format + " (" + f.bitsStored() + "-bit " + (f.signed() ? "signed" : "unsigned") + ", OpenCV "
                + f.openCvDepthName() + ")";
    }

    Table times(ReportData grey, String format, ImageSize size) {
        List<SeriesKey> series = grey.seriesAt(size);
        List<String> headers = new ArrayList<>(List.of("filter"));
        series.forEach(s -> headers.add(s.id()));
        Table t = new Table("16-bit grey " + formatTitle(format) + ": time per image at " + size.label()
                + " (ms; copy + filter; mean of the JMH iterations)", headers);
        for (String filter : grey.filters()) {
            List<String> row = new ArrayList<>(List.of(filter));
            for (SeriesKey s : series) {
                row.add(grey.find(filter, size, s).map(m -> SummaryTables.ms(m.scoreMs())).orElse("–"));
            }
            t.row(row);
        }
        t.note("Input: a generated CT-like slice (TestImages.ct: air, body, fat, lungs, heart, aorta, vertebra, ribs, "
                + "about 12 HU of noise; unsigned = HU + 1024, signed = HU). Same columns as the 8-bit tables; OpenCV "
                + "on " + GrayFormat.parse(format).openCvDepthName() + " single-channel matrices, not bit-exact.");
        return t;
    }

    /** Java optimized (1 thread) ÷ C optimized at both levels and ÷ OpenCV, per filter and size, per format. */
    Table ratios(boolean best) {
        List<String> formats = all.grayFormats();
        List<String> headers = new ArrayList<>(List.of("filter", "size"));
        for (String format : formats) {
            String f = GrayFormat.parse(format).openCvDepthName();
            headers.addAll(List.of("Java opt " + f + " (ms)", "÷ C vectorized", "÷ C portable -O2",
                    "÷ C portable native", "÷ OpenCV " + f));
        }
        headers.addAll(List.of("Java sf ÷ C sf -O2 (" + GrayFormat.parse(formats.get(0)).openCvDepthName() + ")",
                "8-bit: Java opt ÷ C opt -O2", "8-bit: ÷ OpenCV"));
        Table t = new Table("16-bit grey: Java ÷ C and Java ÷ OpenCV per filter (Java optimized, 1 thread; "
                + (best ? "fastest iterations" : "means") + ")", headers);
        ReportData rgb = all.only(Measurement.RGB8);
        List<ImageSize> sizes = new ArrayList<>();
        formats.forEach(f -> all.only(f).sizes().stream().filter(s -> !sizes.contains(s)).forEach(sizes::add));
        sizes.sort(java.util.Comparator.comparingLong(ImageSize::pixels));
        SeriesKey opt = SeriesKey.of(Impl.JAVA_OPTIMIZED, JvmColumn.JIT);
        for (String filter : org.medjava.bench.variant.JavaFilters.ids()) {
            for (ImageSize size : sizes) {
                List<String> row = new ArrayList<>(List.of(filter, size.label()));
                boolean any = false;
                for (String format : formats) {
                    ReportData grey = all.only(format);
                    OptionalDouble java = time(grey, filter, size, opt, best);
                    any |= java.isPresent();
                    row.add(SummaryTables.ms(java));
                    OptionalDouble vec = time(grey, filter, size, SeriesKey.of(Impl.C_VECTORIZED, JvmColumn.JIT), best);
                    row.add(vec.isEmpty() && java.isPresent() && all.vectorizedMissing().contains(filter) ? "n/a"
                            : ratio(java, vec));
                    row.add(ratio(java, time(grey, filter, size, SeriesKey.of(Impl.C_OPTIMIZED_O2, JvmColumn.JIT), best)));
                    row.add(ratio(java, time(grey, filter, size, SeriesKey.of(Impl.C_OPTIMIZED_NATIVE, JvmColumn.JIT),
                            best)));
                    row.add(ratio(java, time(grey, filter, size, SeriesKey.of(Impl.OPENCV, JvmColumn.JIT), best)));
                }
                ReportData first = all.only(formats.get(0));
                row.add(ratio(time(first, filter, size, SeriesKey.of(Impl.JAVA_STRAIGHTFORWARD, JvmColumn.JIT), best),
                        time(first, filter, size, SeriesKey.of(Impl.C_STRAIGHTFORWARD_O2, JvmColumn.JIT), best)));
                OptionalDouble java8 = time(rgb, filter, size, opt, best);
                row.add(ratio(java8, time(rgb, filter, size, SeriesKey.of(Impl.C_OPTIMIZED_O2, JvmColumn.JIT), best)));
                row.add(ratio(java8, time(rgb, filter, size, SeriesKey.of(Impl.OPENCV, JvmColumn.JIT), best)));
                if (any) {
                    t.row(row);
                }
            }
        }
        t.note("A ratio is Java's time divided by the other's, both from this run: below 1 Java is faster. \"–\": not "
                + "measured, or OpenCV has no counterpart (Oil Painting, Spread; no median on 16S). The 8-bit columns "
                + "are the RGB benchmarks at the same size when this run measured them.");
        StringBuilder openCv = new StringBuilder("OpenCV on 16-bit grey: ");
        List<String> parts = new ArrayList<>();
        for (String filter : org.medjava.bench.variant.JavaFilters.ids()) {
            String d = Impl.openCvGray16Description(filter);
            parts.add(filter + " → " + (d == null ? "no counterpart" : d));
        }
        openCv.append(String.join("; ", parts)).append(". \"Equivalent\": the same operation, whose interior agrees "
                + "with xv within one grey level (checked by the benchmarks' tests); borders differ (OpenCV reflects, "
                + "xv clips windows or keeps the frame).");
        t.note(openCv.toString());
        return t;
    }

    private static OptionalDouble time(ReportData data, String filter, ImageSize size, SeriesKey s, boolean best) {
        return data.find(filter, size, s).map(m -> OptionalDouble.of(best ? m.bestMs() : m.scoreMs()))
                .orElse(OptionalDouble.empty());
    }

    private static String ratio(OptionalDouble a, OptionalDouble b) {
        return a.isPresent() && b.isPresent()
                ? String.format(Locale.ROOT, "%.2f", a.getAsDouble() / b.getAsDouble()) : "–";
    }
}
