package org.medjava.store.core.query;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.json.Json;
import javax.json.JsonObject;
import javax.json.JsonReaderFactory;
import javax.json.JsonValue;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.InstanceSummary;

/**
 * Where a study-level or series-level query answer takes an attribute the index has no column for: the stored headers
 * (DICOM JSON) of the level's instances, in the index's instance order — the first instance's header, and for an
 * attribute it lacks, the first of the next ones (up to {@value #SEARCHED_INSTANCES} in all) that has it, since a
 * study's instances need not share their equipment or descriptions. C-FIND and QIDO-RS both read their return keys
 * and includefields here, so the same key gets the same value over DIMSE and DICOMweb. Headers are fetched from the
 * index on first need. Not thread-safe: one per match.
 */
public final class LevelHeaders {

    /** How many instances of a study or series are searched for an attribute the first one lacks. */
    public static final int SEARCHED_INSTANCES = 8;

    /** Made once: looking the JSON provider up costs a class-path scan each time. */
    private static final JsonReaderFactory READER = Json.createReaderFactory(Map.of());

    private final ArchiveSearch search;
    private final DicomIndex index;
    private final Map<String, String> keys;
    private List<JsonObject> headers;
    private boolean all;

    /** @param keys the level's UIDs: StudyInstanceUID, and SeriesInstanceUID for a series */
    public LevelHeaders(ArchiveSearch search, DicomIndex index, Map<String, String> keys) {
        this.search = search;
        this.index = index;
        this.keys = Map.copyOf(keys);
    }

    /** The first instance's stored header, if it has one. */
    public Optional<JsonObject> first() {
        List<JsonObject> h = fetch(1);
        return h.isEmpty() ? Optional.empty() : Optional.of(h.get(0));
    }

    /**
     * The value of the attribute {@code key} (its DICOM JSON key, "00080080") in the first header that has it, even
     * empty; bulk data references included (callers decide whether to send them).
     */
    public Optional<JsonValue> value(String key) {
        for (JsonObject h : fetch(1)) {
            if (h.containsKey(key)) {
                return Optional.of(h.get(key));
            }
        }
        for (JsonObject h : fetch(SEARCHED_INSTANCES)) {
            if (h.containsKey(key)) {
                return Optional.of(h.get(key));
            }
        }
        return Optional.empty();
    }

    private List<JsonObject> fetch(int count) {
        if (headers != null && (all || headers.size() >= count)) {
            return headers;
        }
        List<String> paths = search.instances(new ArchiveQuery(QueryLevel.IMAGE, keys, false, 0, count)).stream()
                .map(InstanceSummary::path).toList();
        Map<String, String> byPath = index.metadata(paths);
        List<JsonObject> parsed = new ArrayList<>();
        for (String path : paths) {
            String json = byPath.get(path);
            if (json != null) {
                try (var reader = READER.createReader(new StringReader(json))) {
                    parsed.add(reader.readObject());
                } catch (RuntimeException e) {
                    // a header that does not parse back counts as none
                }
            }
        }
        headers = parsed;
        all = paths.size() < count || count >= SEARCHED_INSTANCES;
        return headers;
    }
}
