package org.medjava.store.core.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditLogTest {

    @TempDir
    Path dir;

    @Test
    void eachEventIsOneLineOfXmlInTheFile() throws Exception {
        Path file = dir.resolve("logs/audit.log");
        try (AuditLog log = new AuditLog(AuditMessageTest.SOURCE, new RotatingFile(file, 1 << 20, 5, true), null)) {
            log.record(AuditEvents.application(true, "medjava"));
            log.record(AuditEvents.login(Caller.account("alice\nforged", "10.0.0.5"), false, "wrong\npassword"));
        }
        List<String> lines = Files.readAllLines(file);
        assertEquals(2, lines.size());
        for (String line : lines) {
            AuditMessageTest.parse(line);
        }
        assertTrue(lines.get(1).contains("alice&#10;forged"));
    }

    @Test
    void aFileThatCannotBeWrittenNeverFailsTheCallerAndIsReportedOnce() throws Exception {
        Path file = dir.resolve("audit.log");
        RotatingFile rotating = new RotatingFile(file, 1 << 20, 1, false);
        Files.delete(file);
        Files.createDirectory(file); // the next open (after the close below) fails: a directory is in the way
        rotating.close();
        Logger logger = Logger.getLogger(AuditLog.class.getName());
        List<LogRecord> records = new java.util.concurrent.CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                records.add(r);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(capture);
        try (AuditLog log = new AuditLog(AuditMessageTest.SOURCE, rotating, null)) {
            for (int i = 0; i < 3; i++) {
                log.record(AuditEvents.logout(Caller.account("alice", null)));
            }
        } finally {
            logger.removeHandler(capture);
        }
        assertEquals(1, records.stream().filter(r -> r.getLevel() == Level.WARNING).count(), "warned once");
        assertTrue(records.get(0).getMessage().contains("audit.log"));
    }
}
