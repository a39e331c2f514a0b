package org.medjava.store.net.dimse;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.JSONRepresentationOfDicomObjectFactory;
import java.io.StringReader;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.json.Json;
import javax.json.JsonObject;
import javax.json.JsonBuilderFactory;
import javax.json.JsonObjectBuilder;
import javax.json.JsonReaderFactory;
import javax.json.JsonValue;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.InstanceSummary;
import org.medjava.store.core.index.PatientSummary;
import org.medjava.store.core.index.SeriesSummary;
import org.medjava.store.core.index.StudySummary;
import org.medjava.store.core.query.ArchiveSearch;
import org.medjava.store.core.query.LevelHeaders;
import org.medjava.store.core.query.ResultAttributes;

/**
 * C-FIND matches with two sources of attributes: the index's summary of the match, and, only when a return key asks
 * for something else, the header the index keeps as DICOM JSON: the instance's, or for a study or series those of its
 * instances as {@link LevelHeaders} reads them (the same values QIDO-RS answers for the same key).
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

    /**
     * One match: its summary attributes, and its stored header fetched on first need — an instance's own, or, for a
     * study or series, the {@link LevelHeaders} QIDO-RS reads its includefields from too.
     */
    static final class Match {
        private final AttributeList summary;
        private final Supplier<Optional<String>> metadata;
        private final LevelHeaders level;
        private AttributeList header;

        Match(AttributeList summary, Supplier<Optional<String>> metadata, LevelHeaders level) {
            this.summary = summary;
            this.metadata = metadata;
            this.level = level;
        }

        /** The attribute for a return key, or null when neither source has it. */
        Attribute attribute(AttributeTag tag) {
            Attribute a = summary.get(tag);
            if (a != null) {
                return a;
            }
            if (level != null) {
                String key = String.format("%04X%04X", tag.getGroup(), tag.getElement());
                return level.value(key).filter(v -> !(v instanceof JsonObject o && o.containsKey("BulkDataURI")))
                        .map(v -> parse(BUILDERS.createObjectBuilder().add(key, v).build().toString()).get(tag))
                        .orElse(null);
            }
            if (metadata == null) {
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
        return new Match(ResultAttributes.of(s), null, new LevelHeaders(search, index,
                Map.of("StudyInstanceUID", s.studyInstanceUid())));
    }

    Match of(SeriesSummary s) {
        return new Match(ResultAttributes.of(s), null, new LevelHeaders(search, index,
                Map.of("StudyInstanceUID", s.studyInstanceUid(), "SeriesInstanceUID", s.seriesInstanceUid())));
    }

    Match of(InstanceSummary i) {
        return new Match(ResultAttributes.of(i), () -> index.metadata(i.path()), null);
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
