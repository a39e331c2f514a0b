package org.medjava.store.server.logging;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.logging.Formatter;
import java.util.logging.LogRecord;

/**
 * The server log's line: {@code 2025-11-03T10:15:30.123+01:00 WARNING Ingest [dimse-3] message}: the time with its
 * offset (ISO 8601), the level, the logger's short name (its last dotted part), the thread, the message. A message
 * of several lines, and the stack trace of a record that carries one, follow as lines indented by four spaces, so
 * every line that starts without a space starts an event. Colour codes and other control characters are removed:
 * the file reads the same in any pager, and nothing a client sends can forge a line.
 */
public final class LogLineFormatter extends Formatter {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX");
    private static final String INDENT = "    ";

    private final ZoneId zone;

    public LogLineFormatter() {
        this(ZoneId.systemDefault());
    }

    public LogLineFormatter(ZoneId zone) {
        this.zone = zone;
    }

    /** The event as its lines, joined by line feeds, without a final one. */
    @Override
    public String format(LogRecord r) {
        StringBuilder b = new StringBuilder(160);
        b.append(TIME.format(r.getInstant().truncatedTo(ChronoUnit.MILLIS).atZone(zone))).append(' ')
                .append(r.getLevel().getName()).append(' ')
                .append(shortName(r.getLoggerName())).append(" [")
                .append(clean(Thread.currentThread().getName())).append("] ");
        appendIndented(b, formatMessage(r));
        if (r.getThrown() != null) {
            StringWriter trace = new StringWriter();
            r.getThrown().printStackTrace(new PrintWriter(trace));
            b.append('\n').append(INDENT);
            appendIndented(b, trace.toString().stripTrailing());
        }
        return b.toString();
    }

    /** {@code org.medjava.store.core.ingest.Ingest} → {@code Ingest}; the root logger is {@code root}. */
    static String shortName(String logger) {
        if (logger == null || logger.isEmpty()) {
            return "root";
        }
        String name = logger.endsWith(".") ? logger.substring(0, logger.length() - 1) : logger;
        return clean(name.substring(name.lastIndexOf('.') + 1));
    }

    private static void appendIndented(StringBuilder b, String text) {
        String[] lines = (text == null ? "null" : text).split("\r\n|\r|\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (i > 0) {
                b.append('\n').append(INDENT);
            }
            b.append(clean(lines[i]));
        }
    }

    /** Without ANSI escape sequences (colours) and control characters; a tab becomes a space. */
    static String clean(String s) {
        String noAnsi = s.indexOf('\u001b') < 0 ? s : s.replaceAll("\u001b\\[[0-9;?]*[ -/]*[@-~]|\u001b", "");
        StringBuilder b = null;
        for (int i = 0; i < noAnsi.length(); i++) {
            char c = noAnsi.charAt(i);
            boolean control = c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == '\u2028' || c == '\u2029';
            if (control && b == null) {
                b = new StringBuilder(noAnsi.length()).append(noAnsi, 0, i);
            }
            if (b != null) {
                b.append(c == '\t' ? ' ' : control ? '?' : c);
            }
        }
        return b == null ? noAnsi : b.toString();
    }
}
