package org.medjava.viewer.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.filter.Implementation;
import org.medjava.filter.Region;
import org.medjava.filter.runtime.ApplyRecord;

class BenchmarkCsvTest {

    private static ApplyRecord record(String params, long nanos) {
        return new ApplyRecord(Instant.parse("2026-01-02T03:04:05Z"), "blur", "blur", "1.0", params,
                Implementation.PARALLEL, 1760, 1760, new Region(0, 0, 1760, 1760), nanos);
    }

    @Test
    void writesTheHeaderOnceThenOneLinePerApplication(@TempDir Path dir) throws IOException {
        BenchmarkCsv csv = new BenchmarkCsv(dir.resolve("sub/bench.csv"), "TestVM 17");
        csv.append(record("n=3", 12_345_678));
        csv.append(record("n=5", 1_000_000));
        List<String> lines = Files.readAllLines(csv.file());
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).isEqualTo(String.join(",", BenchmarkCsv.HEADER));
        assertThat(lines.get(1)).isEqualTo(
                "2026-01-02T03:04:05Z,blur,n=3,1760,1760,\"0,0,1760,1760\",12.346,parallel,blur,1.0,TestVM 17");
        assertThat(lines.get(2)).contains(",n=5,").contains(",1.000,");
    }

    @Test
    void appendsToAnExistingFileWithoutASecondHeader(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("bench.csv");
        new BenchmarkCsv(file, "vm").append(record("n=3", 1));
        new BenchmarkCsv(file, "vm").append(record("n=3", 1));
        assertThat(Files.readAllLines(file)).hasSize(3).filteredOn(l -> l.startsWith("timestamp")).hasSize(1);
    }

    @Test
    void quotesFieldsWithCommasQuotesAndLineBreaks() {
        assertThat(BenchmarkCsv.quote("plain")).isEqualTo("plain");
        assertThat(BenchmarkCsv.quote("a,b")).isEqualTo("\"a,b\"");
        assertThat(BenchmarkCsv.quote("say \"hi\"")).isEqualTo("\"say \"\"hi\"\"\"");
        assertThat(BenchmarkCsv.quote("two\nlines")).isEqualTo("\"two\nlines\"");
        assertThat(BenchmarkCsv.quote(null)).isEmpty();
    }
}
