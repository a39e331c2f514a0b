package org.medjava.store.server.logging;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.logging.ErrorManager;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.medjava.store.core.audit.RotatingFile;

/**
 * The server log {@code <data-dir>/logs/medjava.log}: a handler on the root logger, so it holds the records of
 * Payara, of the store and of PixelMed (through SLF4J's JDK binding), and of the standard error stream
 * ({@link StderrToLog}); one event a line ({@link LogLineFormatter}), rotated by size. Installed by the application
 * when it starts, whatever started Payara (the script, a service unit, the tests); Payara's own boot messages
 * before that stay on its console. {@link #close()} takes it all back (the stream and the handler).
 */
public final class ServerLog implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ServerLog.class.getName());

    private final RotatingFile file;
    private final FileHandler handler;
    private final PrintStream originalErr;
    private final PrintStream routedErr;

    private ServerLog(RotatingFile file) {
        this.file = file;
        this.handler = new FileHandler(file);
        this.originalErr = System.err;
        this.routedErr = new StderrToLog(Logger.getLogger("stderr"), originalErr, StandardCharsets.UTF_8)
                .printStream();
    }

    /**
     * Starts writing {@code medjava.log} in {@code logsDir} and routes the standard error stream into it.
     *
     * @param maxBytes the size at which the file is rotated
     * @param files    rotated files kept ({@code medjava.log.1} … {@code .N})
     */
    public static ServerLog install(Path logsDir, long maxBytes, int files) throws IOException {
        ServerLog log = new ServerLog(new RotatingFile(logsDir.resolve("medjava.log"), maxBytes, files, false));
        Logger.getLogger("").addHandler(log.handler);
        System.setErr(log.routedErr);
        LOG.info("server log " + log.file.path() + " (rotated at " + maxBytes + " bytes, " + files + " kept)");
        return log;
    }

    public Path path() {
        return file.path();
    }

    @Override
    public void close() {
        if (System.err == routedErr) {
            System.setErr(originalErr);
        }
        Logger.getLogger("").removeHandler(handler);
        handler.close();
    }

    /** Writes each record as its lines; a failing file is reported once by the handler's error manager. */
    static final class FileHandler extends Handler {
        private final RotatingFile file;

        FileHandler(RotatingFile file) {
            this.file = file;
            setFormatter(new LogLineFormatter());
            setLevel(Level.ALL); // the loggers' levels decide
        }

        @Override
        public void publish(LogRecord r) {
            if (!isLoggable(r)) {
                return;
            }
            StderrToLog.publishing(() -> {
                try {
                    file.writeLine(getFormatter().format(r));
                } catch (IOException | RuntimeException e) {
                    reportError("cannot write " + file.path() + ": " + e.getMessage(), null, ErrorManager.WRITE_FAILURE);
                }
            });
        }

        @Override
        public void flush() {
            // every line is flushed as it is written
        }

        @Override
        public void close() {
            try {
                file.close();
            } catch (IOException e) {
                reportError("cannot close " + file.path(), e, ErrorManager.CLOSE_FAILURE);
            }
        }
    }
}
