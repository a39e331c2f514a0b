package org.medjava.bench.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.bench.setup.BenchPaths;
import org.medjava.store.core.ingest.Part10File;

/** The ingest step's parts that need no server: the copies it sends, the STOW-RS body, the percentiles. */
class IngestStepTest {
    @TempDir
    Path dir;

    @Test
    void copiesAreTheTemplateWithNewInstanceUidsInOneStudy() throws Exception {
        Path ct = BenchPaths.root().resolve("testdata/samples/dicom/CT_small.dcm");
        Part10File original = Part10File.read(ct);
        List<Path> copies = new InstanceCopies(Files.readAllBytes(ct)).write(dir.resolve("batch"), 3);
        assertThat(copies).hasSize(3);
        Set<String> uids = new HashSet<>();
        for (Path copy : copies) {
            Part10File p = Part10File.read(copy);
            assertThat(p.sopClassUid()).isEqualTo(original.sopClassUid());
            assertThat(p.transferSyntaxUid()).isEqualTo(original.transferSyntaxUid());
            assertThat(p.sopInstanceUid()).startsWith("2.25.").isNotEqualTo(original.sopInstanceUid());
            uids.add(p.sopInstanceUid());
            // the same data set but for the UIDs, the file meta information and the trailing padding, which the
            // copy leaves out (32 KB of the 39 KB are pixel data)
            assertThat(Files.size(copy)).isBetween(Files.size(ct) - 512, Files.size(ct) + 512);
        }
        assertThat(uids).hasSize(3);
    }

    @Test
    void aStowBodyIsOneApplicationDicomPart() {
        String body = new String(StowSender.part(new byte[] {'D', 'I', 'C', 'M'}), StandardCharsets.ISO_8859_1);
        assertThat(body).isEqualTo("--medjava-bench-ingest\r\nContent-Type: application/dicom\r\n\r\nDICM"
                + "\r\n--medjava-bench-ingest--\r\n");
    }

    @Test
    void percentilesAreNearestRankOverEverySendersTimesButItsFirst() {
        double[] ms = IngestStep.afterTheFirst(List.of(new long[] {90_000_000, 1_000_000, 2_000_000},
                new long[] {80_000_000, 3_000_000, 4_000_000}));
        assertThat(ms).containsExactlyInAnyOrder(1.0, 2.0, 3.0, 4.0);
        assertThat(IngestStep.percentile(ms, 0.50)).isEqualTo(2.0);
        assertThat(IngestStep.percentile(ms, 0.99)).isEqualTo(4.0);
        assertThat(IngestStep.percentile(new double[] {7}, 0.99)).isEqualTo(7.0);
        assertThat(IngestStep.percentile(new double[0], 0.5)).isNaN();
    }
}
