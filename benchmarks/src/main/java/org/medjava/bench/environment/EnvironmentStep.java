package org.medjava.bench.environment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.medjava.bench.jni.CBuild;
import org.medjava.bench.jni.CFilters;
import org.medjava.bench.setup.BenchPaths;
import org.medjava.bench.setup.JvmColumn;
import org.medjava.bench.variant.OpenCv;
import org.openjdk.jmh.util.Utils;

/**
 * The environment block of the report: CPU, cores, memory, OS, JDKs, compiler and flags, OpenCV, JMH, commit and the
 * load average (the machine may be shared). Written to {@code raw/environment.properties} as ordered
 * {@code key=value} lines; {@link #read} gives them back. A package of its own, below both the run that writes the
 * file and the report that reads it.
 */
public final class EnvironmentStep {
    private EnvironmentStep() {
    }

    public static Map<String, String> collect(String mode) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("date", ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
        env.put("mode", mode);
        env.put("cpu", firstValue(Path.of("/proc/cpuinfo"), "model name").orElse(System.getProperty("os.arch")));
        env.put("cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
        env.put("memory", firstValue(Path.of("/proc/meminfo"), "MemTotal").orElse("unknown"));
        env.put("os", osRelease().orElse(System.getProperty("os.name")) + ", kernel " + System.getProperty("os.version"));
        env.put("jdk", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        env.put("jdk25", JvmColumn.jdk25Installed() ? jdkRelease(JvmColumn.jdk25Home()) : "not installed");
        for (CBuild build : CBuild.values()) {
            env.put("c." + build.label(), safely(() -> CFilters.of(build).buildInfo()));
        }
        env.put("opencv", safely(() -> "org.openpnp:opencv, OpenCV " + OpenCv.version() + ", 1 thread"));
        env.put("jmh", Utils.class.getPackage().getImplementationVersion() == null ? "1.37"
                : Utils.class.getPackage().getImplementationVersion());
        env.put("commit", GitCommit.of(BenchPaths.root()).orElse("unknown"));
        env.put("load.start", loadAverage());
        return env;
    }

    public static void write(Path file, Map<String, String> env) throws IOException {
        List<String> lines = new ArrayList<>();
        env.forEach((k, v) -> lines.add(k + "=" + v.replace('\n', ' ')));
        Files.write(file, lines);
    }

    public static Map<String, String> read(Path file) throws IOException {
        Map<String, String> env = new LinkedHashMap<>();
        if (Files.isRegularFile(file)) {
            for (String line : Files.readAllLines(file)) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    env.put(line.substring(0, eq), line.substring(eq + 1));
                }
            }
        }
        return env;
    }

    public static String loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return parts[0] + " " + parts[1] + " " + parts[2] + " (1, 5, 15 min)";
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static Optional<String> firstValue(Path file, String key) {
        try {
            return Files.readAllLines(file).stream().filter(l -> l.startsWith(key))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> osRelease() {
        try {
            return Files.readAllLines(Path.of("/etc/os-release")).stream().filter(l -> l.startsWith("PRETTY_NAME="))
                    .map(l -> l.substring("PRETTY_NAME=".length()).replace("\"", "")).findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static String jdkRelease(Path home) {
        try {
            Map<String, String> release = new LinkedHashMap<>();
            for (String line : Files.readAllLines(home.resolve("release"))) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    release.put(line.substring(0, eq), line.substring(eq + 1).replace("\"", ""));
                }
            }
            return release.getOrDefault("IMPLEMENTOR", "") + " " + release.getOrDefault("JAVA_RUNTIME_VERSION",
                    release.getOrDefault("JAVA_VERSION", "?")) + " (" + home + ")";
        } catch (IOException e) {
            return home.toString();
        }
    }

    private interface Source {
        String get() throws Exception;
    }

    private static String safely(Source source) {
        try {
            return source.get();
        } catch (Exception | LinkageError e) {
            return "unavailable: " + e.getMessage();
        }
    }
}
