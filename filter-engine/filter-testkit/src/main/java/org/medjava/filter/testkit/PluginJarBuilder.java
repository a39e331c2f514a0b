package org.medjava.filter.testkit;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.medjava.filter.Filter;
import org.medjava.filter.FilterApi;

/**
 * Compiles throw-away filter plugins from source strings into JARs, for registry tests: several versions of one
 * plugin, broken ones (no provider, duplicate ids, wrong API version, throwing init), slow ones. Each JAR is signed
 * by {@link TestPublisher#standard()} (hosts under test trust it) unless {@link #signedBy} or {@link #unsigned} say
 * otherwise.
 */
public final class PluginJarBuilder {
    private final String pluginId;
    private String version = "1.0";
    private String apiVersion = FilterApi.VERSION;
    private boolean manifest = true;
    private final Map<String, String> sources = new LinkedHashMap<>();
    private final List<String> providers = new ArrayList<>();
    private final Map<String, byte[]> extraEntries = new LinkedHashMap<>();
    private boolean signed = true;
    private TestPublisher publisher;

    private PluginJarBuilder(String pluginId) {
        this.pluginId = pluginId;
    }

    public static PluginJarBuilder plugin(String pluginId) {
        return new PluginJarBuilder(pluginId);
    }

    public PluginJarBuilder version(String version) {
        this.version = version;
        return this;
    }

    /** The {@code Filter-Api-Version} written to the manifest; null to leave it out. */
    public PluginJarBuilder apiVersion(String apiVersion) {
        this.apiVersion = apiVersion;
        return this;
    }

    /** A JAR without manifest (and so unsigned: a signature lives in the manifest). */
    public PluginJarBuilder withoutManifest() {
        this.manifest = false;
        this.signed = false;
        return this;
    }

    /** Signed by {@code publisher} instead of {@link TestPublisher#standard()}. */
    public PluginJarBuilder signedBy(TestPublisher publisher) {
        this.publisher = publisher;
        this.signed = true;
        return this;
    }

    /** Not signed at all. */
    public PluginJarBuilder unsigned() {
        this.signed = false;
        return this;
    }

    /** A class to compile, by fully qualified name. */
    public PluginJarBuilder source(String className, String code) {
        sources.put(className, code);
        return this;
    }

    /** A class listed in {@code META-INF/services/org.medjava.filter.spi.FilterProvider}. */
    public PluginJarBuilder provider(String className) {
        providers.add(className);
        return this;
    }

    public PluginJarBuilder entry(String name, byte[] content) {
        extraEntries.put(name, content);
        return this;
    }

    public Path build(Path jar) throws IOException {
        Path classes = Files.createTempDirectory("plugin-classes-");
        try {
            compile(classes);
            Files.createDirectories(jar.toAbsolutePath().getParent());
            Path temp = Files.createTempFile(jar.toAbsolutePath().getParent(), ".plugin", ".jar");
            try (JarOutputStream out = manifest ? new JarOutputStream(Files.newOutputStream(temp), manifest())
                    : new JarOutputStream(Files.newOutputStream(temp))) {
                if (!providers.isEmpty()) {
                    put(out, "META-INF/services/org.medjava.filter.spi.FilterProvider",
                            String.join("\n", providers).getBytes(StandardCharsets.UTF_8));
                }
                try (Stream<Path> files = Files.walk(classes)) {
                    for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                        put(out, classes.relativize(file).toString().replace('\\', '/'), Files.readAllBytes(file));
                    }
                }
                for (Map.Entry<String, byte[]> e : extraEntries.entrySet()) {
                    put(out, e.getKey(), e.getValue());
                }
            }
            if (signed) {
                (publisher == null ? TestPublisher.standard() : publisher).sign(temp);
            }
            // replace in one step, as a person copying a new version over the old one would
            Files.move(temp, jar, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            return jar;
        } finally {
            try (Stream<Path> files = Files.walk(classes)) {
                for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private Manifest manifest() {
        Manifest m = new Manifest();
        Attributes a = m.getMainAttributes();
        a.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        a.putValue("Plugin-Id", pluginId);
        a.putValue("Plugin-Version", version);
        if (apiVersion != null) {
            a.putValue("Filter-Api-Version", apiVersion);
        }
        return m;
    }

    private static void put(JarOutputStream out, String name, byte[] content) throws IOException {
        out.putNextEntry(new JarEntry(name));
        out.write(content);
        out.closeEntry();
    }

    private void compile(Path classes) throws IOException {
        if (sources.isEmpty()) {
            return;
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler == null) {
            throw new IllegalStateException("no Java compiler: run the tests on a JDK, not a JRE");
        }
        Path src = Files.createTempDirectory("plugin-src-");
        List<Path> files = new ArrayList<>();
        for (Map.Entry<String, String> e : sources.entrySet()) {
            Path file = src.resolve(e.getKey().replace('.', '/') + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, e.getValue());
            files.add(file);
        }
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager fm = compiler.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8)) {
            List<String> options = List.of("--release", "17", "-classpath", apiLocation().toString(), "-d",
                    classes.toString(), "-proc:none");
            boolean ok = compiler.getTask(null, fm, diagnostics, options, null,
                    fm.getJavaFileObjectsFromPaths(files)).call();
            if (!ok) {
                throw new IllegalArgumentException("plugin sources do not compile: " + diagnostics.getDiagnostics());
            }
        }
    }

    /** The filter-api classes this test runs with (a JAR or a classes directory). */
    private static Path apiLocation() {
        try {
            return Path.of(Filter.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes raw bytes as a "JAR" (for the not-a-JAR case). */
    public static Path garbage(Path file, String content) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            out.write(content.getBytes(StandardCharsets.UTF_8));
        }
        return file;
    }
}
