package org.medjava.bench.open;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The study-open benchmark's harness works, as a user starts it ({@code java -jar benchmarks.jar study-open}): one run
 * of the store's web viewer on the store, loopback, a 10-slice CT — the store (the built WAR), Chromium and
 * playwright-core all real. Its JSON holds the three times and the load, the first image was really on screen, and
 * the Markdown summary has the row. Timings are not judged here.
 */
class StudyOpenIT {

    @Test
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void oneRunOfTheWebViewerOnTheStoreMeasuresAndReports() throws Exception {
        Path jar = Path.of(System.getProperty("benchmarks.jar"));
        Path out = jar.getParent().resolve("study-open-smoke");
        Path log = jar.getParent().resolve("study-open-smoke.log");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                jar.toString(), "study-open", "--runs", "1", "--profiles", "loopback", "--viewers", "web",
                "--servers", "store", "--studies", "ct", "--slices", "10", "--out", out.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean finished = p.waitFor(5, TimeUnit.MINUTES);
        if (!finished) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly().waitFor();
        }
        assertThat(finished).as("the run finished in time; its output:\n%s", Files.readString(log)).isTrue();
        assertThat(p.exitValue()).as("exit code; its output:\n%s", Files.readString(log)).isZero();

        JsonObject results = JsonParser.parseString(Files.readString(out.resolve("results.json"))).getAsJsonObject();
        JsonArray cases = results.getAsJsonArray("cases");
        assertThat(cases).hasSize(1);
        JsonObject c = cases.get(0).getAsJsonObject();
        assertThat(c.get("viewer").getAsString()).isEqualTo("web");
        assertThat(c.get("server").getAsString()).isEqualTo("store");
        assertThat(c.get("failed").getAsInt()).isZero();
        JsonObject run = c.getAsJsonArray("runs").get(0).getAsJsonObject();
        double first = run.get("firstImageMs").getAsDouble();
        assertThat(first).isPositive();
        assertThat(run.get("allFramesMs").getAsDouble()).as("the last frame arrives after the click").isPositive();
        assertThat(run.get("framesSeen").getAsInt()).isEqualTo(10);
        assertThat(run.get("scrollImagesPerSecond").getAsDouble()).isPositive();
        assertThat(run.get("scrolledImages").getAsInt()).as("down the series").isGreaterThanOrEqualTo(9);
        assertThat(run.get("lit").getAsDouble()).as("share of the viewport lit: the image is on screen")
                .isGreaterThan(0.05);
        assertThat(run.get("load1").getAsDouble()).isNotNegative();
        assertThat(results.getAsJsonObject("environment").get("load.start").getAsString()).isNotBlank();

        String summary = Files.readString(out.resolve("summary.md"));
        assertThat(summary).contains("| web viewer | store | CT 10×512² uncompressed | loopback | "
                + Math.round(first) + " |");
    }
}
