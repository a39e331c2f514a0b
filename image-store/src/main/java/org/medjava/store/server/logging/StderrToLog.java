package org.medjava.store.server.logging;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What libraries print to the standard error stream (PixelMed's stack traces and messages, SLF4J's notices) as log
 * records of the logger {@code stderr}, one a line, at WARNING. A line printed while a log record is being
 * published on the same thread (a handler writing to the console, the logging system reporting its own trouble)
 * goes to the original stream instead, so the two can never feed each other in a loop.
 */
public final class StderrToLog extends OutputStream {

    private static final ThreadLocal<Boolean> PUBLISHING = ThreadLocal.withInitial(() -> false);

    private final Logger logger;
    private final PrintStream original;
    private final Charset charset;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);

    public StderrToLog(Logger logger, PrintStream original, Charset charset) {
        this.logger = logger;
        this.original = original;
        this.charset = charset;
    }

    /** A print stream over this, for {@link System#setErr}. */
    public PrintStream printStream() {
        return new PrintStream(this, true, charset);
    }

    /** Runs {@code publish} marked as publishing on this thread (what it prints to stderr is not routed back). */
    static void publishing(Runnable publish) {
        if (PUBLISHING.get()) {
            publish.run();
            return;
        }
        PUBLISHING.set(true);
        try {
            publish.run();
        } finally {
            PUBLISHING.set(false);
        }
    }

    @Override
    public void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
        if (PUBLISHING.get()) {
            original.write(b, off, len);
            return;
        }
        String complete = null;
        synchronized (this) {
            for (int i = off; i < off + len; i++) {
                if (b[i] == '\n') {
                    complete = complete == null ? take() : complete + "\n" + take();
                } else {
                    line.write(b[i]);
                }
            }
        }
        if (complete != null) {
            for (String l : complete.split("\n")) {
                publish(l);
            }
        }
    }

    private String take() {
        String s = line.toString(charset);
        line.reset();
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
    }

    private void publish(String text) {
        if (text.isBlank()) {
            return;
        }
        publishing(() -> logger.log(Level.WARNING, text));
    }

    @Override
    public void flush() {
        // lines are published when complete; a partial line waits for its end
    }
}
