package org.medjava.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The simple CSV the benchmark steps write: a header line, comma-separated fields, no quoting. */
public final class Csv {
    private Csv() {
    }

    /** Rows as header→value maps; an absent file is an empty list. */
    public static List<Map<String, String>> read(Path file) throws IOException {
        List<Map<String, String>> rows = new ArrayList<>();
        if (!Files.isRegularFile(file)) {
            return rows;
        }
        List<String> lines = Files.readAllLines(file);
        if (lines.isEmpty()) {
            return rows;
        }
        String[] header = lines.get(0).split(",", -1);
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            String[] fields = lines.get(i).split(",", -1);
            if (fields.length != header.length) {
                throw new IOException(file + " line " + (i + 1) + ": " + fields.length + " fields, header has "
                        + header.length);
            }
            Map<String, String> row = new LinkedHashMap<>();
            for (int k = 0; k < header.length; k++) {
                row.put(header[k], fields[k]);
            }
            rows.add(row);
        }
        return rows;
    }

    /** A field for writing: commas would break the format, so they become semicolons. */
    public static String field(Object value) {
        return String.valueOf(value).replace(',', ';');
    }
}
