package org.medjava.store.dicomweb;

import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.DicomDictionary;
import com.pixelmed.dicom.InformationEntity;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import javax.json.Json;
import javax.json.JsonObject;
import javax.json.JsonValue;
import javax.json.stream.JsonGenerator;
import org.medjava.store.index.DicomIndex;
import org.medjava.store.index.InstanceSummary;
import org.medjava.store.index.SeriesSummary;
import org.medjava.store.index.StudySummary;
import org.medjava.store.query.ArchiveQuery;
import org.medjava.store.query.ArchiveSearch;
import org.medjava.store.query.QueryLevel;
import org.medjava.store.query.ResultAttributes;

/**
 * QIDO-RS (PS3.18 10.6): studies, series and instances matching a query, as DICOM JSON arrays. The attributes
 * come from the index: its summary columns for the default attributes, the stored metadata of the instance (or of
 * one instance of the study or series) for {@code includefield}s. Nothing is read from the image files.
 */
final class QidoService {

    private static final AttributeTag INSTANCE_AVAILABILITY = new AttributeTag(0x0008, 0x0056);
    private static final AttributeTag RETRIEVE_URL = new AttributeTag(0x0008, 0x1190);

    private final ArchiveSearch search;
    private final DicomIndex index;

    QidoService(ArchiveSearch search, DicomIndex index) {
        this.search = search;
        this.index = index;
    }

    String studies(QidoParams p, DicomWebUrls urls) {
        List<StudySummary> studies = search.studies(p.query());
        return array(studies, s -> {
            JsonDataset d = JsonDataset.of(ResultAttributes.of(s));
            d.putString(RETRIEVE_URL, "UR", urls.study(s.studyInstanceUid()));
            d.putString(INSTANCE_AVAILABILITY, "CS", "ONLINE");
            include(d, p, Set.of(InformationEntity.PATIENT, InformationEntity.STUDY),
                    () -> representative(Map.of("StudyInstanceUID", s.studyInstanceUid())), null);
            return d;
        });
    }

    String series(QidoParams p, DicomWebUrls urls) {
        List<SeriesSummary> series = search.series(p.query());
        return array(series, s -> {
            JsonDataset d = JsonDataset.of(ResultAttributes.of(s));
            d.putString(RETRIEVE_URL, "UR", urls.series(s.studyInstanceUid(), s.seriesInstanceUid()));
            d.putString(INSTANCE_AVAILABILITY, "CS", "ONLINE");
            include(d, p, Set.of(InformationEntity.SERIES), () -> representative(Map.of("StudyInstanceUID",
                    s.studyInstanceUid(), "SeriesInstanceUID", s.seriesInstanceUid())), null);
            return d;
        });
    }

    String instances(QidoParams p, DicomWebUrls urls) {
        List<InstanceSummary> instances = search.instances(p.query());
        Map<String, String> metadata = p.includeAll() || !p.includes().isEmpty()
                ? index.metadata(instances.stream().map(InstanceSummary::path).toList()) : Map.of();
        return array(instances, i -> {
            JsonDataset d = JsonDataset.of(ResultAttributes.of(i));
            String url = urls.instance(i.studyInstanceUid(), i.seriesInstanceUid(), i.sopInstanceUid());
            d.putString(RETRIEVE_URL, "UR", url);
            d.putString(INSTANCE_AVAILABILITY, "CS", "ONLINE");
            include(d, p, null, () -> Optional.ofNullable(metadata.get(i.path())), url);
            return d;
        });
    }

    /**
     * Adds the included attributes from stored metadata: every one named, and with includefield=all every one of
     * the level's information entities ({@code entities} null: all).
     */
    private static void include(JsonDataset d, QidoParams p, Set<InformationEntity> entities,
            java.util.function.Supplier<Optional<String>> metadataSource, String instanceUrl) {
        if (!p.includeAll() && p.includes().isEmpty()) {
            return;
        }
        Optional<String> metadata = metadataSource.get();
        if (metadata.isEmpty()) {
            return;
        }
        JsonObject m = instanceUrl == null ? JsonDataset.parse(metadata.get())
                : JsonDataset.parse(metadata.get(), instanceUrl);
        for (Map.Entry<String, JsonValue> e : m.entrySet()) {
            if (d.has(e.getKey())) {
                continue;
            }
            AttributeTag tag = new AttributeTag(Integer.parseInt(e.getKey().substring(0, 4), 16),
                    Integer.parseInt(e.getKey().substring(4), 16));
            boolean named = p.includes().contains(tag);
            InformationEntity entity = DicomDictionary.StandardDictionary.getInformationEntityFromTag(tag);
            boolean ofLevel = p.includeAll() && (entities == null || (entity != null && entities.contains(entity)));
            if ((named || ofLevel) && (instanceUrl != null || !isBulk(e.getValue()))) {
                d.put(e.getKey(), e.getValue());
            }
        }
    }

    private static boolean isBulk(JsonValue v) {
        return v instanceof JsonObject o && o.containsKey("BulkDataURI");
    }

    /** The metadata of the first instance the keys select. */
    private Optional<String> representative(Map<String, String> keys) {
        List<InstanceSummary> one = search.instances(new ArchiveQuery(QueryLevel.IMAGE, keys, false, 0, 1));
        return one.isEmpty() ? Optional.empty() : index.metadata(one.get(0).path());
    }

    private static <T> String array(List<T> rows, Function<T, JsonDataset> toJson) {
        StringWriter out = new StringWriter(1024 + rows.size() * 512);
        try (JsonGenerator g = Json.createGeneratorFactory(new HashMap<>()).createGenerator(out)) {
            g.writeStartArray();
            for (T row : rows) {
                toJson.apply(row).write(g);
            }
            g.writeEnd();
        }
        return out.toString();
    }
}
