package org.medjava.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportPublisherTest {
    @TempDir
    Path dir;

    private Path report(String summary) throws IOException {
        Path report = dir.resolve("report");
        Files.createDirectories(report.resolve("charts"));
        Files.createDirectories(report.resolve("raw"));
        Files.writeString(report.resolve("summary.md"), summary);
        Files.writeString(report.resolve("charts/blur.svg"), "<svg/>");
        Files.writeString(report.resolve("charts/blur.png"), "png");
        Files.writeString(report.resolve("charts/unused.svg"), "<svg/>"); // in the HTML page only
        Files.writeString(report.resolve("results.csv"), "filter,size\n");
        Files.writeString(report.resolve("raw/serve.csv"), "target,case\n");
        Files.writeString(report.resolve("raw/ingest.csv"), "target,protocol\n");
        return report;
    }

    @Test
    void copiesTheSummaryTheChartsItShowsAndTheResults() throws IOException {
        Path report = report("# Report\n\n![blur](charts/blur.svg)\n");
        Path target = dir.resolve("docs/reference-report");
        Files.createDirectories(target.resolve("charts"));
        Files.writeString(target.resolve("charts/stale.svg"), "<svg/>"); // an earlier publication's chart
        Files.writeString(target.resolve("notes.txt"), "kept"); // not the publisher's: left alone

        ReportPublisher.publish(report, target);

        assertThat(Files.readString(target.resolve("README.md"))).contains("![blur](charts/blur.svg)");
        assertThat(target.resolve("charts/blur.svg")).exists();
        assertThat(target.resolve("charts/blur.png")).doesNotExist();
        // a chart the summary does not show in place follows it, once
        assertThat(target.resolve("charts/unused.svg")).exists();
        assertThat(Files.readString(target.resolve("README.md"))).containsOnlyOnce("charts/blur.svg")
                .contains("## Charts\n\n![unused](charts/unused.svg)");
        assertThat(target.resolve("charts/stale.svg")).doesNotExist();
        assertThat(target.resolve("results.csv")).exists();
        assertThat(target.resolve("serve.csv")).exists();
        assertThat(target.resolve("ingest.csv")).exists();
        assertThat(Files.readString(target.resolve("notes.txt"))).isEqualTo("kept");
    }

    @Test
    void aSmokeTestIsNotPublished() throws IOException {
        Path report = report("> **" + Summary.SMOKE_BANNER + "**\n");
        assertThatThrownBy(() -> ReportPublisher.publish(report, dir.resolve("out")))
                .hasMessageContaining("smoke test");
        assertThat(dir.resolve("out")).doesNotExist();
    }

    @Test
    void aChartTheSummaryNamesMustExist() throws IOException {
        Path report = report("![x](charts/missing.svg)\n");
        assertThatThrownBy(() -> ReportPublisher.publish(report, dir.resolve("out")))
                .hasMessageContaining("missing.svg");
    }
}
