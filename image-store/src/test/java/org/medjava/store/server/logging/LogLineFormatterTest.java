package org.medjava.store.server.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.ZoneId;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

class LogLineFormatterTest {

    private final LogLineFormatter formatter = new LogLineFormatter(ZoneId.of("+01:00"));

    private static LogRecord record(Level level, String logger, String message, Object... params) {
        LogRecord r = new LogRecord(level, message);
        r.setLoggerName(logger);
        r.setInstant(Instant.parse("2025-11-03T09:15:30.123456Z"));
        r.setParameters(params);
        return r;
    }

    @Test
    void oneLineTimeLevelShortLoggerThreadMessage() {
        String line = formatter.format(record(Level.INFO, "org.medjava.store.core.ingest.Ingest", "stored {0} at {1}",
                "1.2.3", "dicom/x.dcm"));
        assertEquals("2025-11-03T10:15:30.123+01:00 INFO Ingest [" + Thread.currentThread().getName()
                + "] stored 1.2.3 at dicom/x.dcm", line);
    }

    @Test
    void aStackTraceFollowsIndentedAndOnlyWhenTheRecordHasOne() {
        LogRecord r = record(Level.WARNING, "jakarta.enterprise.web", "request failed");
        r.setThrown(new IllegalStateException("boom"));
        String[] lines = formatter.format(r).split("\n");
        assertTrue(lines[0].endsWith("WARNING web [" + Thread.currentThread().getName() + "] request failed"));
        assertEquals("    java.lang.IllegalStateException: boom", lines[1]);
        assertTrue(lines[2].startsWith("    \tat ") || lines[2].startsWith("     at "), lines[2]);
        for (int i = 1; i < lines.length; i++) {
            assertTrue(lines[i].startsWith("    "), "indented: " + lines[i]);
        }
        assertFalse(formatter.format(record(Level.WARNING, "x", "refused")).contains("\n"));
    }

    @Test
    void noColourCodesNoControlCharactersNoForgedLines() {
        String line = formatter.format(record(Level.INFO, "", "\u001b[1;31mred\u001b[0m text\r\n"
                + "2025-11-03T10:15:30.123+01:00 SEVERE forged [main] line\u0007"));
        assertFalse(line.contains("\u001b"), line);
        assertFalse(line.contains("\u0007"), line);
        String[] lines = line.split("\n");
        assertEquals(2, lines.length);
        assertTrue(lines[0].endsWith("INFO root [" + Thread.currentThread().getName() + "] red text"), lines[0]);
        assertTrue(lines[1].startsWith("    2025-11-03"), "a message's second line is indented: " + lines[1]);
    }

    @Test
    void shortNames() {
        assertEquals("Ingest", LogLineFormatter.shortName("org.medjava.store.core.ingest.Ingest"));
        assertEquals("stderr", LogLineFormatter.shortName("stderr"));
        assertEquals("root", LogLineFormatter.shortName(null));
        assertEquals("web", LogLineFormatter.shortName("jakarta.enterprise.web."));
    }
}
