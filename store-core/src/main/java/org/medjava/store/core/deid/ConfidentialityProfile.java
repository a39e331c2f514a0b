package org.medjava.store.core.deid;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * PS3.15 Table E.1-1 as data ({@code ps3.15-e1-1.tsv} beside this class; its header names the edition and where it
 * was transcribed from): for each listed attribute, the Basic Profile's action and the options' actions.
 */
public final class ConfidentialityProfile {

    /** The table's resource, beside this class. */
    public static final String RESOURCE = "ps3.15-e1-1.tsv";

    /**
     * One row: the tag as the table writes it (GGGG,EEEE; xx for a repeating group's free digits; gggg,eeee the
     * private attributes), the attribute's name, the Basic Profile's action and each option's (absent: the option
     * leaves the Basic Profile's action).
     */
    public record Row(String tag, String name, Action basic, Map<DeidOption, Action> options) {

        /** The action with these options, and the option it comes from (null: the Basic Profile's). */
        public Resolved resolve(Set<DeidOption> enabled) {
            Action best = null;
            DeidOption from = null;
            for (DeidOption o : enabled) {
                Action a = options.get(o);
                if (a != null && (best == null || rank(a) < rank(best))) {
                    best = a;
                    from = o;
                }
            }
            return best == null ? new Resolved(basic, null) : new Resolved(best, from);
        }

        /** An option that retains wins; otherwise the most protective option's action (no option gives U). */
        private static int rank(Action a) {
            return switch (a) {
                case K -> 0;
                case X -> 1;
                case Z -> 2;
                case D -> 3;
                case C -> 4;
                default -> 5;
            };
        }
    }

    /** An action and the option that chose it (null: the Basic Profile). */
    public record Resolved(Action action, DeidOption option) {
    }

    private static final ConfidentialityProfile STANDARD = load();

    private final List<Row> rows;
    private final Map<Integer, Row> byTag = new HashMap<>();
    private Row curveData;
    private Row overlayData;
    private Row overlayComments;
    private Row privateAttributes;

    private ConfidentialityProfile(List<Row> rows) {
        this.rows = Collections.unmodifiableList(rows);
        for (Row r : rows) {
            switch (r.tag()) {
                case "50xx,xxxx" -> curveData = r;
                case "60xx,3000" -> overlayData = r;
                case "60xx,4000" -> overlayComments = r;
                case "gggg,eeee" -> privateAttributes = r;
                default -> {
                    if (r.tag().contains("x")) {
                        throw new IllegalStateException("a repeating-group row the engine does not match: " + r.tag());
                    }
                    byTag.put(Integer.parseUnsignedInt(r.tag().replace(",", ""), 16), r);
                }
            }
        }
        if (curveData == null || overlayData == null || overlayComments == null || privateAttributes == null) {
            throw new IllegalStateException(RESOURCE + " lacks a repeating-group or the private row");
        }
    }

    /** The table shipped with the engine. */
    public static ConfidentialityProfile standard() {
        return STANDARD;
    }

    public List<Row> rows() {
        return rows;
    }

    /** The row for a standard (even group) attribute, the curve and overlay repeating groups included; or null. */
    public Row row(int group, int element) {
        if ((group & 1) != 0) {
            return privateAttributes;
        }
        if ((group & 0xFF00) == 0x5000) {
            return curveData;
        }
        if ((group & 0xFF00) == 0x6000 && element == 0x3000) {
            return overlayData;
        }
        if ((group & 0xFF00) == 0x6000 && element == 0x4000) {
            return overlayComments;
        }
        return byTag.get(group << 16 | element);
    }

    /** The row of the private attributes (odd groups). */
    public Row privateAttributes() {
        return privateAttributes;
    }

    private static ConfidentialityProfile load() {
        try (InputStream in = ConfidentialityProfile.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is not on the class path");
            }
            return parse(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ConfidentialityProfile parse(BufferedReader reader) throws IOException {
        List<Row> rows = new ArrayList<>();
        String[] header = null;
        Map<Integer, DeidOption> columns = new HashMap<>();
        for (String line; (line = reader.readLine()) != null; ) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] cells = line.split("\t", -1);
            if (header == null) {
                header = cells;
                for (DeidOption o : DeidOption.values()) {
                    int i = List.of(header).indexOf(o.column());
                    if (i < 0) {
                        throw new IllegalStateException(RESOURCE + " has no column " + o.column());
                    }
                    columns.put(i, o);
                }
                continue;
            }
            if (cells.length != header.length) {
                throw new IllegalStateException(RESOURCE + ": " + cells.length + " cells in " + line);
            }
            Map<DeidOption, Action> options = new EnumMap<>(DeidOption.class);
            columns.forEach((i, o) -> {
                if (!cells[i].isEmpty()) {
                    options.put(o, Action.of(cells[i]));
                }
            });
            rows.add(new Row(cells[0], cells[1], Action.of(cells[2]), Collections.unmodifiableMap(options)));
        }
        return new ConfidentialityProfile(rows);
    }
}
