package org.medjava.filter.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/** Loads every {@code *.jar} of a directory into a registry, each under the {@code Plugin-Id} of its manifest. */
public final class PluginDirectory {
    private PluginDirectory() {
    }

    /** @return one problem per JAR that did not load (the others are loaded regardless) */
    public static List<String> loadAll(FilterRegistry registry, Path dir) throws IOException {
        List<String> problems = new ArrayList<>();
        List<Path> jars;
        try (Stream<Path> files = Files.list(dir)) {
            jars = files.filter(p -> p.getFileName().toString().endsWith(".jar")).sorted().toList();
        }
        for (Path jar : jars) {
            String id = pluginId(jar);
            if (id == null) {
                problems.add(jar.getFileName() + ": no Plugin-Id in its manifest; not a filter plugin");
                continue;
            }
            try {
                registry.load(id, jar, Map.of());
            } catch (RegistryException e) {
                problems.add(e.getMessage());
            }
        }
        return problems;
    }

    /** The manifest's {@code Plugin-Id}, or null when the file is not a JAR or has none. */
    public static String pluginId(Path jar) {
        try (JarFile file = new JarFile(jar.toFile())) {
            var manifest = file.getManifest();
            String id = manifest == null ? null : manifest.getMainAttributes().getValue("Plugin-Id");
            return id == null || id.isBlank() ? null : id.trim();
        } catch (IOException e) {
            return null;
        }
    }
}
