package org.medjava.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.medjava.bench.ipc.IpcPlan;
import org.medjava.bench.report.Csv;
import org.medjava.bench.run.RunPlan;
import org.medjava.bench.variant.JavaFilters;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The quick benchmark run exactly as a user starts it ({@code java -jar benchmarks.jar --quick}), in its own JVM with
 * real JMH forks, and the report it must produce: JMH JSON, CSV, Markdown, HTML, SVG and PNG charts with one series
 * per implementation measured. Timings are not judged here.
 */
class QuickReportIT {
    private static Path out;

    @BeforeAll
    @Timeout(value = 9, unit = TimeUnit.MINUTES) // the run itself may take 8 (JUnit's default here is 2)
    static void runQuickBenchmarks() throws Exception {
        Path jar = Path.of(System.getProperty("benchmarks.jar"));
        assertThat(jar).isRegularFile();
        out = jar.getParent().resolve("quick-report");
        Path log = jar.getParent().resolve("quick-report.log");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // the quick run only proves the pipeline: it must not refuse to run beside a full run's JMH lock
                "-Djmh.ignoreLock=true", "-jar", jar.toString(), "--quick", "--out", out.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean finished = p.waitFor(8, TimeUnit.MINUTES);
        if (!finished) {
            p.destroyForcibly().waitFor();
        }
        assertThat(finished).as("quick run finished in time; its output:\n%s", Files.readString(log)).isTrue();
        assertThat(p.exitValue()).as("quick run exit code; its output:\n%s", Files.readString(log)).isZero();
    }

    @Test
    void jmhJsonHoldsEveryPlannedBenchmark() throws Exception {
        JsonArray results = JsonParser.parseString(Files.readString(out.resolve("jmh-results.json"))).getAsJsonArray();
        assertThat(results).hasSize(RunPlan.quick().benchmarkCount());
        for (JsonElement e : results) {
            JsonObject r = e.getAsJsonObject();
            assertThat(r.getAsJsonObject("primaryMetric").get("score").getAsDouble()).isPositive();
            assertThat(r.getAsJsonObject("params").get("size").getAsString()).isEqualTo("256");
            assertThat(r.getAsJsonObject("secondaryMetrics").keySet()).anyMatch(k -> k.endsWith("gc.alloc.rate.norm"));
        }
    }

    @Test
    void csvHasOneRowPerResultAndEveryFilter() throws Exception {
        List<Map<String, String>> rows = Csv.read(out.resolve("results.csv"));
        assertThat(rows).hasSize(RunPlan.quick().benchmarkCount());
        assertThat(rows).allSatisfy(r -> assertThat(Double.parseDouble(r.get("score_ms"))).isPositive());
        assertThat(rows.stream().map(r -> r.get("filter")).collect(Collectors.toSet()))
                .containsAll(JavaFilters.ids()).contains("copy");
        assertThat(rows.stream().map(r -> r.get("series")).collect(Collectors.toSet()))
                .contains("java-optimized", "c-optimized-O2", "c-optimized-native", "opencv", "java-optimized@xint");
        assertThat(rows.stream().map(r -> r.get("data")).collect(Collectors.toSet()))
                .containsExactlyInAnyOrder("rgb8", "u16", "s16");
    }

    @Test
    void everyFilterChartHasOneSeriesPerImplementationMeasured() throws Exception {
        List<Map<String, String>> rows = Csv.read(out.resolve("results.csv"));
        for (String filter : JavaFilters.ids()) {
            Set<String> expected = rows.stream().filter(r -> r.get("data").equals("rgb8"))
                    .filter(r -> r.get("filter").equals(filter) || r.get("filter").equals("copy"))
                    .map(r -> r.get("series")).collect(Collectors.toCollection(TreeSet::new));
            assertThat(seriesIn(out.resolve("charts/" + filter + ".svg"))).as(filter).isEqualTo(expected);
            BufferedImage png = ImageIO.read(out.resolve("charts/" + filter + ".png").toFile());
            assertThat(png.getWidth()).isGreaterThan(500);
        }
        // the 16-bit chart: the series measured on unsigned grey data
        Set<String> grey = rows.stream().filter(r -> r.get("data").equals("u16") && r.get("filter").equals("blur"))
                .map(r -> r.get("series")).collect(Collectors.toCollection(TreeSet::new));
        assertThat(grey).containsExactlyInAnyOrder("java-optimized", "c-optimized-O2", "c-vectorized", "opencv");
        assertThat(seriesIn(out.resolve("charts/blur-gray16.svg"))).isEqualTo(grey);
        assertThat(seriesIn(out.resolve("charts/transport.svg")))
                .containsExactlyInAnyOrder("c-sockets", "java-streams", "java-nio");
    }

    @Test
    void pureCAndTransportRawDataAreComplete() throws Exception {
        List<Map<String, String>> c = Csv.read(out.resolve("raw/c-harness.csv"));
        // two builds × filters × two implementations × (pure C, JNI)
        assertThat(c).hasSize(2 * JavaFilters.ids().size() * 2 * 2);
        assertThat(c.stream().map(r -> r.get("via")).collect(Collectors.toSet())).containsExactlyInAnyOrder("c", "jni");
        assertThat(c).allSatisfy(r -> assertThat(Double.parseDouble(r.get("mean_ms"))).isPositive());
        List<Map<String, String>> t = Csv.read(out.resolve("raw/transport.csv"));
        assertThat(t.stream().map(r -> r.get("impl")).collect(Collectors.toSet()))
                .containsExactlyInAnyOrder("c-sockets", "java-streams", "java-nio");
        assertThat(t).allSatisfy(r -> assertThat(Long.parseLong(r.get("bytes"))).isEqualTo(32L << 20));
    }

    @Test
    void markdownAndHtmlCarryTheTablesAndEnvironment() throws Exception {
        String md = Files.readString(out.resolve("summary.md"));
        assertThat(md).contains("CPU:", "JDK:", "C -O2:", "-O3 -march=native", "OpenCV", "commit:",
                "Time per image at 256²", "Targets at 256²", "JNI ÷ C (best)", "Loopback TCP throughput",
                "Interpreter (-Xint", "16-bit grey: Java ÷ C and Java ÷ OpenCV per filter",
                "16-bit grey s16 (16-bit signed, OpenCV 16S): time per image at 256²");
        assertThat(Files.readAllLines(out.resolve("raw/problems.txt"))).isEmpty();
        // a smoke test, said at the top of both pages, and nothing marked met or missed
        assertThat(md).startsWith("# MedJava benchmark report\n\n> **Smoke test (./medjava bench --quick)")
                .doesNotContain("✓", "✗");
        assertThat(Files.readString(out.resolve("index.html"))).contains("<p class=\"smoke\" id=\"smoke-test\">")
                .doesNotContain("✓", "✗");
        Document html = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(
                new org.xml.sax.InputSource(new java.io.StringReader(Files.readString(out.resolve("index.html"))
                        .replace("<!DOCTYPE html>", ""))));
        NodeList imgs = html.getElementsByTagName("img");
        // time and Java ÷ C ratio per filter; + transport + blur-gray16; + issue 20's IPC (one-way, round trip,
        // Java ÷ C) and building blocks; ØMQ, FFM
        assertThat(imgs.getLength()).isEqualTo(2 * JavaFilters.ids().size() + 2 + 3 + 1
                + ISSUE20_ZMQ_FFM_CHARTS.size());
        for (int i = 0; i < imgs.getLength(); i++) {
            String src = ((Element) imgs.item(i)).getAttribute("src");
            assertThat(out.resolve(src)).isRegularFile();
        }
    }

    /** Issue 20's ØMQ and JNI-vs-FFM charts. */
    private static final List<String> ISSUE20_ZMQ_FFM_CHARTS = List.of("zmq-latency", "zmq-throughput", "ffm-frames");

    @Test
    void zmqAndFfmSectionsAreProducedAsASmokeTest() throws Exception {
        String md = Files.readString(out.resolve("summary.md"));
        assertThat(md).contains("## ØMQ: libzmq and JeroMQ against raw sockets",
                "ØMQ latency over tcp://", "ØMQ throughput over ipc://", "the whitepaper's figures beside ours",
                "## JNI against the Foreign Function & Memory API", "JNI and FFM: time per call",
                "Smoke test (quick run)");
        assertThat(md).doesNotContain("Verdict"); // a smoke test judges nothing

        boolean libzmq = Files.isExecutable(Path.of(System.getProperty("benchmarks.jar")).getParent()
                .resolve("native/zmq_perf"));
        Set<String> mechanisms = new TreeSet<>(Set.of("jeromq", "c-raw", "java-raw"));
        if (libzmq) {
            mechanisms.add("libzmq");
        }
        List<Map<String, String>> zmq = Csv.read(out.resolve("raw/zmq.csv"));
        // every mechanism × transport × test × size, once (one run)
        assertThat(zmq).hasSize(mechanisms.size() * 2 * 2 * 6);
        assertThat(zmq.stream().map(r -> r.get("impl")).collect(Collectors.toSet())).isEqualTo(mechanisms);
        assertThat(zmq).allSatisfy(r -> assertThat(Double.parseDouble(r.get("seconds"))).isPositive());
        Set<String> series = new TreeSet<>();
        mechanisms.forEach(m -> series.addAll(List.of(m + "@tcp", m + "@ipc")));
        assertThat(seriesIn(out.resolve("charts/zmq-latency.svg"))).isEqualTo(series);
        assertThat(seriesIn(out.resolve("charts/zmq-throughput.svg"))).isEqualTo(series);

        Set<String> ffmSeries = seriesIn(out.resolve("charts/ffm-frames.svg"));
        assertThat(ffmSeries).contains("passCopy-jni@jit", "passPinned-jni@jit", "passOffHeap-jni@jit");
        if (org.medjava.bench.setup.JvmColumn.jdk25Installed()) {
            assertThat(ffmSeries).contains("passCopy-ffm@jdk25", "passPinned-ffm@jdk25", "passOffHeap-ffm@jdk25",
                    "passCopy-jni@jdk25");
            assertThat(Csv.read(out.resolve("raw/ffm-check.csv"))).singleElement()
                    .satisfies(r -> assertThat(r.get("result")).isEqualTo("identical"));
        }
        for (String chart : ISSUE20_ZMQ_FFM_CHARTS) {
            assertThat(ImageIO.read(out.resolve("charts/" + chart + ".png").toFile()).getWidth()).isGreaterThan(500);
        }
    }

    /** Issue 20, experiments 1 and 3: every mechanism, pattern, size and column measured, sections and charts. */
    @Test
    void sameHostIpcAndBuildingBlockSectionsAreProduced() throws Exception {
        List<Map<String, String>> ipc = Csv.read(out.resolve("raw/ipc.csv"));
        Set<String> cases = ipc.stream().map(r -> r.get("lang") + " " + r.get("mechanism") + " " + r.get("pattern")
                + " " + r.get("size")).collect(Collectors.toSet());
        assertThat(cases).hasSize(2 * IpcPlan.MECHANISMS.size() * IpcPlan.PATTERNS.size() * IpcPlan.SIZES.size());
        assertThat(ipc).allSatisfy(r -> assertThat(Double.parseDouble(r.get("seconds"))).isPositive());
        List<Map<String, String>> blocks = Csv.read(out.resolve("raw/blocks.csv"));
        assertThat(blocks.stream().map(r -> r.get("impl") + " " + r.get("block")).collect(Collectors.toSet()))
                .hasSize(4 * 4);
        assertThat(blocks).allSatisfy(r -> assertThat(Double.parseDouble(r.get("seconds"))).isPositive());

        String md = Files.readString(out.resolve("summary.md"));
        assertThat(md).contains("## Same-host IPC: Java and C", "Same-host IPC, one-way: µs per message",
                "Same-host IPC, round trip: µs per message", "how many times faster than loopback TCP",
                "## Transport building blocks: Java and C", "Transport building blocks: ms per block",
                "UDP over loopback: datagrams lost", "1 MiB", "40,000 B", "Smoke test (quick mode)")
                .doesNotContain("Verdict");
        Set<String> series = new TreeSet<>();
        for (String lang : List.of("c", "java")) {
            IpcPlan.MECHANISMS.forEach(m -> series.add(lang + "-" + m));
        }
        assertThat(seriesIn(out.resolve("charts/ipc-oneway.svg"))).isEqualTo(series);
        assertThat(seriesIn(out.resolve("charts/ipc-roundtrip.svg"))).isEqualTo(series);
        assertThat(seriesIn(out.resolve("charts/blocks.svg")))
                .containsExactlyInAnyOrder("copy-memcpy", "copy-loop", "crc16", "udp");
        assertThat(ImageIO.read(out.resolve("charts/ipc-java-vs-c.png").toFile()).getWidth()).isGreaterThan(500);
    }

    private static Set<String> seriesIn(Path svg) throws Exception {
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new File(svg.toString()));
        NodeList groups = doc.getElementsByTagName("g");
        Set<String> ids = new TreeSet<>();
        Set<String> duplicates = new HashSet<>();
        for (int i = 0; i < groups.getLength(); i++) {
            Element g = (Element) groups.item(i);
            if (g.getAttribute("class").equals("series") && !ids.add(g.getAttribute("data-series"))) {
                duplicates.add(g.getAttribute("data-series"));
            }
        }
        assertThat(duplicates).as("series drawn twice in %s", svg).isEmpty();
        return ids;
    }
}
