package org.medjava.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.bench.serve.ServeStep;

/** The serve section from a hand-written raw/serve.csv: medians, ranges, ratios, marks, the skipped step's note. */
class ServeSectionTest {
    @TempDir
    Path raw;

    /** Three rounds; the store's 39 KB rate is {@code storeSmall} × (1, 1.1, 0.9), nginx 10,000, Orthanc 5,000. */
    private void csv(double storeSmall, double storeLiveness) throws Exception {
        List<String> lines = new ArrayList<>(List.of(ServeStep.HEADER));
        lines.add(line("store", "dicom-39k", 39206, 0, 30, 500, 0.6));
        lines.add(line("nginx", "dicom-39k", 39206, 0, 5, 9000, 0.01));
        lines.add(line("orthanc", "dicom-39k", 39206, 0, 5, 4000, 0.03));
        double[] factor = {1, 1.1, 0.9};
        for (int round = 1; round <= 3; round++) {
            double f = factor[round - 1];
            lines.add(line("store", "dicom-39k", 39206, round, 5, storeSmall * f, 0.4));
            lines.add(line("nginx", "dicom-39k", 39206, round, 5, 10_000 * f, 0.01));
            lines.add(line("orthanc", "dicom-39k", 39206, round, 5, 5_000 * f, 0.03));
            lines.add(line("store", "liveness", 2, round, 5, storeLiveness, 0.1));
            lines.add(line("nginx", "liveness", 2, round, 5, 50_000, 0.01));
            lines.add(line("store", "large", 256L << 20, round, 6, 3.0, 20));
            lines.add(line("nginx", "large", 256L << 20, round, 6, 3.2, 2));
        }
        Files.write(raw.resolve(ServeStep.CSV), lines);
    }

    /** A cell whose MiB/s follows from the rate and the file size; 100 × the requests of CPU ms. */
    private static String line(String target, String kase, long bytes, int round, double seconds, double rate,
                               double cpuMsPerRequest) {
        long requests = Math.round(rate * seconds);
        return String.format(Locale.ROOT, "%s,%s,%d,%d,%.3f,%d,%.2f,%.3f,%.4f,%.4f,0,0,%.2f,1.50", target, kase, bytes,
                round, seconds, requests, rate, rate * bytes / (1 << 20), 1.0, 4.0, cpuMsPerRequest * requests / 1e3);
    }

    private static List<String> row(Table t, String first) {
        String md = t.markdown();
        return md.lines().filter(l -> l.startsWith("| " + first + " |")).findFirst()
                .map(l -> List.of(l.substring(2, l.length() - 2).split(" \\| "))).orElseThrow(
                        () -> new AssertionError("no row " + first + " in\n" + md));
    }

    @Test
    void targetsAreRatiosOfMediansJudgedOutsideSmokeTests() throws Exception {
        csv(6_000, 20_000);
        Section s = ServeSection.build(raw, raw, Map.of(), false).orElseThrow();
        Table targets = s.tables().get(0);
        List<String> small = row(targets, "39 KB DICOM (CT_small.dcm)");
        assertThat(small).containsExactly("39 KB DICOM (CT_small.dcm)", "req/s", "6,000", "10,000", "5,000",
                "0.60 (≥ 0.5) ✓", "1.20 (≥ 1.0) ✓");
        assertThat(row(targets, "liveness: store /health/live, nginx a 2-byte file, Orthanc /system"))
                .containsExactly("liveness: store /health/live, nginx a 2-byte file, Orthanc /system", "req/s",
                        "20,000 (≥ 16,010) ✓", "50,000", "–", "0.40", "–");
        assertThat(row(targets, "256 MiB DICOM, one connection")).containsExactly("256 MiB DICOM, one connection",
                "MiB/s", "768", "819", "–", "0.94 (≥ 0.9) ✓", "–");
    }

    @Test
    void missedTargetsAndTheColdTable() throws Exception {
        csv(2_000, 1_600);
        Section s = ServeSection.build(raw, raw, Map.of(), false).orElseThrow();
        Table targets = s.tables().get(0);
        assertThat(row(targets, "39 KB DICOM (CT_small.dcm)")).endsWith("0.20 (≥ 0.5) ✗", "0.40 (≥ 1.0) ✗");
        assertThat(row(targets, "liveness: store /health/live, nginx a 2-byte file, Orthanc /system").get(2))
                .isEqualTo("1,600 (≥ 16,010) ✗");
        Table cold = s.tables().get(1);
        assertThat(row(cold, "the store")).containsExactly("the store", "30", "500", "1.00", "4.00", "0.600", "–");
        assertThat(row(cold, "nginx")).containsExactly("nginx", "5", "9,000", "1.00", "4.00", "0.010",
                "0.06 (≥ 0.5) ✗");
        assertThat(row(cold, "Orthanc").get(6)).isEqualTo("0.13 (≥ 1.0) ✗");
    }

    @Test
    void aCaseTableHasMedianRangeLatencyCpuAndAuthentication() throws Exception {
        csv(2_000, 1_600);
        Section s = ServeSection.build(raw, raw, Map.of(), false).orElseThrow();
        Table small = s.tables().stream().filter(t -> t.title().startsWith("GET 39 KB")).findFirst().orElseThrow();
        assertThat(small.title()).isEqualTo("GET 39 KB DICOM (CT_small.dcm): median [min–max] of 3 rounds");
        assertThat(row(small, "the store")).containsExactly("the store", "HTTP Basic (admin)",
                "2,000 [1,800–2,200]", "74.8", "1.00", "4.00", "0.400", "1.50");
        assertThat(row(small, "Orthanc").get(1)).isEqualTo("HTTP Basic");
        Table live = s.tables().stream().filter(t -> t.title().startsWith("GET liveness")).findFirst().orElseThrow();
        assertThat(row(live, "the store").get(1)).isEqualTo("none (a liveness probe)");
        assertThat(row(live, "nginx").get(1)).isEqualTo("none (static files)");
    }

    @Test
    void aSmokeTestShowsRatiosWithoutMarks() throws Exception {
        csv(6_000, 1_600);
        Section s = ServeSection.build(raw, raw, Map.of(), true).orElseThrow();
        assertThat(s.markdown()).doesNotContain("✓", "✗").contains("0.60 (≥ 0.5)", "Smoke test");
    }

    @Test
    void aSkippedStepIsItsNoteAndNoStepIsNoSection() throws Exception {
        assertThat(ServeSection.build(raw, raw, Map.of(), true)).isEmpty();
        Files.write(raw.resolve(ServeStep.NOTES), List.of(ServeStep.QUICK_NOTE));
        Optional<Section> s = ServeSection.build(raw, raw, Map.of(), true);
        assertThat(s).isPresent();
        assertThat(s.get().tables()).isEmpty();
        assertThat(s.get().markdown()).contains("serve: skipped in quick mode");
    }

    @Test
    void aStoreStillWarmingUpAndAnOverloadedMachineAreSaid() throws Exception {
        csv(6_000, 20_000); // 6,000 × (1, 1.1, 0.9): not rising in every round, load 1.5 on 2 cores
        assertThat(ServeSection.build(raw, raw, Map.of("cores", "2"), false).orElseThrow().paragraphs())
                .noneMatch(p -> p.contains("still warming") || p.contains("Caution"));
        List<String> lines = new ArrayList<>(Files.readAllLines(raw.resolve(ServeStep.CSV)));
        lines.replaceAll(l -> l.startsWith("store,dicom-39k,39206,3,") ? line("store", "dicom-39k", 39206, 3, 5,
                15_000, 0.4).replace(",1.50", ",17.98") : l);
        Files.write(raw.resolve(ServeStep.CSV), lines);
        assertThat(ServeSection.build(raw, raw, Map.of("cores", "2"), false).orElseThrow().paragraphs())
                .anySatisfy(p -> assertThat(p).contains("still warming", "6,000 → 6,600 → 15,000"))
                .anySatisfy(p -> assertThat(p).startsWith("Caution: the load average reached 18.0 on 2 cores"));
    }
}
