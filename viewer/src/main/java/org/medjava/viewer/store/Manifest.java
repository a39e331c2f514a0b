package org.medjava.viewer.store;

import java.util.List;

/**
 * The store's filter repository manifest ({@code GET /filters}), the parts a client needs to follow it: each plugin's
 * id, version, state (ACTIVE or FAILED), SHA-256 and download link, and the state of each of its filters (ACTIVE,
 * SUSPENDED, FAILED).
 */
public record Manifest(String etag, List<Plugin> plugins) {

    public record Plugin(String id, String version, String state, String sha256, String download,
                         List<FilterState> filters) {
        public boolean active() {
            return "ACTIVE".equals(state) && sha256 != null && !sha256.isBlank();
        }
    }

    public record FilterState(String id, String state) {
        public boolean suspended() {
            return "SUSPENDED".equals(state);
        }
    }

    public Manifest {
        plugins = List.copyOf(plugins);
    }
}
