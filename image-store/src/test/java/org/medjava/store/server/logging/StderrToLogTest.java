package org.medjava.store.server.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class StderrToLogTest {

    private final Logger logger = Logger.getLogger("stderr-test-" + System.nanoTime());
    private final List<String> published = new CopyOnWriteArrayList<>();
    private final ByteArrayOutputStream console = new ByteArrayOutputStream();
    private PrintStream routed;
    private Handler handler;

    @BeforeEach
    void route() {
        logger.setUseParentHandlers(false);
        routed = new StderrToLog(logger, new PrintStream(console, true, StandardCharsets.UTF_8),
                StandardCharsets.UTF_8).printStream();
        handler = new Handler() {
            @Override
            public void publish(LogRecord r) {
                published.add(r.getLevel() + " " + r.getMessage());
                // a console handler writing to the routed stream: must not come back here
                routed.println("echo of " + r.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(handler);
    }

    @AfterEach
    void unroute() {
        logger.removeHandler(handler);
    }

    @Test
    void eachLineIsARecordAndAHandlerWritingBackDoesNotLoop() {
        routed.println("com.pixelmed.dicom.DicomException: Unrecognized transfer syntax");
        routed.print("partial ");
        routed.print("line\r\nsecond\n\n");
        routed.printf("%s%n", "java.io.IOException: é");
        assertEquals(List.of("WARNING com.pixelmed.dicom.DicomException: Unrecognized transfer syntax",
                "WARNING partial line", "WARNING second", "WARNING java.io.IOException: é"), published);
        String echoed = console.toString(StandardCharsets.UTF_8);
        assertTrue(echoed.contains("echo of partial line"), "what the handler printed went to the console: "
                + echoed);
    }

    @Test
    void aStackTracePrintedByALibraryArrivesLineByLine() {
        new Exception("from PixelMed").printStackTrace(routed);
        assertTrue(published.get(0).equals("WARNING java.lang.Exception: from PixelMed"), published.get(0));
        assertTrue(published.size() > 2);
        assertTrue(published.get(1).startsWith("WARNING \tat "), published.get(1));
        assertEquals(Level.WARNING.getName(), published.get(1).split(" ")[0]);
    }
}
