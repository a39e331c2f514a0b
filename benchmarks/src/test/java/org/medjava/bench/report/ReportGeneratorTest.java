package org.medjava.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The generator on a small hand-written run: every output is there, charts carry their series, targets are judged. */
class ReportGeneratorTest {

    private static String result(String benchmark, String size, String filter, String impl, String jvm, double ms) {
        return result(benchmark, size, filter, impl, jvm, ms, null);
    }

    private static String gray(String size, String filter, String impl, String format, double ms) {
        return result("Gray16Benchmark.run", size, filter, impl, "jit", ms, format);
    }

    private static String result(String benchmark, String size, String filter, String impl, String jvm, double ms,
                                 String format) {
        String params = filter == null ? "\"size\":\"" + size + "\""
                : "\"size\":\"" + size + "\",\"filter\":\"" + filter + "\",\"impl\":\"" + impl + "\""
                + (format == null ? "" : ",\"format\":\"" + format + "\"");
        return "{\"benchmark\":\"org.medjava.bench." + benchmark + "\",\"mode\":\"avgt\",\"jvmArgs\":[\"-Xmx2g\","
                + "\"-Dmedjava.bench.jvm=" + jvm + "\"],\"params\":{" + params + "},\"primaryMetric\":{\"score\":" + ms
                + ",\"scoreError\":\"NaN\",\"scoreUnit\":\"ms/op\",\"rawData\":[[" + ms + "," + ms + "]]},"
                + "\"secondaryMetrics\":{\"gc.alloc.rate.norm\":{\"score\":4096.0,\"scoreUnit\":\"B/op\"}}}";
    }

    @Test
    void writesEveryPart(@TempDir Path out) throws Exception {
        writeRun(out, "test");

        List<Path> written = ReportGenerator.generate(out);

        assertThat(written).allSatisfy(p -> assertThat(p).isRegularFile());
        assertThat(out.resolve("charts/blur.svg")).content()
                .contains("data-series=\"java-optimized\"", "data-series=\"java-optimized@jdk25\"",
                        "data-series=\"java-optimized@xint\"", "data-series=\"opencv\"", "data-series=\"copy\"");
        // Java ÷ C and ÷ OpenCV by size, JDK 17 and 25, with the 1× line
        assertThat(out.resolve("charts/blur-ratio.svg")).content().contains(
                "data-series=\"java-optimized/c-optimized-O2\"", "data-series=\"java-optimized/opencv\"",
                "data-series=\"java-optimized@jdk25/opencv\"", "1×");
        assertThat(out.resolve("charts/spread.svg")).content().contains("data-series=\"c-optimized-O2\"")
                .doesNotContain("data-series=\"java-optimized\"");
        assertThat(out.resolve("results.csv")).content().startsWith("filter,size,").contains("best_ms").contains(
                "blur,512,512,512,262144,java-optimized@jdk25,java-optimized,jdk25,0.700000");
        String md = Files.readString(out.resolve("summary.md"));
        assertThat(md).contains("Targets at 512², Java optimized on JDK 17 JIT (ratios of medians [95% CI]",
                "| blur | 0.800 [0.800–0.800] | – |", "| 0.80 [0.80–0.80] |", // portable C: no verdict
                "2.67 [2.67–2.67] ✗ 2.67× over", "2.00 [2.00–2.00] ✓", "Time per image at 512² (ms; copy + filter; "
                + "median [95% confidence interval]",
                "JNI ÷ C (best)", "| blur | c-optimized-O2 | 0.840 | 0.800 | 1.05 | 1.00 | 0.900 | 1.11 |", "| 8 KiB | 100 | 50 | 100 | 0.50 ✗ | 1.00 ✓ |");
        assertThat(out.resolve("index.html")).content().contains("<img src=\"charts/blur.svg\"",
                "charts/transport.svg");
    }

    /** One small run's raw files: 8-bit blur and spread at two sizes, the C harness, the transport. */
    static void writeRun(Path out, String mode) throws Exception {
        Path raw = Files.createDirectories(out.resolve("raw"));
        String runs = String.join(",", List.of(
                result("CopyBaseline.copy", "256", null, null, "jit", 0.01),
                result("CopyBaseline.copy", "512", null, null, "jit", 0.04),
                result("FilterBenchmark.run", "256", "blur", "java-optimized", "jit", 0.2),
                result("FilterBenchmark.run", "512", "blur", "java-optimized", "jit", 0.8),
                result("FilterBenchmark.run", "512", "blur", "java-parallel", "jit", 0.4),
                result("FilterBenchmark.run", "512", "blur", "java-optimized", "jdk25", 0.7),
                result("FilterBenchmark.run", "256", "blur", "java-optimized", "xint", 9.0),
                result("FilterBenchmark.run", "512", "blur", "c-optimized-O2", "jit", 1.0),
                result("FilterBenchmark.run", "512", "blur", "opencv", "jit", 0.3),
                result("FilterBenchmark.run", "512", "spread", "c-optimized-O2", "jit", 2.0)));
        Files.writeString(raw.resolve("jmh-01.json"), "[" + runs + "]");
        Files.write(raw.resolve("c-harness.csv"), List.of("via,build,filter,width,height,impl,runs,mean_ms,min_ms",
                "c,O2,blur,512,512,optimized,10,0.9,0.8", "jni,O2,blur,512,512,optimized,10,1.0,0.84"));
        Files.write(raw.resolve("transport.csv"), List.of("impl,buffer,rep,bytes,seconds",
                "c-sockets,8192,0,1048576,1.0", "c-sockets,8192,1,1048576,0.010",
                "java-nio,8192,1,1048576,0.0100", "java-streams,8192,1,1048576,0.0200"));
        Files.write(raw.resolve("environment.properties"), List.of("mode=" + mode, "cores=2"));
    }

    @Test
    void aQuickRunIsLabelledASmokeTestOnEveryPageAndJudgesNothing(@TempDir Path out) throws Exception {
        writeRun(out, "quick");

        ReportGenerator.generate(out);

        String md = Files.readString(out.resolve("summary.md"));
        String html = Files.readString(out.resolve("index.html"));
        assertThat(md).contains(Summary.SMOKE_BANNER, SummaryTables.SMOKE_NOTE, "| blur | 0.800 [0.800–0.800] | – |",
                "2.67 [2.67–2.67] |", "| 8 KiB | 100 | 50 | 100 | 0.50 | 1.00 |").doesNotContain("✓", "✗", "≈");
        assertThat(html).contains("id=\"smoke-test\"").doesNotContain("✓", "✗", "class=\"miss\"");
        // tables at every size, the small one too
        assertThat(md).contains("Time per image at 256²", "Time per image at 512²", "Targets at 256²");
    }

    /**
     * Issue 35: medians with bootstrap intervals from the iterations of both forks, ≈ where the ratio's interval
     * holds the target, the load around each cell, and n/a where the vectorized C has no kernel yet.
     */
    @Test
    void intervalsVerdictsLoadAndNotApplicable(@TempDir Path out) throws Exception {
        Path raw = Files.createDirectories(out.resolve("raw"));
        String load = ",\"medjava.load\":{\"load1Before\":0.4,\"load1After\":1.6,\"othersAtStart\":0.7,"
                + "\"othersDuring\":0.6,\"attempts\":3,\"loaded\":true}";
        String runs = String.join(",",
                withSamples("blur", "java-optimized", "[[0.90,1.00,1.10,0.95,1.05],[1.00,0.98,1.02,0.97,1.03]]", ""),
                withSamples("blur", "c-vectorized", "[[0.97,1.02,1.00,1.01,0.99],[1.03,0.99,1.01,1.00,0.98]]", load),
                withSamples("blur", "opencv", "[[2.0,2.1,1.9,2.0,2.05],[1.95,2.0,2.02,1.98,2.0]]", ""),
                withSamples("spread", "java-optimized", "[[3.0,3.1,2.9,3.0,3.0],[3.0,3.1,2.9,3.0,3.0]]", ""));
        Files.writeString(raw.resolve("jmh-01-001.json"), "[" + runs + "]");
        Files.write(raw.resolve("environment.properties"), List.of("mode=standard", "cores=2", "c.simd=avx512",
                "c.vectorized.missing=despeckle oil-paint spread"));

        ReportGenerator.generate(out);

        String md = Files.readString(out.resolve("summary.md"));
        assertThat(md).contains("| blur | 1.00 [", "≈ |", "0.50 [", "✓ |", "1.60 loaded |", " †",
                "| spread | 3.00 [2.95–3.05] | n/a |", "n/a: the vectorized C has no kernel for despeckle, oil-paint, "
                + "spread yet", "c-vectorized = C vectorized (AVX-512, -O2 + intrinsics)");
        // seeded: the same raw results give the same report
        ReportGenerator.generate(out);
        assertThat(Files.readString(out.resolve("summary.md"))).isEqualTo(md);
    }

    private static String withSamples(String filter, String impl, String rawData, String load) {
        return "{\"benchmark\":\"org.medjava.bench.FilterBenchmark.run\",\"mode\":\"avgt\",\"jvmArgs\":"
                + "[\"-Dmedjava.bench.jvm=jit\"],\"params\":{\"size\":\"1024\",\"filter\":\"" + filter
                + "\",\"impl\":\"" + impl + "\"},\"primaryMetric\":{\"score\":1.0,\"scoreError\":\"NaN\","
                + "\"scoreUnit\":\"ms/op\",\"rawData\":" + rawData + "}" + load + "}";
    }

    /** The 16-bit results get their own tables, ratios and charts; the 8-bit tables and charts stay 8-bit. */
    @Test
    void grayResultsAppearBesideTheRgbOnes(@TempDir Path out) throws Exception {
        Path raw = Files.createDirectories(out.resolve("raw"));
        String runs = String.join(",", List.of(
                result("CopyBaseline.copy", "512", null, null, "jit", 0.04),
                result("FilterBenchmark.run", "512", "blur", "java-optimized", "jit", 0.8),
                result("FilterBenchmark.run", "512", "blur", "c-optimized-O2", "jit", 1.0),
                result("FilterBenchmark.run", "512", "blur", "opencv", "jit", 0.4),
                gray("512", "blur", "java-optimized", "u16", 0.6),
                gray("512", "blur", "c-optimized-O2", "u16", 0.5),
                gray("512", "blur", "c-optimized-native", "u16", 0.3),
                gray("512", "blur", "opencv", "u16", 0.2),
                gray("512", "blur", "java-optimized", "s16", 0.9),
                gray("512", "blur", "opencv", "s16", 0.3),
                gray("512", "despeckle", "java-optimized", "s16", 1.0),
                gray("4096", "blur", "java-optimized", "u16", 40),
                gray("4096", "blur", "c-optimized-O2", "u16", 50)));
        Files.writeString(raw.resolve("jmh-01.json"), "[" + runs + "]");
        Files.write(raw.resolve("environment.properties"), List.of("mode=test", "cores=2"));

        ReportGenerator.generate(out);

        String md = Files.readString(out.resolve("summary.md"));
        assertThat(md).contains("16-bit grey: Java ÷ C and Java ÷ OpenCV per filter (Java optimized, 1 thread; means)",
                "| blur | 512² | 0.600 | – | 1.20 | 2.00 | 3.00 | 0.900 | – | – | – | 3.00 | – | 0.80 | 2.00 |",
                "| blur | 4096² | 40.0 | – | 0.80 | – | – | – | – | – | – | – | – | – | – |",
                "| despeckle | 512² | – | – | – | – | – | 1.00 | – | – | – | – |",
                "16-bit grey u16 (16-bit unsigned, OpenCV 16U): time per image at 512²",
                "16-bit grey s16 (16-bit signed, OpenCV 16S): time per image at 512²",
                "despeckle → Imgproc.medianBlur 3, 16U only");
        // the 8-bit times table keeps its columns: no 16-bit value leaks into it
        assertThat(md).contains("| blur | 0.800 [0.800–0.800] | 1.00 [1.00–1.00] | 0.400 [0.400–0.400] |");
        assertThat(md.indexOf("16-bit grey: Java ÷ C")).isGreaterThan(md.indexOf("Targets at 512²"));
        assertThat(out.resolve("charts/blur-gray16.svg")).content()
                .contains("16-bit grey u16", "data-series=\"java-optimized\"", "data-series=\"c-optimized-native\"")
                .doesNotContain("data-series=\"copy\"");
        assertThat(out.resolve("charts/blur.svg")).content().doesNotContain("data-series=\"c-optimized-native\"");
        assertThat(out.resolve("results.csv")).content().contains(
                "blur,512,512,512,262144,java-optimized,java-optimized,jit,0.600000",
                ",false,u16", ",true,s16", ",true,rgb8");
        assertThat(out.resolve("index.html")).content().contains("<img src=\"charts/blur-gray16.svg\"");
    }

    @Test
    void logTicksCoverTheRangeInOneTwoFiveSteps() {
        assertThat(LineChart.logTicks(0.03, 700)).containsExactly(0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0,
                20.0, 50.0, 100.0, 200.0, 500.0, 1000.0);
        assertThat(LineChart.linearTicks(0, 2705)).startsWith(0.0, 500.0).endsWith(3000.0);
    }
    @Test
    void errorBarsAreDrawnWithCapsAndWidenTheRange() {
        List<LineChart.Tick> ticks = List.of(new LineChart.Tick(1, "a"), new LineChart.Tick(4, "b"));
        LineChart plain = new LineChart("t", "x", "y", false, ticks, LineChart::number);
        plain.add(new LineChart.Series("s", "s", java.awt.Color.RED, Canvas.Stroke.SOLID, 2,
                List.of(new double[] {1, 2}, new double[] {4, 3})));
        LineChart bars = new LineChart("t", "x", "y", false, ticks, LineChart::number).reference(1, "1×");
        bars.add(new LineChart.Series("s", "s", java.awt.Color.RED, Canvas.Stroke.SOLID, 2,
                List.of(new double[] {1, 2, 1.5, 2.5}, new double[] {4, 3, 2, 9})));
        long plainLines = plain.svg().lines().filter(l -> l.startsWith("<line")).count();
        String svg = bars.svg();
        // three lines per bar (the bar and two caps) and the reference line
        assertThat(svg.lines().filter(l -> l.startsWith("<line")).count() - plainLines).isGreaterThanOrEqualTo(7);
        assertThat(svg).contains(">1×<");
        assertThat(svg).contains(">10<"); // the upper end of a bar (9) widened the axis past 3
    }
}
