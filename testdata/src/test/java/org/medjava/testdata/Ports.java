package org.medjava.testdata;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.medjava.filter.Filter;
import org.medjava.filter.spi.FilterProvider;
import org.medjava.filter.testkit.TestData;

/** The two independently written ports: the Java plugins (on this module's test class path) and the C runner. */
final class Ports {
    private static final Pattern CLOSING = Pattern.compile("(?m)^(\\d+) passed, (\\d+) failed");

    private Ports() {
    }

    /** Every Java filter by id, straight from the plugin JARs' providers. */
    static Map<String, Filter> javaFilters() {
        Map<String, Filter> filters = new TreeMap<>();
        for (FilterProvider provider : ServiceLoader.load(FilterProvider.class)) {
            for (Filter f : provider.filters()) {
                filters.put(f.descriptor().id(), f);
            }
        }
        return filters;
    }

    static Path cBuildDir() {
        return TestData.repositoryRoot().resolve("c-reference/build");
    }

    /** The C runner's verdict on a cases file: both C implementations on every case. */
    record CResult(int exitCode, int passed, int failed, String output) {
    }

    static CResult runCGolden(Path casesCsv, Path testdataDir, Path diffDir) throws IOException, InterruptedException {
        Path runner = cBuildDir().resolve("golden_test");
        if (!Files.isExecutable(runner)) {
            throw new IllegalStateException(runner + " is missing: the c-reference module builds it (make)");
        }
        Files.createDirectories(diffDir);
        List<String> command = new ArrayList<>(List.of(runner.toString(), casesCsv.toString(), "--testdata",
                testdataDir.toString(), "--diff-dir", diffDir.toString()));
        Path log = Files.createTempFile("golden-c-", ".log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!process.waitFor(10, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException("C golden runner did not finish in 10 minutes");
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        Files.delete(log);
        Matcher m = CLOSING.matcher(output);
        int passed = -1;
        int failed = -1;
        while (m.find()) {
            passed = Integer.parseInt(m.group(1));
            failed = Integer.parseInt(m.group(2));
        }
        return new CResult(process.exitValue(), passed, failed, output);
    }
}
