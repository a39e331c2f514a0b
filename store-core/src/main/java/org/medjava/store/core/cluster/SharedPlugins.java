package org.medjava.store.core.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.medjava.filter.runtime.PluginInfo;
import org.medjava.store.core.filters.FilterRepository;
import org.medjava.store.core.filters.PluginCatalog;

/**
 * The filter repository of a cluster: every node's {@link FilterRepository} follows one catalog in the
 * {@link SharedState} (the plugin JARs, and which plugins are suspended). A change made through any node is
 * announced there and applied by the others as soon as they hear of it; a node that starts later, or was cut off,
 * applies the catalog as it finds it. Every node then serves the same manifest (and so the same ETag).
 */
public final class SharedPlugins implements PluginCatalog {

    static final String JARS = "plugin";
    static final String SUSPENDED = "plugin-suspended";
    private static final byte[] YES = {1};

    private final SharedState state;
    private final FilterRepository repository;

    private SharedPlugins(SharedState state, FilterRepository repository) {
        this.state = state;
        this.repository = repository;
    }

    /**
     * Joins {@code repository} to the cluster's catalog: when {@code publishLocal} (the node that initializes a new
     * cluster), the plugins loaded here are published first; then the catalog is applied here and followed.
     */
    public static SharedPlugins join(SharedState state, FilterRepository repository, boolean publishLocal)
            throws IOException {
        SharedPlugins shared = new SharedPlugins(state, repository);
        if (publishLocal) {
            for (PluginInfo p : repository.plugins()) {
                if (p.state() == PluginInfo.State.ACTIVE) {
                    shared.installed(p.id(), repository.jar(p.id()));
                }
            }
        }
        shared.apply();
        repository.announceTo(shared);
        state.subscribe(JARS, shared::applyQuietly);
        state.subscribe(SUSPENDED, shared::applyQuietly);
        return shared;
    }

    /** Makes the local repository hold what the catalog holds. */
    public void apply() throws IOException {
        Map<String, byte[]> jars = new HashMap<>();
        state.all(JARS).forEach((id, e) -> jars.put(id, e.value()));
        Set<String> suspended = state.all(SUSPENDED).keySet();
        repository.sync(jars, suspended);
    }

    private void applyQuietly() {
        try {
            apply();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void installed(String id, Path jar) {
        try {
            state.put(JARS, id, Files.readAllBytes(jar));
            state.remove(SUSPENDED, id); // a new install starts active, everywhere
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void suspended(String id, boolean suspended) {
        if (suspended) {
            state.put(SUSPENDED, id, YES);
        } else {
            state.remove(SUSPENDED, id);
        }
    }

    @Override
    public void removed(String id) {
        state.remove(SUSPENDED, id);
        state.remove(JARS, id);
    }
}
