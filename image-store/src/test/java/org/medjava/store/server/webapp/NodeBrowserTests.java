package org.medjava.store.server.webapp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs browser test files of the web module ({@code web/e2e/…/*.test.mjs}) under Node's test runner — headless Debian
 * Chromium driven by playwright-core — against a store the IT started and described in a fixtures JSON file
 * ({@code MEDJAVA_E2E_FIXTURES}); screenshots go to {@code target/e2e-screenshots}. Their report is printed, and any
 * failure fails the calling test with the report's tail.
 */
final class NodeBrowserTests {

    static final Path WEB = Path.of("..", "web").toAbsolutePath().normalize();

    private NodeBrowserTests() {
    }

    /** The test files of a folder of the web module (e.g. {@code e2e}), as paths relative to it, in name order. */
    static List<String> in(String folder) throws IOException {
        try (Stream<Path> list = Files.list(WEB.resolve(folder))) {
            return list.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".test.mjs")).sorted()
                    .map(n -> folder + "/" + n).toList();
        }
    }

    /** Runs the files one after the other; fails unless every test in them passes within {@code patience}. */
    static void run(List<String> files, Path fixtures, Path work, Duration patience)
            throws IOException, InterruptedException {
        assertThat(files).as("browser tests to run").isNotEmpty();
        List<String> command = new ArrayList<>(List.of("node", "--test", "--test-concurrency=1"));
        command.addAll(files);
        Path output = Files.createTempFile(work, "e2e-output", ".txt");
        Path screenshots = Path.of("target", "e2e-screenshots").toAbsolutePath();
        ProcessBuilder builder = new ProcessBuilder(command).directory(WEB.toFile())
                .redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().put("MEDJAVA_E2E_FIXTURES", fixtures.toString());
        builder.environment().put("MEDJAVA_E2E_SCREENSHOTS", screenshots.toString());
        Process node = builder.start();
        boolean finished = node.waitFor(patience.toSeconds(), TimeUnit.SECONDS);
        if (!finished) {
            node.descendants().forEach(ProcessHandle::destroyForcibly); // Chromium too
            node.destroyForcibly();
        }
        String report = Files.readString(output, StandardCharsets.UTF_8);
        System.out.println(report);
        assertThat(finished).as("the browser tests finished within " + patience + ":\n" + tail(report)).isTrue();
        assertThat(node.exitValue()).as("browser tests " + files + ", exit status; their report:\n" + tail(report))
                .isZero();
    }

    private static String tail(String report) {
        return report.length() <= 20_000 ? report : report.substring(report.length() - 20_000);
    }
}
