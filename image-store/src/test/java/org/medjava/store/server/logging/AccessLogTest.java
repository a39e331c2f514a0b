package org.medjava.store.server.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.core.audit.RotatingFile;

class AccessLogTest {

    @TempDir
    Path dir;

    @Test
    void aLineHoldsTimeAddressUserMethodPathStatusBytesAndMillis() throws Exception {
        Path file = dir.resolve("access.log");
        try (AccessLog log = new AccessLog(new RotatingFile(file, 1 << 20, 2, false), ZoneId.of("Z"))) {
            log.record(Instant.parse("2025-11-03T09:15:30.123456Z"), "10.0.0.5", "admin", "PUT", "/images/a/b.gif",
                    null, 201, 0, 37);
            log.record(Instant.parse("2025-11-03T09:15:31Z"), "::1", null, "GET", "/viewer/", null, 200, 5120, 4);
        }
        assertEquals(List.of("2025-11-03T09:15:30.123Z 10.0.0.5 admin PUT /images/a/b.gif 201 0 37",
                "2025-11-03T09:15:31.000Z ::1 - GET /viewer/ 200 5120 4"), Files.readAllLines(file));
    }

    @Test
    void theWriterThreadWritesQueuedLinesWithinMilliseconds() throws Exception {
        Path file = dir.resolve("access.log");
        try (AccessLog log = new AccessLog(new RotatingFile(file, 1 << 20, 2, false), ZoneId.of("Z"))) {
            for (int i = 0; i < 100; i++) {
                log.record(Instant.parse("2025-11-03T09:15:30Z"), "10.0.0.5", "admin", "GET", "/images/" + i,
                        null, 200, i, 1);
            }
            long deadline = System.nanoTime() + java.time.Duration.ofSeconds(10).toNanos();
            while (Files.readAllLines(file).size() < 100 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            List<String> lines = Files.readAllLines(file); // before close: the writer thread wrote them, in order
            assertEquals(100, lines.size());
            assertEquals("2025-11-03T09:15:30.000Z 10.0.0.5 admin GET /images/99 200 99 1", lines.get(99));
        }
    }

    @Test
    void queryValuesThatCouldNamePatientsAreRedacted() {
        String target = AccessLog.target("/dicomweb/studies",
                "PatientName=DOE%5EJOHN*&PatientID=12345&00100010=DOE&limit=20&includefield=StudyDate&fuzzymatching=true");
        assertEquals("/dicomweb/studies?PatientName=***&PatientID=***&00100010=***&limit=20"
                + "&includefield=StudyDate&fuzzymatching=true", target);
        assertEquals("/images/x.dcm?render=png&filter=blur:n=3&window=40,400",
                AccessLog.target("/images/x.dcm", "render=png&filter=blur:n=3&window=40,400"));
        assertEquals("/viewer/?next=***", AccessLog.target("/viewer/", "next=/images/dicom/P1/"));
        assertEquals("/index/studies?flag", AccessLog.target("/index/studies", "flag"));
    }

    @Test
    void thePatientIdOfAnArchivePathIsNotWritten() {
        assertEquals("/images/dicom/*/1.2.3/1.2.3.4/1.2.3.4.5.dcm",
                AccessLog.target("/images/dicom/PAT%20123/1.2.3/1.2.3.4/1.2.3.4.5.dcm", null));
        assertEquals("/images/dicom/*", AccessLog.target("/images/dicom/PAT123", null));
        assertEquals("/images/dicom/", AccessLog.target("/images/dicom/", null));
    }

    @Test
    void nothingInALineCanSplitItOrForgeAnother() {
        AccessLog log = new AccessLog(null, ZoneId.of("Z"));
        String line = log.line(Instant.EPOCH, "10.0.0.1", "bob smith\n1970 forged", "GET", "/a b\u001b[31m/é",
                "render=png png\r\n", 200, 1, 1);
        assertFalse(line.contains("\n") || line.contains("\r") || line.contains("\u001b"), line);
        assertEquals(8, line.split(" ").length, line);
        assertTrue(line.contains(" bob%20smith%0A1970%20forged "), line);
        assertTrue(line.contains(" /a%20b%1B[31m/%C3%A9?render=png%20png%0D%0A "), line);
    }
}
