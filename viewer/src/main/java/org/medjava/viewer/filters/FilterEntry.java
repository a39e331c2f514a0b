package org.medjava.viewer.filters;

import org.medjava.filter.FilterDescriptor;
import org.medjava.filter.runtime.FilterInfo;

/** A filter as the Filters menu shows it: what it is, where its plugin came from, whether it can run now. */
public record FilterEntry(FilterDescriptor descriptor, String pluginId, String pluginVersion, Origin origin,
                          FilterInfo.State state, String reason) {

    public enum Origin {
        /** Shipped with the viewer. */
        BUNDLED("bundled"),
        /** Downloaded from the store's filter repository (or the bundled JAR the store also serves). */
        STORE("store");

        private final String label;

        Origin(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    public String id() {
        return descriptor.id();
    }

    public boolean runnable() {
        return state == FilterInfo.State.ACTIVE;
    }
}
