package org.medjava.store.core.ingest;

import org.medjava.store.core.model.StorePath;

/**
 * An object stored from the network.
 *
 * @param replaced whether it replaced an object with the same SOP Instance UID
 */
public record Ingested(String sopClassUid, String sopInstanceUid, String studyInstanceUid, String seriesInstanceUid,
                       StorePath path, boolean replaced) {
}
