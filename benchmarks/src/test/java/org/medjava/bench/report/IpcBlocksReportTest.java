package org.medjava.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.bench.ipc.BlocksStep;
import org.medjava.bench.ipc.IpcPlan;
import org.medjava.bench.ipc.IpcStep;

/**
 * Issue 20's IPC and building-block sections on hand-written runs: every size in the tables, Java ÷ C from the
 * medians, charts by message size, and verdicts that follow the figures (and none in a quick run).
 */
class IpcBlocksReportTest {

    /** Java and C alike except Java takes {@code javaFactor}× C's time; non-TCP mechanisms take 1/{@code speedUp}. */
    private static void ipcRun(Path raw, double javaFactor, double speedUp) throws Exception {
        List<String> lines = new ArrayList<>(List.of(IpcStep.HEADER));
        for (String lang : List.of("c", "java")) {
            for (String mech : IpcPlan.MECHANISMS) {
                for (String pattern : IpcPlan.PATTERNS) {
                    for (int size : IpcPlan.SIZES) {
                        for (int run = 0; run < 3; run++) {
                            double micros = (10 + size / 1000.0) * (lang.equals("java") ? javaFactor : 1)
                                    / (mech.equals("tcp") ? 1 : speedUp) * (1 + run * 0.1);
                            lines.add(String.format(Locale.ROOT, "%s,%s,%s,%d,0,%d,100,%.9f", lang, mech, pattern, size,
                                    run, micros * 100 / 1e6));
                        }
                    }
                }
            }
        }
        Files.write(raw.resolve("ipc.csv"), lines);
        Files.write(raw.resolve("ipc.properties"), List.of("pin=true", "forks=1", "runs=3", "warmup=1",
                "load.start=1.00 1.00 1.00", "load.end=1.00 1.00 1.00"));
    }

    private static void blocksRun(Path raw, double jitFactor) throws Exception {
        List<String> lines = new ArrayList<>(List.of(BlocksStep.HEADER));
        for (String impl : BlocksReport.IMPLS) {
            double factor = impl.equals("java-jit") ? jitFactor : impl.equals("java-xint") ? 20 : 1;
            for (String block : BlocksReport.BLOCKS) {
                lines.add(String.format(Locale.ROOT, "%s,%s,0,0,%.9f,%d", impl, block, 0.001 * factor,
                        block.equals("udp") ? 7 : 0));
            }
        }
        Files.write(raw.resolve("blocks.csv"), lines);
        Files.write(raw.resolve("blocks.properties"), List.of("forks=1", "runs=1", "datagrams=100000"));
    }

    private static Path raw(Path out, String mode) throws Exception {
        Path raw = Files.createDirectories(out.resolve("raw"));
        Files.write(raw.resolve("environment.properties"), List.of("mode=" + mode, "cores=2"));
        return raw;
    }

    @Test
    void fullRunTablesChartsAndVerdictsFollowTheFigures(@TempDir Path out) throws Exception {
        Path raw = raw(out, "full");
        ipcRun(raw, 2.0, 5.0);
        blocksRun(raw, 2.5);

        ReportGenerator.generate(out);

        String md = Files.readString(out.resolve("summary.md"));
        assertThat(md).contains("## Same-host IPC: Java and C", "## Transport building blocks: Java and C",
                "40 B", "400 B", "4,000 B", "40,000 B", "1 MiB", "Pinned: the client on CPU 0")
                .doesNotContain("Smoke test");
        // every Java ÷ C cell is the ratio of the medians: 2×
        assertThat(md).contains("| loopback TCP | 40 B |", "| 2.00× |");
        assertThat(md).contains("Verdict (computed from this run's medians)", "still holds in 10 of 10 cases",
                "Java ÷ C per mechanism, median (range) over sizes and patterns: loopback TCP 2.00×");
        assertThat(md).contains("\"C 2× faster than JIT Java\" still roughly holds");
        assertThat(out.resolve("charts/ipc-oneway.svg")).content().contains("data-series=\"java-shm\"",
                "data-series=\"c-tcp\"", "1 MiB");
        assertThat(out.resolve("charts/blocks.png")).isRegularFile();
        assertThat(out.resolve("index.html")).content().contains("<h2 id=\"ipc\">", "<h2 id=\"blocks\">",
                "charts/ipc-roundtrip.svg", "charts/ipc-java-vs-c.svg", "charts/blocks.svg");
    }

    @Test
    void verdictsTurnWhenTheFiguresDo(@TempDir Path out) throws Exception {
        Path raw = raw(out, "full");
        ipcRun(raw, 1.0, 1.2);
        blocksRun(raw, 1.1);

        ReportGenerator.generate(out);

        String md = Files.readString(out.resolve("summary.md"));
        assertThat(md).contains("no longer holds here: only 0 of 10 cases", "\"C 2× faster than JIT Java\" no longer holds");
    }

    @Test
    void quickRunIsASmokeTestWithoutVerdicts(@TempDir Path out) throws Exception {
        Path raw = raw(out, "quick");
        ipcRun(raw, 2.0, 5.0);
        blocksRun(raw, 2.5);

        ReportGenerator.generate(out);

        String md = Files.readString(out.resolve("summary.md"));
        assertThat(md).contains("Smoke test (quick mode)", "## Same-host IPC", "## Transport building blocks")
                .doesNotContain("Verdict");
    }

    @Test
    void crc16MatchesItsCheckValue() {
        byte[] check = "123456789".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        assertThat(org.medjava.bench.ipc.Crc16.of(check, 0, check.length)).isEqualTo(0x29B1);
    }
}
