package org.medjava.store.net.dicomweb;

import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.DicomDictionary;
import com.pixelmed.dicom.InformationEntity;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import javax.json.Json;
import javax.json.JsonObject;
import javax.json.JsonValue;
import javax.json.stream.JsonGenerator;
import javax.json.stream.JsonGeneratorFactory;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.DicomJson;
import org.medjava.store.core.index.InstanceSummary;
import org.medjava.store.core.index.SeriesSummary;
import org.medjava.store.core.index.StudySummary;
import org.medjava.store.core.query.ArchiveQuery;
import org.medjava.store.core.query.ArchiveSearch;
import org.medjava.store.core.query.LevelHeaders;
import org.medjava.store.core.query.QueryLevel;
import org.medjava.store.core.query.ResultAttributes;

/**
 * QIDO-RS (PS3.18 10.6): studies, series and instances matching a query, as DICOM JSON arrays. The attributes
 * come from the index: its summary columns for the default attributes, the stored metadata of the instance (or of
 * one instance of the study or series) for {@code includefield}s. Nothing is read from the image files.
 */
public final class QidoService {

    /** Made once: looking the JSON provider up costs a class-path scan each time. */
    private static final JsonGeneratorFactory JSON = Json.createGeneratorFactory(Map.of());

    private static final AttributeTag INSTANCE_AVAILABILITY = new AttributeTag(0x0008, 0x0056);
    private static final AttributeTag RETRIEVE_URL = new AttributeTag(0x0008, 0x1190);

    private final ArchiveSearch search;
    private final DicomIndex index;

    public QidoService(ArchiveSearch search, DicomIndex index) {
        this.search = search;
        this.index = index;
    }

    public String studies(QidoParams p, DicomWebUrls urls) {
        List<StudySummary> studies = search.studies(p.query());
        return array(studies, s -> {
            JsonDataset d = JsonDataset.of(ResultAttributes.of(s));
            d.putString(RETRIEVE_URL, "UR", urls.study(s.studyInstanceUid()));
            d.putString(INSTANCE_AVAILABILITY, "CS", "ONLINE");
            include(d, p, Set.of(InformationEntity.PATIENT, InformationEntity.STUDY),
                    new LevelHeaders(search, index, Map.of("StudyInstanceUID", s.studyInstanceUid())));
            return d;
        });
    }

    public String series(QidoParams p, DicomWebUrls urls) {
        List<SeriesSummary> series = search.series(p.query());
        return array(series, s -> {
            JsonDataset d = JsonDataset.of(ResultAttributes.of(s));
            d.putString(RETRIEVE_URL, "UR", urls.series(s.studyInstanceUid(), s.seriesInstanceUid()));
            d.putString(INSTANCE_AVAILABILITY, "CS", "ONLINE");
            include(d, p, Set.of(InformationEntity.SERIES), new LevelHeaders(search, index, Map.of(
                    "StudyInstanceUID", s.studyInstanceUid(), "SeriesInstanceUID", s.seriesInstanceUid())));
            return d;
        });
    }

    public String instances(QidoParams p, DicomWebUrls urls) {
        List<InstanceSummary> instances = search.instances(p.query());
        Map<String, String> metadata = p.includeAll() || !p.includes().isEmpty()
                ? index.metadata(instances.stream().map(InstanceSummary::path).toList()) : Map.of();
        return array(instances, i -> {
            JsonDataset d = JsonDataset.of(ResultAttributes.of(i));
            String url = urls.instance(i.studyInstanceUid(), i.seriesInstanceUid(), i.sopInstanceUid());
            d.putString(RETRIEVE_URL, "UR", url);
            d.putString(INSTANCE_AVAILABILITY, "CS", "ONLINE");
            include(d, p, null, n -> metadata.containsKey(i.path()) ? List.of(metadata.get(i.path())) : List.of(),
                    url);
            return d;
        });
    }

    /**
     * Adds the included attributes of an instance from its stored metadata: every one named, and with
     * includefield=all every one.
     */
    private static void include(JsonDataset d, QidoParams p, Set<InformationEntity> entities,
            java.util.function.Function<Integer, List<String>> metadataSource, String instanceUrl) {
        if (!p.includeAll() && p.includes().isEmpty()) {
            return;
        }
        List<String> metadata = metadataSource.apply(1);
        if (!metadata.isEmpty()) {
            include(d, p, entities, metadata.get(0), instanceUrl, true);
        }
    }

    /**
     * Adds the included attributes of a study or series from its instances' stored headers, read as C-FIND reads
     * its return keys ({@link LevelHeaders}, so both answer the same value): every one named, from the first header
     * that has it; with includefield=all, every one of the level's information entities in the first header.
     */
    private static void include(JsonDataset d, QidoParams p, Set<InformationEntity> entities, LevelHeaders headers) {
        if (!p.includeAll() && p.includes().isEmpty()) {
            return;
        }
        for (AttributeTag tag : p.includes()) {
            String key = DicomJson.key(tag);
            if (!d.has(key)) {
                headers.value(key).filter(v -> !isBulk(v)).ifPresent(v -> d.put(key, v));
            }
        }
        if (p.includeAll()) {
            headers.first().ifPresent(h -> include(d, p, entities, h.toString(), null, true));
        }
    }

    private static void include(JsonDataset d, QidoParams p, Set<InformationEntity> entities, String metadata,
            String instanceUrl, boolean first) {
        JsonObject m = instanceUrl == null ? JsonDataset.parse(metadata) : JsonDataset.parse(metadata, instanceUrl);
        for (Map.Entry<String, JsonValue> e : m.entrySet()) {
            if (d.has(e.getKey())) {
                continue;
            }
            AttributeTag tag = new AttributeTag(Integer.parseInt(e.getKey().substring(0, 4), 16),
                    Integer.parseInt(e.getKey().substring(4), 16));
            boolean named = p.includes().contains(tag);
            InformationEntity entity = DicomDictionary.StandardDictionary.getInformationEntityFromTag(tag);
            boolean ofLevel = first && p.includeAll()
                    && (entities == null || (entity != null && entities.contains(entity)));
            if ((named || ofLevel) && (instanceUrl != null || !isBulk(e.getValue()))) {
                d.put(e.getKey(), e.getValue());
            }
        }
    }

    private static boolean isBulk(JsonValue v) {
        return v instanceof JsonObject o && o.containsKey("BulkDataURI");
    }

    private static <T> String array(List<T> rows, Function<T, JsonDataset> toJson) {
        StringWriter out = new StringWriter(1024 + rows.size() * 512);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartArray();
            for (T row : rows) {
                toJson.apply(row).write(g);
            }
            g.writeEnd();
        }
        return out.toString();
    }
}
