package org.medjava.store.core.retention;

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
 * Where the retention rules are kept: a directory of one file per rule on one node, the cluster's shared state on
 * several (so every node runs the same rules, and each deletion happens once: the trash is shared).
 */
public interface RuleBook {

    Map<String, RetentionRule> load();

    void put(RetentionRule rule);

    boolean remove(String id);

    /** One file per rule in {@code dir} (written to a temporary file and moved into place). */
    static RuleBook directory(Path dir) {
        return new RuleBook() {
            @Override
            public synchronized Map<String, RetentionRule> load() {
                Map<String, RetentionRule> rules = new TreeMap<>();
                if (!Files.isDirectory(dir)) {
                    return rules;
                }
                try (var files = Files.list(dir)) {
                    for (Path f : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".rule"))::iterator) {
                        RetentionRule rule = RetentionRule.fromText(Files.readString(f, StandardCharsets.UTF_8));
                        rules.put(rule.id(), rule);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read the retention rules in " + dir, e);
                }
                return rules;
            }

            @Override
            public synchronized void put(RetentionRule rule) {
                try {
                    Files.createDirectories(dir);
                    Path tmp = Files.writeString(dir.resolve(rule.id() + ".tmp"), rule.toText(),
                            StandardCharsets.UTF_8);
                    Files.move(tmp, dir.resolve(rule.id() + ".rule"), StandardCopyOption.ATOMIC_MOVE,
                            StandardCopyOption.REPLACE_EXISTING);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot write the retention rule " + rule.id(), e);
                }
            }

            @Override
            public synchronized boolean remove(String id) {
                try {
                    return Files.deleteIfExists(dir.resolve(id + ".rule"));
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot remove the retention rule " + id, e);
                }
            }
        };
    }

    /** The cluster's shared state (kind {@code retention-rule}). */
    static RuleBook shared(SharedState state) {
        String kind = "retention-rule";
        return new RuleBook() {
            @Override
            public Map<String, RetentionRule> load() {
                Map<String, RetentionRule> rules = new TreeMap<>();
                state.all(kind).forEach((id, e) -> rules.put(id, RetentionRule.fromText(
                        new String(e.value(), StandardCharsets.UTF_8))));
                return rules;
            }

            @Override
            public void put(RetentionRule rule) {
                state.put(kind, rule.id(), rule.toText().getBytes(StandardCharsets.UTF_8));
            }

            @Override
            public boolean remove(String id) {
                return state.remove(kind, id);
            }
        };
    }
}
