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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Region;

/**
 * One line of {@code testdata/cases-gray16.csv}: {@code id,filter,params,region,input,expected,format}, the columns
 * of {@code cases.csv} plus the grey format of input and expected output: {@code u} (unsigned) or {@code s} (signed)
 * followed by the bits stored, e.g. {@code u16}, {@code s12}. Input and expected are PGM files ({@link PgmFiles}).
 * The format is shared with the C runner; see docs/filters.md.
 *
 * @param region null for the whole image
 */
public record Gray16GoldenCase(String id, String filter, Map<String, String> params, Region region, String input,
                               String expected, int bitsStored, boolean signed) {

    public static final String HEADER = "id,filter,params,region,input,expected,format";
    /** The file beside cases.csv. */
    public static final String FILE = "cases-gray16.csv";
    private static final Pattern FORMAT = Pattern.compile("([us])(\\d{1,2})");

    public Gray16GoldenCase {
        params = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(params));
        GrayRaster16.minValue(bitsStored, signed); // checks bitsStored
    }

    /** {@code u16}, {@code s12}, ... */
    public String format() {
        return format(bitsStored, signed);
    }

    public static String format(int bitsStored, boolean signed) {
        return (signed ? "s" : "u") + bitsStored;
    }

    public static List<Gray16GoldenCase> load(Path csv) throws IOException {
        List<Gray16GoldenCase> cases = new ArrayList<>();
        List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n).trim();
            if (line.isEmpty() || line.startsWith("#") || line.equals(HEADER)) {
                continue;
            }
            String[] cols = line.split(",", -1);
            if (cols.length != 7) {
                throw new IOException(csv + ":" + (n + 1) + ": expected 7 columns (" + HEADER + "), got "
                        + cols.length);
            }
            Matcher m = FORMAT.matcher(cols[6].trim());
            int bits = m.matches() ? Integer.parseInt(m.group(2)) : 0;
            if (bits < 1 || bits > 16) {
                throw new IOException(csv + ":" + (n + 1) + ": format must be u or s followed by the bits stored "
                        + "1..16 (u16, s12), got \"" + cols[6] + "\"");
            }
            cases.add(new Gray16GoldenCase(cols[0], cols[1], GoldenCase.parseParams(cols[2]),
                    GoldenCase.parseRegion(cols[3]), cols[4], cols[5], bits, m.group(1).equals("s")));
        }
        return cases;
    }

    /** The CSV line for this case. */
    public String toCsv() {
        StringJoiner p = new StringJoiner(" ");
        params.forEach((k, v) -> p.add(k + "=" + v));
        String r = region == null ? "" : region.x() + " " + region.y() + " " + region.width() + " " + region.height();
        return String.join(",", id, filter, p.toString(), r, input, expected, format());
    }

    public static void write(Path csv, List<Gray16GoldenCase> cases, String comment) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (String line : comment.split("\n")) {
            sb.append("# ").append(line).append('\n');
        }
        sb.append(HEADER).append('\n');
        cases.forEach(c -> sb.append(c.toCsv()).append('\n'));
        Files.writeString(csv, sb.toString(), StandardCharsets.UTF_8);
    }
}
