package org.medjava.store.core.deid;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;

/**
 * The private attributes known to hold no identifying information, by Private Creator, group and element within the
 * creator's block (PS3.15 E.3.10), kept by the Retain Safe Private option. The list shipped is data
 * ({@code safe-private.tsv} beside this class).
 */
public final class SafePrivateAttributes {

    public static final String RESOURCE = "safe-private.tsv";

    /** A safe private attribute: its creator, its (odd) group and its element's low byte. */
    public record Entry(String creator, int group, int element) {
    }

    private static final SafePrivateAttributes STANDARD = load();

    private final Set<Entry> entries;

    public SafePrivateAttributes(Set<Entry> entries) {
        this.entries = Set.copyOf(entries);
    }

    /** The list shipped with the engine. */
    public static SafePrivateAttributes standard() {
        return STANDARD;
    }

    public Set<Entry> entries() {
        return entries;
    }

    /** Whether the attribute (group, element) of a block reserved by {@code creator} is safe. */
    public boolean isSafe(String creator, int group, int element) {
        return creator != null && entries.contains(new Entry(creator.strip(), group, element & 0xFF));
    }

    /** Whether {@code creator} reserves any safe attribute in {@code group} (its Private Creator element is kept). */
    public boolean hasCreator(String creator, int group) {
        String c = creator.strip();
        return entries.stream().anyMatch(e -> e.group() == group && e.creator().equals(c));
    }

    private static SafePrivateAttributes load() {
        Set<Entry> entries = new HashSet<>();
        try (InputStream in = SafePrivateAttributes.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is not on the class path");
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            boolean header = true;
            for (String line; (line = r.readLine()) != null; ) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                if (header) {
                    header = false;
                    continue;
                }
                String[] cells = line.split("\t");
                entries.add(new Entry(cells[0], Integer.parseInt(cells[1], 16), Integer.parseInt(cells[2], 16)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new SafePrivateAttributes(entries);
    }
}
