package org.medjava.store.net.dicomweb;

import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.DicomDictionary;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.medjava.store.core.index.StudyQuery;
import org.medjava.store.core.query.ArchiveQuery;
import org.medjava.store.core.query.QueryLevel;
import org.medjava.store.core.StoreException;

/**
 * The query parameters of a QIDO-RS request (PS3.18 8.3.4): attribute matching by keyword or tag
 * ({@code PatientID=X}, {@code 00100020=X}), {@code includefield} (repeatable, comma-separated, or {@code all}),
 * {@code limit}, {@code offset}, {@code fuzzymatching}. Anything the store cannot match on is a 400 that names
 * what it can.
 *
 * @param includeAll whether includefield=all was given
 * @param includes   the attributes asked for beyond the default ones
 */
public record QidoParams(ArchiveQuery query, boolean includeAll, Set<AttributeTag> includes) {

    /** The same parameters, for a caller who may see what {@code v} lets them. */
    public QidoParams visibleTo(org.medjava.store.core.index.Visibility v) {
        return new QidoParams(query.visibleTo(v), includeAll, includes);
    }

    public static QidoParams parse(QueryLevel level, Map<String, List<String>> params, Map<String, String> fixedKeys) {
        Map<String, String> keys = new HashMap<>(fixedKeys);
        Set<AttributeTag> includes = new LinkedHashSet<>();
        boolean all = false;
        boolean fuzzy = false;
        int offset = 0;
        int limit = 0;
        List<StudyQuery.Order> order = new ArrayList<>();
        for (Map.Entry<String, List<String>> p : params.entrySet()) {
            String name = p.getKey();
            List<String> values = p.getValue().isEmpty() ? List.of("") : p.getValue();
            switch (name) {
                case "limit" -> limit = number(name, last(values));
                case "offset" -> offset = number(name, last(values));
                case "fuzzymatching" -> {
                    try {
                        fuzzy = ArchiveQuery.fuzzyMatching(last(values));
                    } catch (IllegalArgumentException e) {
                        throw bad(e.getMessage());
                    }
                }
                case "orderby" -> {
                    try {
                        for (String v : values) {
                            for (String key : v.split(",")) {
                                if (!key.isBlank()) {
                                    order.add(StudyQuery.Order.parse(key));
                                }
                            }
                        }
                    } catch (IllegalArgumentException e) {
                        throw bad(e.getMessage());
                    }
                }
                case "includefield" -> {
                    for (String v : values) {
                        for (String field : v.split(",")) {
                            if (field.trim().equalsIgnoreCase("all")) {
                                all = true;
                            } else if (!field.isBlank()) {
                                includes.add(tag(field.trim()));
                            }
                        }
                    }
                }
                default -> {
                    String keyword = keyword(name, level);
                    if (fixedKeys.containsKey(keyword) && !fixedKeys.get(keyword).equals(last(values))) {
                        throw bad(keyword + " is given by the path");
                    }
                    keys.put(keyword, last(values));
                }
            }
        }
        try {
            for (Map.Entry<String, String> k : keys.entrySet()) {
                QueryLevel.validateKey(k.getKey(), k.getValue());
            }
            return new QidoParams(new ArchiveQuery(level, keys, fuzzy, offset, limit, order), all, includes);
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
    }

    /** A matching attribute's keyword, from a keyword or a tag; 400 when the store cannot match on it. */
    private static String keyword(String name, QueryLevel level) {
        String keyword = name.matches("[0-9A-Fa-f]{8}")
                ? DicomDictionary.StandardDictionary.getNameFromTag(tag(name)) : name;
        if (keyword == null || !level.matchableKeywords().contains(keyword)) {
            throw bad(name + " is not a matching key of " + level.name().toLowerCase() + " queries; they match on "
                    + String.join(", ", new TreeSet<>(level.matchableKeywords()))
                    + " (and limit, offset, fuzzymatching, includefield, orderby)");
        }
        return keyword;
    }

    public static AttributeTag tag(String field) {
        if (field.matches("[0-9A-Fa-f]{8}")) {
            return new AttributeTag(Integer.parseInt(field.substring(0, 4), 16),
                    Integer.parseInt(field.substring(4), 16));
        }
        AttributeTag tag = DicomDictionary.StandardDictionary.getTagFromName(field);
        if (tag == null) {
            throw bad("includefield " + field + " is neither a DICOM keyword nor a tag (GGGGEEEE)");
        }
        return tag;
    }

    private static int number(String name, String value) {
        try {
            int n = Integer.parseInt(value.trim());
            if (n < 0) {
                throw bad(name + " must not be negative");
            }
            return n;
        } catch (NumberFormatException e) {
            throw bad(name + "=" + value + " is not a whole number");
        }
    }

    private static String last(List<String> values) {
        return new ArrayList<>(values).get(values.size() - 1);
    }

    private static StoreException bad(String message) {
        return new StoreException(StoreException.Kind.BAD_REQUEST, message);
    }
}
