package org.medjava.viewer.model;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;
import org.medjava.filter.runtime.ApplyRecord;

/**
 * Benchmark mode's log, as the paper's benchmark mode kept one: a CSV line per filter application, appended (the
 * header is written when the file is new or empty). Fields with commas, quotes or line breaks are quoted (RFC 4180).
 */
public final class BenchmarkCsv {
    public static final List<String> HEADER = List.of("timestamp", "filter", "parameters", "image_width",
            "image_height", "region", "milliseconds", "implementation", "plugin", "plugin_version", "jvm");

    private final Path file;
    private final String jvm;

    public BenchmarkCsv(Path file) {
        this(file, System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
    }

    BenchmarkCsv(Path file, String jvm) {
        this.file = file;
        this.jvm = jvm;
    }

    public Path file() {
        return file;
    }

    public synchronized void append(ApplyRecord r) throws IOException {
        boolean fresh = !Files.exists(file) || Files.size(file) == 0;
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND)) {
            if (fresh) {
                out.write(line(HEADER));
            }
            out.write(line(List.of(r.at().toString(), r.filterId(), r.params(), Integer.toString(r.width()),
                    Integer.toString(r.height()), r.region().toString(),
                    String.format(Locale.ROOT, "%.3f", r.millis()), r.implementation().id(), r.pluginId(),
                    r.pluginVersion(), jvm)));
        }
    }

    static String line(List<String> fields) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) {
                b.append(',');
            }
            b.append(quote(fields.get(i)));
        }
        return b.append("\r\n").toString();
    }

    static String quote(String field) {
        String f = field == null ? "" : field;
        if (f.indexOf(',') < 0 && f.indexOf('"') < 0 && f.indexOf('\n') < 0 && f.indexOf('\r') < 0) {
            return f;
        }
        return '"' + f.replace("\"", "\"\"") + '"';
    }
}
