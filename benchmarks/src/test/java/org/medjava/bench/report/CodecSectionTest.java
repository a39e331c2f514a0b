package org.medjava.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.bench.codec.CodecStep;

/** The codec section from hand-written raw files: medians, ratios with intervals, the 5× and 10% verdicts. */
class CodecSectionTest {
    @TempDir
    Path raw;

    /** A JMH result of one codec: two forks of iterations around {@code ms}. */
    private static String result(String codec, double ms) {
        return String.format(Locale.ROOT, "{\"benchmark\":\"org.medjava.bench.CodecBenchmark.encodeAndDecode\","
                + "\"params\":{\"codec\":\"%s\",\"size\":\"512\"},\"primaryMetric\":{\"score\":%s,"
                + "\"scoreUnit\":\"ms/op\",\"rawData\":[[%s,%s,%s],[%s,%s,%s]]}}", codec, ms, ms * 0.98, ms,
                ms * 1.02, ms * 0.99, ms * 1.01, ms);
    }

    private void write(double htj2k, double openjpeg, double jj2000, long htj2kBytes) throws Exception {
        Files.writeString(raw.resolve(CodecStep.JSON), "[" + String.join(",", result("htj2k-openjph", htj2k),
                result("j2k-openjpeg", openjpeg), result("j2k-jj2000", jj2000)) + "]");
        Files.write(raw.resolve(CodecStep.SIZES), List.of("codec,bytes,uncompressed_bytes,lossless",
                "htj2k-openjph," + htj2kBytes + ",524288,true", "j2k-openjpeg,200000,524288,true",
                "j2k-jj2000,210000,524288,true"));
    }

    private static List<String> row(Table t, String first) {
        return t.markdown().lines().filter(l -> l.startsWith("| " + first + " |")).findFirst()
                .map(l -> List.of(l.substring(2, l.length() - 2).split(" \\| "))).orElseThrow();
    }

    @Test
    void speedAndSizeAreJudgedAgainstBothJpeg2000Paths() throws Exception {
        write(17, 137, 711, 215_000);
        Table t = CodecSection.build(raw, raw, Map.of(), false).orElseThrow().tables().get(0);
        assertThat(row(t, "htj2k-openjph").get(1)).startsWith("17.0 [");
        List<String> openjpeg = row(t, "j2k-openjpeg");
        assertThat(openjpeg.get(2)).startsWith("8.06 [");
        assertThat(openjpeg.get(3)).isEqualTo("✓");
        assertThat(openjpeg.get(6)).isEqualTo("✓ 1.075");
        assertThat(row(t, "j2k-jj2000").get(3)).isEqualTo("✓");
    }

    @Test
    void aMissIsAMissAndNoFilesNoSection() throws Exception {
        assertThat(CodecSection.build(raw, raw, Map.of(), false)).isEmpty();
        write(40, 137, 711, 230_000); // OpenJPEG only 3.4× slower; 15% larger
        Table t = CodecSection.build(raw, raw, Map.of(), false).orElseThrow().tables().get(0);
        assertThat(row(t, "j2k-openjpeg").get(3)).isEqualTo("✗");
        assertThat(row(t, "j2k-openjpeg").get(6)).isEqualTo("✗ 1.150");
        assertThat(row(t, "j2k-jj2000").get(3)).isEqualTo("✓");
        Table smoke = CodecSection.build(raw, raw, Map.of(), true).orElseThrow().tables().get(0);
        assertThat(row(smoke, "j2k-openjpeg").get(3)).isEmpty();
    }
}
