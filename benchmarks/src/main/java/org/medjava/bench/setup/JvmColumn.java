package org.medjava.bench.setup;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Optional;

/**
 * The JVM a fork runs on, a column of its own in the report: the JIT of the JDK running the benchmarks (17), the
 * interpreter ({@code -Xint}, the paper's "JIT off"), and JDK 25 when installed. Forks carry it as
 * {@code -Dmedjava.bench.jvm=<id>}, which JMH writes into the JSON, so the report never has to guess. Here, not in
 * run: the FFM step forks on these JVMs too, and the report reads them back.
 */
public enum JvmColumn {
    JIT("jit", "JDK 17 JIT"),
    XINT("xint", "JDK 17 -Xint"),
    JDK25("jdk25", "JDK 25 JIT");

    /** Where JDK 25 is looked for unless {@code -Dmedjava.bench.jdk25} or {@code MEDJAVA_JDK25} says otherwise. */
    public static final String DEFAULT_JDK25 = "/usr/lib/jvm/temurin-25-jdk-amd64";
    public static final String PROPERTY = "medjava.bench.jvm";

    private final String id;
    private final String title;

    JvmColumn(String id, String title) {
        this.id = id;
        this.title = title;
    }

    public String id() {
        return id;
    }

    public String title() {
        return title;
    }

    public static JvmColumn parse(String id) {
        for (JvmColumn c : values()) {
            if (c.id.equals(id)) {
                return c;
            }
        }
        return JIT;
    }

    /**
     * Extra JVM options of this column's forks. The JIT columns get the Vector API module, so the optimized Java
     * kernels use it; the interpreter runs the scalar kernels (interpreted Vector API code would measure the
     * interpreter's object churn, not the filter).
     */
    public List<String> jvmArgs() {
        return this == XINT ? List.of("-Xint") : List.of("--add-modules", "jdk.incubator.vector");
    }

    /** The java launcher of this column: empty for the JDK running the benchmarks. */
    public Optional<Path> launcher() {
        if (this != JDK25) {
            return Optional.empty();
        }
        return Optional.of(jdk25Home().resolve("bin/java"));
    }

    public static Path jdk25Home() {
        String configured = System.getProperty("medjava.bench.jdk25", System.getenv("MEDJAVA_JDK25"));
        return Paths.get(configured == null || configured.isBlank() ? DEFAULT_JDK25 : configured);
    }

    public static boolean jdk25Installed() {
        return Files.isExecutable(jdk25Home().resolve("bin/java"));
    }
}
