package org.medjava.store.core.index;

import jakarta.json.bind.annotation.JsonbProperty;

/** How many rows each level of the index holds. */
public record IndexCounts(
        @JsonbProperty("patients") long patients,
        @JsonbProperty("studies") long studies,
        @JsonbProperty("series") long series,
        @JsonbProperty("instances") long instances) {
}
