package org.medjava.filter.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import org.medjava.filter.Region;

/**
 * One line of {@code testdata/cases.csv}: {@code id,filter,params,region,input,expected}. The format is shared
 * with the C runner; see docs/filters.md.
 *
 * @param region null for the whole image
 */
public record GoldenCase(String id, String filter, Map<String, String> params, Region region, String input,
                         String expected) {

    public static final String HEADER = "id,filter,params,region,input,expected";

    public GoldenCase {
        params = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(params));
    }

    public static List<GoldenCase> load(Path csv) throws IOException {
        List<GoldenCase> cases = new ArrayList<>();
        List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n).trim();
            if (line.isEmpty() || line.startsWith("#") || line.equals(HEADER)) {
                continue;
            }
            String[] cols = line.split(",", -1);
            if (cols.length != 6) {
                throw new IOException(csv + ":" + (n + 1) + ": expected 6 columns (" + HEADER + "), got "
                        + cols.length);
            }
            cases.add(new GoldenCase(cols[0], cols[1], parseParams(cols[2]), parseRegion(cols[3]), cols[4], cols[5]));
        }
        return cases;
    }

    static Map<String, String> parseParams(String text) {
        Map<String, String> params = new LinkedHashMap<>();
        for (String pair : text.trim().split("\\s+")) {
            if (!pair.isEmpty()) {
                int eq = pair.indexOf('=');
                params.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
        return params;
    }

    static Region parseRegion(String text) {
        String t = text.trim();
        return t.isEmpty() ? null : Region.parse(t.replaceAll("\\s+", ","));
    }

    /** The CSV line for this case. */
    public String toCsv() {
        StringJoiner p = new StringJoiner(" ");
        params.forEach((k, v) -> p.add(k + "=" + v));
        String r = region == null ? "" : region.x() + " " + region.y() + " " + region.width() + " " + region.height();
        return String.join(",", id, filter, p.toString(), r, input, expected);
    }

    public static void write(Path csv, List<GoldenCase> cases, String comment) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (String line : comment.split("\n")) {
            sb.append("# ").append(line).append('\n');
        }
        sb.append(HEADER).append('\n');
        cases.forEach(c -> sb.append(c.toCsv()).append('\n'));
        Files.writeString(csv, sb.toString(), StandardCharsets.UTF_8);
    }
}
