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

    /**
     * Three rounds; the store's 39 KB rate is {@code storeSmall} × (1, 1.1, 0.9), nginx 10,000, Orthanc 5,000 (4,000
     * without authentication); frames and thumbnails 1,200 and 300 on the store, 1,000 and 200 on Orthanc; then the
     * store alone: HTTP/2 at 7,000 req/s, overload with 503s.
     */
    private void csv(double storeSmall, double storeLiveness) throws Exception {
        List<String> lines = new ArrayList<>(List.of(ServeStep.HEADER));
        lines.add(line("store", "dicom-39k", 39206, 0, 25, 3000, 0.6));
        lines.add(line("nginx", "dicom-39k", 39206, 0, 5, 9000, 0.01));
        lines.add(line("orthanc", "dicom-39k", 39206, 0, 5, 4000, 0.03));
        double[] factor = {1, 1.1, 0.9};
        for (int round = 1; round <= 3; round++) {
            double f = factor[round - 1];
            lines.add(line("store", "dicom-39k", 39206, round, 5, storeSmall * f, 0.02));
            lines.add(line("nginx", "dicom-39k", 39206, round, 5, 10_000 * f, 0.01));
            lines.add(line("orthanc", "dicom-39k", 39206, round, 5, 5_000 * f, 0.04));
            lines.add(line("orthanc-noauth", "dicom-39k", 39206, round, 5, 4_000 * f, 0.03));
            lines.add(line("store", "frame", 524288, round, 5, 1_200, 1));
            lines.add(line("orthanc", "frame", 524288, round, 5, 1_000, 1));
            lines.add(line("store", "thumbnail", 0, round, 5, 300, 3));
            lines.add(line("orthanc", "thumbnail", 0, round, 5, 200, 3));
            lines.add(line("store", "liveness", 2, round, 5, storeLiveness, 0.1));
            lines.add(line("nginx", "liveness", 2, round, 5, 50_000, 0.01));
            lines.add(line("store", "large", 256L << 20, round, 6, 3.0, 20));
            lines.add(line("nginx", "large", 256L << 20, round, 6, 3.2, 2));
        }
        lines.add(line("store", "h2-39k", 39206, 1, 15, 7_000, 0.05).replace(",,,,", ",200=105000,,,"));
        lines.add(line("store", "overload-39k", 39206, 1, 10, 5_000, 0.05).replace(",4.0000,0,0,", ",80.0000,2000,0,")
                .replace(",,,,", ",200=48000 503=2000,0,1048576,1100000"));
        Files.write(raw.resolve(ServeStep.CSV), lines);
    }

    /** A cell whose MiB/s follows from the rate and the file size; p50 1 ms, p99 4 ms; no status counts. */
    private static String line(String target, String kase, long bytes, int round, double seconds, double rate,
                               double cpuMsPerRequest) {
        long requests = Math.round(rate * seconds);
        return String.format(Locale.ROOT, "%s,%s,%d,%d,%.3f,%d,%.2f,%.3f,%.4f,%.4f,0,0,%.2f,1.50,,,,", target, kase,
                bytes, round, seconds, requests, rate, rate * bytes / (1 << 20), 1.0, 4.0,
                cpuMsPerRequest * requests / 1e3);
    }

    private static List<String> row(Table t, String first) {
        String md = t.markdown();
        return md.lines().filter(l -> l.startsWith("| " + first + " |")).findFirst()
                .map(l -> List.of(l.substring(2, l.length() - 2).split(" \\| "))).orElseThrow(
                        () -> new AssertionError("no row " + first + " in\n" + md));
    }

    @Test
    void targetsAreJudgedAgainstOrthancWithItsAuthentication() throws Exception {
        csv(6_000, 20_000);
        Section s = ServeSection.build(raw, raw, Map.of(), false).orElseThrow();
        Table targets = s.tables().get(0);
        assertThat(row(targets, "39 KB GET with authentication ≥ 1.2× Orthanc")).containsExactly(
                "39 KB GET with authentication ≥ 1.2× Orthanc", "6,000 req/s", "Orthanc 5,000 req/s",
                "1.20 (≥ 1.2) ✓");
        assertThat(row(targets, "39 KB GET with authentication ≥ 0.6× nginx").get(3)).isEqualTo("0.60 (≥ 0.6) ✓");
        assertThat(row(targets, "39 KB GET with authentication: p99 ≤ 2× Orthanc's").get(3))
                .isEqualTo("1.00 (≤ 2.0) ✓");
        assertThat(row(targets, "39 KB GET with authentication: CPU per request ≤ Orthanc's")).containsExactly(
                "39 KB GET with authentication: CPU per request ≤ Orthanc's", "0.020 ms", "Orthanc 0.040 ms",
                "0.50 (≤ 1.0) ✓");
        assertThat(row(targets, "39 KB GET against Orthanc without authentication (not judged)").get(3))
                .isEqualTo("1.50");
        assertThat(row(targets, "WADO-RS frame (512² 16-bit) ≥ 1.2× Orthanc's DICOMweb plugin").get(3))
                .isEqualTo("1.20 (≥ 1.2) ✓");
        assertThat(row(targets, "thumbnail ≥ 1.2× Orthanc's DICOMweb plugin (its rendered 128²)").get(3))
                .isEqualTo("1.50 (≥ 1.2) ✓");
        assertThat(row(targets, "liveness ≥ 0.5× nginx's 2-byte file").get(3)).isEqualTo("0.40 (≥ 0.5) ✗");
        assertThat(row(targets, "256 MiB DICOM, one connection ≥ 0.9× nginx")).containsExactly(
                "256 MiB DICOM, one connection ≥ 0.9× nginx", "768 MiB/s", "nginx 819 MiB/s", "0.94 (≥ 0.9) ✓");
        assertThat(row(targets, "first 25 s after ready (39 KB) ≥ 0.5× steady")).containsExactly(
                "first 25 s after ready (39 KB) ≥ 0.5× steady", "3,000 req/s", "the store's 39 KB median 6,000",
                "0.50 (≥ 0.5) ✓");
        assertThat(targets.markdown()).doesNotContain("1 MiB").contains("Orthanc with its authentication on");
    }

    @Test
    void missedTargetsAndTheColdTable() throws Exception {
        csv(2_000, 1_600);
        Section s = ServeSection.build(raw, raw, Map.of(), false).orElseThrow();
        Table targets = s.tables().get(0);
        assertThat(row(targets, "39 KB GET with authentication ≥ 1.2× Orthanc").get(3)).isEqualTo("0.40 (≥ 1.2) ✗");
        assertThat(row(targets, "39 KB GET with authentication ≥ 0.6× nginx").get(3)).isEqualTo("0.20 (≥ 0.6) ✗");
        assertThat(row(targets, "first 25 s after ready (39 KB) ≥ 0.5× steady").get(3)).isEqualTo("1.50 (≥ 0.5) ✓");
        Table cold = s.tables().get(1);
        assertThat(row(cold, "the store")).containsExactly("the store", "25", "3,000", "1.00", "4.00", "0.600", "–");
        assertThat(row(cold, "nginx")).containsExactly("nginx", "5", "9,000", "1.00", "4.00", "0.010", "0.33");
        assertThat(row(cold, "Orthanc").get(6)).isEqualTo("0.75");
    }

    @Test
    void http2AndOverloadAreJudgedOnTheStoreAlone() throws Exception {
        csv(6_000, 20_000);
        Section s = ServeSection.build(raw, raw, Map.of(), false).orElseThrow();
        Table targets = s.tables().get(0);
        String h2 = "HTTP/2, 100 streams on one connection for 15 s";
        assertThat(row(targets, h2 + ": no error").get(3)).isEqualTo("0 (none) ✓");
        assertThat(row(targets, h2 + ": rate ≥ HTTP/1.1 with 16 connections")).containsExactly(
                h2 + ": rate ≥ HTTP/1.1 with 16 connections", "7,000 req/s", "the store's 39 KB median (wrk) 6,000",
                "1.17 (≥ 1.0) ✓");
        assertThat(row(targets, "overload (512 connections): no error but 503 with Retry-After").get(3))
                .isEqualTo("0 (none) ✓");
        assertThat(row(targets, "overload: p99 of accepted requests ≤ 50 ms").get(3))
                .isEqualTo("80.0 ms (≤ 50 ms) ✗");
        assertThat(row(targets, "overload: memory flat")).containsExactly("overload: memory flat",
                "1,074 MiB after", "1,024 MiB before", "1.05× (≤ 1.10×) ✓");
        assertThat(s.paragraphs()).noneMatch(p -> p.startsWith("Cells with errors"));

        Table alone = s.tables().stream().filter(t -> t.title().startsWith("The store alone")).findFirst()
                .orElseThrow();
        assertThat(row(alone, "39 KB over HTTP/2 (h2c): h2load -c1 -m100")).containsExactly(
                "39 KB over HTTP/2 (h2c): h2load -c1 -m100", "15", "7,000", "1.00", "4.00", "200=105000",
                "0 failed, 0 errored", "–", "0.050");
        assertThat(row(alone, "39 KB under overload: wrk -t2 -c512").subList(5, 8)).containsExactly(
                "200=48000 503=2000", "0 socket errors, 0 503 without Retry-After", "1,024 MiB → 1,074 MiB");
    }

    @Test
    void a503WithoutRetryAfterOrAnotherStatusIsAnOverloadError() throws Exception {
        csv(6_000, 20_000);
        List<String> lines = new ArrayList<>(Files.readAllLines(raw.resolve(ServeStep.CSV)));
        lines.replaceAll(l -> l.startsWith("store,overload-39k,") ? l.replace("200=48000 503=2000,0,",
                "200=48000 500=1 503=1999,7,") : l);
        Files.write(raw.resolve(ServeStep.CSV), lines);
        Table targets = ServeSection.build(raw, raw, Map.of(), false).orElseThrow().tables().get(0);
        assertThat(row(targets, "overload (512 connections): no error but 503 with Retry-After").subList(1, 4))
                .containsExactly("8 errors", "–", "8 (none) ✗");
    }

    @Test
    void rawDataOfIssue21sRunsStillMakeTheirTargets() throws Exception {
        String header = ServeStep.HEADER.substring(0, ServeStep.HEADER.indexOf(",statuses"));
        Files.write(raw.resolve(ServeStep.CSV), List.of(header,
                "store,dicom-39k,39206,1,5.000,30000,6000.00,224.3,1.0,4.0,0,0,0.60,1.50",
                "orthanc,dicom-39k,39206,1,5.000,25000,5000.00,186.9,1.0,4.0,0,0,0.75,1.50"));
        Table targets = ServeSection.build(raw, raw, Map.of(), false).orElseThrow().tables().get(0);
        assertThat(row(targets, "39 KB GET with authentication ≥ 1.2× Orthanc").get(3)).isEqualTo("1.20 (≥ 1.2) ✓");
        assertThat(targets.markdown().lines().filter(l -> l.startsWith("| ")).skip(1).map(l -> l.split(" \\| ")[0]))
                .containsExactly("| 39 KB GET with authentication ≥ 1.2× Orthanc",
                        "| 39 KB GET with authentication: p99 ≤ 2× Orthanc's",
                        "| 39 KB GET with authentication: CPU per request ≤ Orthanc's");
    }

    @Test
    void aCaseTableHasMedianRangeLatencyCpuAndAuthentication() throws Exception {
        csv(2_000, 1_600);
        Section s = ServeSection.build(raw, raw, Map.of(), false).orElseThrow();
        Table small = s.tables().stream().filter(t -> t.title().startsWith("GET 39 KB")).findFirst().orElseThrow();
        assertThat(small.title()).isEqualTo("GET 39 KB DICOM (CT_small.dcm): median [min–max] of 3 rounds");
        assertThat(row(small, "the store")).containsExactly("the store", "HTTP Basic (admin)",
                "2,000 [1,800–2,200]", "74.8", "1.00", "4.00", "0.020", "1.50");
        assertThat(row(small, "Orthanc").get(1)).isEqualTo("HTTP Basic");
        assertThat(row(small, "Orthanc without authentication").get(1))
                .isEqualTo("none (AuthenticationEnabled false)");
        Table live = s.tables().stream().filter(t -> t.title().startsWith("GET liveness")).findFirst().orElseThrow();
        assertThat(row(live, "the store").get(1)).isEqualTo("none (a liveness probe)");
        assertThat(row(live, "nginx").get(1)).isEqualTo("none (static files)");
    }

    @Test
    void aSmokeTestShowsRatiosWithoutMarks() throws Exception {
        csv(6_000, 1_600);
        Section s = ServeSection.build(raw, raw, Map.of(), true).orElseThrow();
        assertThat(s.markdown()).doesNotContain("✓", "✗").contains("0.60 (≥ 0.6)", "80.0 ms (≤ 50 ms)", "Smoke test");
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
                15_000, 0.4).replace(",1.50,", ",17.98,") : l);
        Files.write(raw.resolve(ServeStep.CSV), lines);
        assertThat(ServeSection.build(raw, raw, Map.of("cores", "2"), false).orElseThrow().paragraphs())
                .anySatisfy(p -> assertThat(p).contains("still warming", "6,000 → 6,600 → 15,000"))
                .anySatisfy(p -> assertThat(p).startsWith("Caution: the load average reached 18.0 on 2 cores"));
    }
}
