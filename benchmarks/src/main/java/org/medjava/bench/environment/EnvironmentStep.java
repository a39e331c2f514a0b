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
import org.medjava.bench.variant.Impl;
import org.medjava.bench.variant.JavaFilters;
import org.medjava.bench.variant.OpenCv;
import org.medjava.bench.variant.VectorizedKernels;
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
        env.put("cpu.vector", firstValue(Path.of("/proc/cpuinfo"), "flags").map(EnvironmentStep::vectorFlags)
                .orElse("unknown"));
        env.put("cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
        env.put("memory", firstValue(Path.of("/proc/meminfo"), "MemTotal").orElse("unknown"));
        env.put("os", osRelease().orElse(System.getProperty("os.name")) + ", kernel " + System.getProperty("os.version"));
        env.put("jdk", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        env.put("jdk25", JvmColumn.jdk25Installed() ? jdkRelease(JvmColumn.jdk25Home()) : "not installed");
        for (CBuild build : CBuild.values()) {
            env.put("c." + build.label(), safely(() -> CFilters.of(build).buildInfo()));
        }
        String level = VectorizedKernels.level();
        env.put("c.simd", level);
        env.put("c.vector", VectorizedKernels.levelBits(level) > 0
                ? "vectorized: " + VectorizedKernels.levelTitle(level) + ", " + VectorizedKernels.levelBits(level)
                + "-bit (mj_simd_level() = " + level + (System.getenv("MJ_SIMD") != null ? ", MJ_SIMD="
                + System.getenv("MJ_SIMD") : "") + "); portable: gcc auto-vectorization only"
                : "vectorized: " + level + "; portable: gcc auto-vectorization only");
        env.put("c.vectorized.missing", String.join(" ", JavaFilters.ids().stream()
                .filter(f -> !Impl.C_VECTORIZED.supports(f)).toList()));
        env.put("java.vector", javaVectorWidths());
        env.put("opencv", safely(() -> "org.openpnp:opencv, OpenCV " + OpenCv.version() + ", 1 thread"));
        env.put("jmh", Utils.class.getPackage().getImplementationVersion() == null ? "1.37"
                : Utils.class.getPackage().getImplementationVersion());
        env.put("commit", GitCommit.of(BenchPaths.root()).orElse("unknown"));
        env.put("load.start", loadAverage());
        return env;
    }

    /** The x86 vector extensions among the CPU's flags that matter to the kernels (AVX2, the AVX-512 subsets). */
    static String vectorFlags(String flags) {
        List<String> have = List.of(flags.split("\\s+"));
        List<String> shown = VECTOR_FLAGS.stream().filter(have::contains).toList();
        return shown.isEmpty() ? "none of " + String.join(" ", VECTOR_FLAGS) : String.join(" ", shown);
    }

    static final List<String> VECTOR_FLAGS = List.of("sse4_2", "avx", "avx2", "fma", "avx512f", "avx512bw",
            "avx512vl", "avx512dq", "avx512vbmi");

    /**
     * The preferred species' bit size on each JDK column the run can use ({@link VectorWidth} in a JVM of its own
     * with the column's options), e.g. "JDK 17 JIT: 512-bit; JDK 25 JIT: 512-bit".
     */
    static String javaVectorWidths() {
        List<String> parts = new ArrayList<>();
        for (JvmColumn column : List.of(JvmColumn.JIT, JvmColumn.JDK25)) {
            if (column == JvmColumn.JDK25 && !JvmColumn.jdk25Installed()) {
                continue;
            }
            Path launcher = column.launcher().orElse(Path.of(System.getProperty("java.home"), "bin", "java"));
            parts.add(column.title() + ": " + safely(() -> vectorBits(launcher, column.jvmArgs()) + "-bit"));
        }
        return String.join("; ", parts) + " (jdk.incubator.vector preferred species)";
    }

    private static String vectorBits(Path launcher, List<String> options) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(launcher.toString()));
        command.addAll(options);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), VectorWidth.class.getName()));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
        if (p.waitFor() != 0 || !out.matches("\\d+")) {
            throw new IOException("VectorWidth gave \"" + out + "\"");
        }
        return out;
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
