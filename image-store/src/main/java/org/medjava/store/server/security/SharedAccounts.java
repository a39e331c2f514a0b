package org.medjava.store.server.security;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import org.medjava.store.core.cluster.SharedState;

/** The accounts of a cluster, in its shared state: a change on one node is effective on every node at once. */
public final class SharedAccounts implements AccountBook {

    private static final String KIND = "account";
    private final SharedState state;

    public SharedAccounts(SharedState state) {
        this.state = state;
    }

    @Override
    public Map<String, String> load() {
        Map<String, String> entries = new TreeMap<>();
        state.all(KIND).forEach((name, e) -> entries.put(name, new String(e.value(), StandardCharsets.UTF_8)));
        return entries;
    }

    @Override
    public void put(String name, String entry, Map<String, String> all) {
        state.put(KIND, name, entry.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public boolean putIfAbsent(String name, String entry, Map<String, String> all) {
        return state.putIfAbsent(KIND, name, entry.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void remove(String name, Map<String, String> all) {
        state.remove(KIND, name);
    }

    @Override
    public void onChange(Runnable reload) {
        state.subscribe(KIND, reload);
    }
}
