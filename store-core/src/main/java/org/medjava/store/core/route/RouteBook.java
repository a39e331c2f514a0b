package org.medjava.store.core.route;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.TreeMap;
import org.medjava.store.core.cluster.SharedState;

/**
 * Where the routing rules are kept, with each rule's de-identification secret: a directory of one file per rule on
 * one node ({@code data/routes}), the cluster's shared state on several (every node routes by the same rules, and
 * maps UIDs the same way). As the retention rules' {@link org.medjava.store.core.retention.RuleBook}.
 */
interface RouteBook {

    /** The rules by name, with their secrets. */
    Map<String, RouteRule.Kept> load();

    void put(RouteRule.Kept rule);

    boolean remove(String name);

    static RouteBook directory(Path dir) {
        return new RouteBook() {
            @Override
            public synchronized Map<String, RouteRule.Kept> load() {
                Map<String, RouteRule.Kept> rules = new TreeMap<>();
                if (!Files.isDirectory(dir)) {
                    return rules;
                }
                try (var files = Files.list(dir)) {
                    for (Path f : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".route"))::iterator) {
                        RouteRule.Kept kept = RouteRule.fromText(Files.readString(f, StandardCharsets.UTF_8));
                        rules.put(kept.rule().name(), kept);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read the routing rules in " + dir, e);
                }
                return rules;
            }

            @Override
            public synchronized void put(RouteRule.Kept kept) {
                String name = kept.rule().name();
                try {
                    Files.createDirectories(dir);
                    Path tmp = Files.writeString(dir.resolve(name + ".tmp"), kept.rule().toText(kept.secret()),
                            StandardCharsets.UTF_8);
                    Files.move(tmp, dir.resolve(name + ".route"), StandardCopyOption.ATOMIC_MOVE,
                            StandardCopyOption.REPLACE_EXISTING);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot write the routing rule " + name, e);
                }
            }

            @Override
            public synchronized boolean remove(String name) {
                try {
                    return Files.deleteIfExists(dir.resolve(name + ".route"));
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot remove the routing rule " + name, e);
                }
            }
        };
    }

    /** The cluster's shared state (kind {@code route-rule}). */
    static RouteBook shared(SharedState state) {
        String kind = "route-rule";
        return new RouteBook() {
            @Override
            public Map<String, RouteRule.Kept> load() {
                Map<String, RouteRule.Kept> rules = new TreeMap<>();
                state.all(kind).forEach((name, e) -> rules.put(name, RouteRule.fromText(
                        new String(e.value(), StandardCharsets.UTF_8))));
                return rules;
            }

            @Override
            public void put(RouteRule.Kept kept) {
                state.put(kind, kept.rule().name(), kept.rule().toText(kept.secret())
                        .getBytes(StandardCharsets.UTF_8));
            }

            @Override
            public boolean remove(String name) {
                return state.remove(kind, name);
            }
        };
    }
}
