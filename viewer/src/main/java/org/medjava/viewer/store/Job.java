package org.medjava.viewer.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * A background job on the store ({@code /jobs}) as last read: {@code state} QUEUED, RUNNING, DONE, FAILED or
 * CANCELLED; {@code done} of {@code total} units (0 total while unknown); {@code result} the store's short JSON text
 * once DONE, or its explanation of how far a FAILED or CANCELLED job got and what it removed.
 */
public record Job(String id, String kind, String state, int done, int total, String result,
                  boolean cancelRequested) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public boolean finished() {
        return "DONE".equals(state) || "FAILED".equals(state) || "CANCELLED".equals(state);
    }

    /** What a DONE derive-series job stored. */
    public record DerivedSeries(String seriesInstanceUid, String studyInstanceUid, int derived, String first,
                                String directory) {
    }

    /** The result of a DONE derive-series job; IOException when it is not that job's JSON. */
    public DerivedSeries derivedSeries() throws IOException {
        if (!"DONE".equals(state) || result == null) {
            throw new IOException("job " + id + " has no result yet (" + state + ")");
        }
        JsonNode r = JSON.readTree(result);
        String first = r.path("first").asText("");
        if (first.isEmpty()) {
            throw new IOException("job " + id + " gave no derived instance: " + result);
        }
        String directory = r.path("directory").asText(first.substring(0, first.lastIndexOf('/') + 1));
        return new DerivedSeries(r.path("SeriesInstanceUID").asText(""), r.path("StudyInstanceUID").asText(""),
                r.path("derived").asInt(), first, directory);
    }

    static Job parse(JsonNode j) {
        JsonNode result = j.get("result");
        return new Job(j.path("id").asText(), j.path("kind").asText(), j.path("state").asText(), j.path("done").asInt(),
                j.path("total").asInt(), result == null || result.isNull() ? null : result.asText(),
                j.path("cancelRequested").asBoolean());
    }
}
