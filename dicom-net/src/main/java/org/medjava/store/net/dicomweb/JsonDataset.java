package org.medjava.store.net.dicomweb;

import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import java.io.StringReader;
import java.util.Map;
import java.util.TreeMap;
import javax.json.Json;
import javax.json.JsonObject;
import javax.json.JsonBuilderFactory;
import javax.json.JsonReaderFactory;
import javax.json.JsonValue;
import javax.json.stream.JsonGenerator;
import org.medjava.store.core.index.DicomJson;

/**
 * One data set in DICOM JSON being assembled from several sources (the index's summary attributes, stored
 * metadata, computed URLs), kept in tag order as PS3.18 F.2 wants.
 */
final class JsonDataset {

    private static final JsonReaderFactory READER = Json.createReaderFactory(Map.of());
    /** Made once: looking the JSON provider up costs a class-path scan each time. */
    private static final JsonBuilderFactory BUILDERS = Json.createBuilderFactory(Map.of());

    private final Map<String, JsonValue> attributes = new TreeMap<>();

    static JsonDataset of(AttributeList list) {
        JsonDataset d = new JsonDataset();
        d.attributes.putAll(parse(DicomJson.toJson(list, 0)));
        return d;
    }

    /** Parses stored metadata, its bulk data URIs made absolute under {@code instanceUrl}. */
    static JsonObject parse(String json, String instanceUrl) {
        return parse(json.replace(DicomJson.INSTANCE_URL, instanceUrl));
    }

    static JsonObject parse(String json) {
        try (var reader = READER.createReader(new StringReader(json))) {
            return reader.readObject();
        }
    }

    boolean has(String key) {
        return attributes.containsKey(key);
    }

    void put(String key, JsonValue value) {
        attributes.put(key, value);
    }

    void putString(AttributeTag tag, String vr, String value) {
        attributes.put(DicomJson.key(tag), BUILDERS.createObjectBuilder().add("vr", vr)
                .add("Value", BUILDERS.createArrayBuilder().add(value)).build());
    }

    void write(JsonGenerator g) {
        g.writeStartObject();
        attributes.forEach(g::write);
        g.writeEnd();
    }
}
