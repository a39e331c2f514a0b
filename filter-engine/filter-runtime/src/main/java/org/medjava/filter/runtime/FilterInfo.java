package org.medjava.filter.runtime;

import org.medjava.filter.FilterDescriptor;

/** A snapshot of one filter: its descriptor (filter-api types only), which plugin provides it, and its state. */
public record FilterInfo(FilterDescriptor descriptor, String pluginId, String pluginVersion, State state,
                         String reason) {

    public enum State { ACTIVE, SUSPENDED, FAILED }

    public String id() {
        return descriptor.id();
    }
}
