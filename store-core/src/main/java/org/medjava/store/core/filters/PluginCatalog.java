package org.medjava.store.core.filters;

import java.nio.file.Path;

/**
 * Where a {@link FilterRepository} announces its changes so that other store nodes can apply them (see
 * {@code org.medjava.store.core.cluster.SharedPlugins}); {@link #NONE} for a single node.
 */
public interface PluginCatalog {

    /** Plugin {@code id} was installed or replaced with {@code jar} (loaded and working here). */
    void installed(String id, Path jar);

    void suspended(String id, boolean suspended);

    void removed(String id);

    PluginCatalog NONE = new PluginCatalog() {
        @Override
        public void installed(String id, Path jar) {
        }

        @Override
        public void suspended(String id, boolean suspended) {
        }

        @Override
        public void removed(String id) {
        }
    };
}
