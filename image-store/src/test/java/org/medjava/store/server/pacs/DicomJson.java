package org.medjava.store.server.pacs;

import java.io.StringReader;
import javax.json.Json;
import javax.json.JsonArray;
import javax.json.JsonObject;

/** Reading the store's DICOM JSON answers in the DICOMweb tests. */
final class DicomJson {

    private DicomJson() {
    }

    static JsonObject object(String json) {
        return Json.createReader(new StringReader(json)).readObject();
    }

    static JsonArray array(String json) {
        return Json.createReader(new StringReader(json)).readArray();
    }

    /** The first value of attribute {@code tag} (8 hex digits) of a DICOM JSON data set, as text. */
    static String value(JsonObject dataset, String tag) {
        return dataset.getJsonObject(tag).getJsonArray("Value").get(0).toString().replace("\"", "");
    }
}
