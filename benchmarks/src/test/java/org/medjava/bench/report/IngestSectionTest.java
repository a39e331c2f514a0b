package org.medjava.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.bench.ingest.IngestStep;

/** The ingest section from a hand-written raw/ingest.csv: medians, per-round ratios, the 2× target, the skip note. */
class IngestSectionTest {
    @TempDir
    Path raw;

    /**
     * Three rounds. C-STORE, 1 sender: the store 600 × (1, 1.1, 0.9), Orthanc 250; 4 senders: 900 against 500.
     * STOW-RS, 1 sender: 400 against 200; 4 senders: the store alone (Orthanc without its DICOMweb plugin).
     */
    private void csv(double load) throws Exception {
        List<String> lines = new ArrayList<>(List.of(IngestStep.HEADER));
        double[] factor = {1, 1.1, 0.9};
        for (int round = 1; round <= 3; round++) {
            double f = factor[round - 1];
            lines.add(line("store", "c-store", 1, round, 600 * f, load));
            lines.add(line("orthanc", "c-store", 1, round, 250, load));
            lines.add(line("store", "c-store", 4, round, 900, load));
            lines.add(line("orthanc", "c-store", 4, round, 500, load));
            lines.add(line("store", "stow-rs", 1, round, 400, load));
            lines.add(line("orthanc", "stow-rs", 1, round, 200, load));
            lines.add(line("store", "stow-rs", 4, round, 700, load));
        }
        Files.write(raw.resolve(IngestStep.CSV), lines);
    }

    /** 500 instances at {@code rate}; p50 2 ms, p99 4 ms (the store) or 8 ms (Orthanc); 1.5 CPU ms per instance. */
    private static String line(String target, String protocol, int senders, int round, double rate, double load) {
        return String.format(Locale.ROOT, "%s,%s,%d,%d,500,%.4f,%.2f,2.0000,%.4f,%.2f,%.2f", target, protocol,
                senders, round, 500 / rate, rate, target.equals("store") ? 4.0 : 8.0, 0.75, load);
    }

    private static List<String> row(Table t, String... first) {
        String md = t.markdown();
        String prefix = "| " + String.join(" | ", first) + " |";
        return md.lines().filter(l -> l.startsWith(prefix)).findFirst()
                .map(l -> List.of(l.substring(2, l.length() - 2).split(" \\| "))).orElseThrow(
                        () -> new AssertionError("no row " + prefix + " in\n" + md));
    }

    @Test
    void theTargetIsTheRatioOfMediansWithTheRoundsRatiosBeside() throws Exception {
        csv(1.5);
        Section s = IngestSection.build(raw, raw, Map.of(), false).orElseThrow();
        Table targets = s.tables().get(0);
        assertThat(row(targets, "C-STORE", "1")).containsExactly("C-STORE", "1", "600", "250", "2.40 (≥ 2.0) ✓",
                "[2.16–2.64]", "4.00", "8.00");
        assertThat(row(targets, "C-STORE", "4")).containsExactly("C-STORE", "4", "900", "500", "1.80 (≥ 2.0) ✗",
                "[1.80–1.80]", "4.00", "8.00");
        assertThat(row(targets, "STOW-RS", "1").get(4)).isEqualTo("2.00 (≥ 2.0) ✓");
        assertThat(row(targets, "STOW-RS", "4")).containsExactly("STOW-RS", "4", "700", "–", "–", "–", "4.00", "–");
    }

    @Test
    void aProtocolTableHasRateRangesPercentilesCpuAndLoad() throws Exception {
        csv(1.5);
        Section s = IngestSection.build(raw, raw, Map.of(), false).orElseThrow();
        Table cstore = s.tables().stream().filter(t -> t.title().startsWith("C-STORE")).findFirst().orElseThrow();
        assertThat(cstore.title()).isEqualTo("C-STORE: median [min–max] of 3 rounds");
        assertThat(row(cstore, "the store", "1")).containsExactly("the store", "1", "600 [540–660]", "2.00",
                "4.00 [4.00–4.00]", "1.50", "1.50");
        assertThat(row(cstore, "Orthanc", "4").get(2)).isEqualTo("500 [500–500]");
    }

    @Test
    void aSmokeTestShowsTheRatiosWithoutMarks() throws Exception {
        csv(1.5);
        Section s = IngestSection.build(raw, raw, Map.of(), true).orElseThrow();
        assertThat(s.markdown()).doesNotContain("✓", "✗").contains("2.40 (≥ 2.0)", "Smoke test");
    }

    @Test
    void anOverloadedMachineIsSaid() throws Exception {
        csv(1.5);
        assertThat(IngestSection.build(raw, raw, Map.of("cores", "2"), false).orElseThrow().paragraphs())
                .noneMatch(p -> p.contains("Caution"));
        csv(3.25);
        assertThat(IngestSection.build(raw, raw, Map.of("cores", "2"), false).orElseThrow().paragraphs())
                .anySatisfy(p -> assertThat(p).startsWith("Caution: the load average reached 3.25 on 2 cores")
                        .contains("the servers and the senders"));
    }

    @Test
    void aSkippedStepIsItsNoteAndNoStepIsNoSection() throws Exception {
        assertThat(IngestSection.build(raw, raw, Map.of(), true)).isEmpty();
        Files.write(raw.resolve(IngestStep.NOTES), List.of(IngestStep.QUICK_NOTE));
        Optional<Section> s = IngestSection.build(raw, raw, Map.of(), true);
        assertThat(s).isPresent();
        assertThat(s.get().tables()).isEmpty();
        assertThat(s.get().markdown()).contains("ingest: skipped in quick mode");
    }

    @Test
    void anUnknownProtocolIsAnErrorNamingIt() throws Exception {
        Files.write(raw.resolve(IngestStep.CSV), List.of(IngestStep.HEADER,
                "store,c-find,1,1,500,1.0000,500.00,2.0000,4.0000,0.75,1.50"));
        assertThatThrownBy(() -> IngestSection.build(raw, raw, Map.of(), false))
                .hasMessageContaining("unknown ingest protocol c-find");
    }
}
