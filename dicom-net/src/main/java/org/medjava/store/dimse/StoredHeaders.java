package org.medjava.store.dimse;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.DicomDictionary;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.InformationEntity;
import com.pixelmed.dicom.JSONRepresentationOfDicomObjectFactory;
import java.io.StringReader;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.json.Json;
import javax.json.JsonObject;
import javax.json.JsonBuilderFactory;
import javax.json.JsonObjectBuilder;
import javax.json.JsonReaderFactory;
import javax.json.JsonValue;
import org.medjava.store.index.DicomIndex;
import org.medjava.store.index.InstanceSummary;
import org.medjava.store.index.PatientSummary;
import org.medjava.store.index.SeriesSummary;
import org.medjava.store.index.StudySummary;
import org.medjava.store.query.ArchiveQuery;
import org.medjava.store.query.ArchiveSearch;
import org.medjava.store.query.QueryLevel;
import org.medjava.store.query.ResultAttributes;

/**
 * C-FIND matches with two sources of attributes: the index's summary of the match, and, only when a return key asks
 * for something else, the header the index keeps as DICOM JSON (of the instance; for a study or series, of one of its
 * instances, for attributes of that level only).
 */
final class StoredHeaders {

    private static final Logger LOG = Logger.getLogger(StoredHeaders.class.getName());
    /** Made once: looking the JSON provider up costs a class-path scan each time. */
    private static final JsonReaderFactory READER = Json.createReaderFactory(Map.of());
    private static final JsonBuilderFactory BUILDERS = Json.createBuilderFactory(Map.of());

    private final ArchiveSearch search;
    private final DicomIndex index;

    StoredHeaders(ArchiveSearch search, DicomIndex index) {
        this.search = search;
        this.index = index;
    }

    /** One match: its summary attributes, and its stored header fetched on first need. */
    static final class Match {
        private final AttributeList summary;
        private final Supplier<Optional<String>> metadata;
        private final Set<InformationEntity> entities;
        private AttributeList header;

        Match(AttributeList summary, Supplier<Optional<String>> metadata, Set<InformationEntity> entities) {
            this.summary = summary;
            this.metadata = metadata;
            this.entities = entities;
        }

        /** The attribute for a return key, or null when neither source has it. */
        Attribute attribute(AttributeTag tag) {
            Attribute a = summary.get(tag);
            if (a != null || metadata == null) {
                return a;
            }
            InformationEntity entity = DicomDictionary.StandardDictionary.getInformationEntityFromTag(tag);
            if (entities != null && (entity == null || !entities.contains(entity))) {
                return null;
            }
            if (header == null) {
                header = metadata.get().map(StoredHeaders::parse).orElseGet(AttributeList::new);
            }
            return header.get(tag);
        }
    }

    Match of(PatientSummary p) {
        return new Match(ResultAttributes.of(p), null, null);
    }

    Match of(StudySummary s) {
        return new Match(ResultAttributes.of(s), () -> first(Map.of("StudyInstanceUID", s.studyInstanceUid())),
                Set.of(InformationEntity.PATIENT, InformationEntity.STUDY));
    }

    Match of(SeriesSummary s) {
        return new Match(ResultAttributes.of(s), () -> first(Map.of("StudyInstanceUID", s.studyInstanceUid(),
                "SeriesInstanceUID", s.seriesInstanceUid())), Set.of(InformationEntity.SERIES));
    }

    Match of(InstanceSummary i) {
        return new Match(ResultAttributes.of(i), () -> index.metadata(i.path()), null);
    }

    private Optional<String> first(Map<String, String> keys) {
        var one = search.instances(new ArchiveQuery(QueryLevel.IMAGE, keys, false, 0, 1));
        return one.isEmpty() ? Optional.empty() : index.metadata(one.get(0).path());
    }

    /** The stored DICOM JSON as attributes (bulk data references left out). */
    private static AttributeList parse(String json) {
        try {
            JsonObject stored;
            try (var reader = READER.createReader(new StringReader(json))) {
                stored = reader.readObject();
            }
            JsonObjectBuilder inline = BUILDERS.createObjectBuilder();
            for (Map.Entry<String, JsonValue> e : stored.entrySet()) {
                if (!(e.getValue() instanceof JsonObject o && o.containsKey("BulkDataURI"))) {
                    inline.add(e.getKey(), e.getValue());
                }
            }
            return new JSONRepresentationOfDicomObjectFactory().getAttributeList(inline.build());
        } catch (DicomException | RuntimeException e) {
            LOG.log(Level.FINE, "a stored header does not parse back", e);
            return new AttributeList();
        }
    }
}
