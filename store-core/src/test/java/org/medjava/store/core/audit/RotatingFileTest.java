package org.medjava.store.core.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RotatingFileTest {

    @TempDir
    Path dir;

    @Test
    void rotatesBySizeKeepingTheNewestCopies() throws Exception {
        Path log = dir.resolve("logs/audit.log");
        try (RotatingFile f = new RotatingFile(log, 26, 2, false)) {
            for (int i = 1; i <= 7; i++) {
                f.writeLine("line " + i + " ....."); // 13 bytes: two a file
            }
        }
        assertEquals(List.of("line 7 ....."), Files.readAllLines(log));
        assertEquals(List.of("line 5 .....", "line 6 ....."), Files.readAllLines(dir.resolve("logs/audit.log.1")));
        assertEquals(List.of("line 3 .....", "line 4 ....."), Files.readAllLines(dir.resolve("logs/audit.log.2")));
        assertFalse(Files.exists(dir.resolve("logs/audit.log.3")), "only two copies kept");
    }

    @Test
    void appendsToWhatAnEarlierStartWroteAndCountsItsSize() throws Exception {
        Path log = dir.resolve("access.log");
        try (RotatingFile f = new RotatingFile(log, 30, 1, false)) {
            f.writeLine("first start, line 1");
        }
        try (RotatingFile f = new RotatingFile(log, 30, 1, false)) {
            f.writeLine("second start");
        }
        assertEquals(List.of("second start"), Files.readAllLines(log));
        assertEquals(List.of("first start, line 1"), Files.readAllLines(dir.resolve("access.log.1")));
    }

    @Test
    void withoutCopiesTheFileStartsAgainAndALongLineIsWrittenWhole() throws Exception {
        Path log = dir.resolve("m.log");
        try (RotatingFile f = new RotatingFile(log, 10, 0, false)) {
            f.writeLine("0123456789abcdef");
            f.writeLine("short");
        }
        assertEquals(List.of("short"), Files.readAllLines(log));
        assertEquals(1, Files.list(dir).count());
    }

    @Test
    void theAuditFileIsTheOwnersOnly() throws Exception {
        Path log = dir.resolve("audit.log");
        try (RotatingFile f = new RotatingFile(log, 100, 1, true)) {
            f.writeLine("x");
        }
        if (Files.getFileAttributeView(log, java.nio.file.attribute.PosixFileAttributeView.class) != null) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(log)));
        }
        assertTrue(Files.size(log) > 0);
    }

    @Test
    void linesFromManyThreadsStayWhole() throws Exception {
        Path log = dir.resolve("t.log");
        try (RotatingFile f = new RotatingFile(log, 1 << 20, 1, false)) {
            Thread[] threads = new Thread[4];
            for (int t = 0; t < threads.length; t++) {
                int id = t;
                threads[t] = new Thread(() -> {
                    for (int i = 0; i < 500; i++) {
                        try {
                            f.writeLine("thread " + id + " line " + i + " " + "x".repeat(40));
                        } catch (java.io.IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    }
                });
                threads[t].start();
            }
            for (Thread t : threads) {
                t.join();
            }
        }
        List<String> lines = Files.readAllLines(log);
        assertEquals(2000, lines.size());
        assertTrue(lines.stream().allMatch(l -> l.matches("thread \\d line \\d+ x{40}")));
    }
}
