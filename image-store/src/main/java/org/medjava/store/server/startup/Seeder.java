package org.medjava.store.server.startup;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.medjava.filter.runtime.PluginDirectory;
import org.medjava.filter.runtime.PluginTrust;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.ingest.Ingest;
import org.medjava.store.core.model.Preconditions;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.model.StorePath;

/**
 * First-start content: the sample images (through the repository, so they are validated and indexed like any
 * upload; the deliberately broken samples are refused and say why) and the bundled filter plugins.
 */
public final class Seeder {

    private static final Logger LOG = Logger.getLogger(Seeder.class.getName());

    private Seeder() {
    }

    /** Copies each plugin JAR in {@code from} to {@code pluginsDir} as {@code <Plugin-Id>.jar}. */
    public static int seedPlugins(Path from, Path pluginsDir) throws IOException {
        int n = 0;
        try (Stream<Path> jars = Files.list(from)) {
            for (Path jar : (Iterable<Path>) jars.filter(p -> p.toString().endsWith(".jar")).sorted()::iterator) {
                String id = PluginDirectory.pluginId(jar);
                if (id == null) {
                    LOG.warning("seed: " + jar.getFileName() + " has no Plugin-Id, skipped");
                    continue;
                }
                Files.copy(jar, pluginsDir.resolve(id + ".jar"), StandardCopyOption.REPLACE_EXISTING);
                n++;
            }
        }
        return n;
    }

    /**
     * Copies the certificates in {@code from/trusted-publishers} (the publisher of the bundled plugins) into the
     * trust store directory {@code to}; files already there are kept.
     */
    public static int seedPublishers(Path from, Path to) throws IOException {
        Path certificates = from.resolve("trusted-publishers");
        if (!Files.isDirectory(certificates)) {
            return 0;
        }
        Files.createDirectories(to);
        int n = 0;
        try (Stream<Path> files = Files.list(certificates)) {
            for (Path file : files.filter(PluginTrust::isCertificateFile).sorted().toList()) {
                if (!Files.exists(to.resolve(file.getFileName().toString()))) {
                    Files.copy(file, to.resolve(file.getFileName().toString()));
                    n++;
                }
            }
        }
        return n;
    }

    /** PUTs every file under {@code from} to {@code under/<relative path>}; returns how many were stored. */
    public static int seedImages(Path from, StorePath under, Ingest ingest) throws IOException {
        int stored = 0;
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
                Path relative = from.relativize(file);
                String name = relative.getFileName().toString();
                if (name.startsWith(".") || name.endsWith(".md")) {
                    continue;
                }
                StorePath target = StorePath.parse(under.relative() + relative.toString().replace('\\', '/'));
                try (InputStream in = Files.newInputStream(file)) {
                    ingest.put(target, in, Files.size(file), null, Preconditions.NONE, Caller.STORE); // start-up's own
                    stored++;
                } catch (StoreException e) {
                    LOG.info("seed: " + target + " not stored (" + e.getMessage() + ")");
                }
            }
        }
        return stored;
    }
}
