package org.medjava.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

    /** Relative links of Markdown ({@code ](x)}) and HTML ({@code href="x"}, {@code src="x"}). */
    private static List<String> relativeLinks(String text) {
        List<String> links = new ArrayList<>();
        Matcher m = Pattern.compile("\\]\\(([^)\\s]+)\\)|(?:href|src)=\"([^\"]+)\"").matcher(text);
        while (m.find()) {
            String link = m.group(1) != null ? m.group(1) : m.group(2);
            if (!link.contains("://") && !link.startsWith("#") && !link.startsWith("mailto:")) {
                links.add(link.replaceAll("#.*", ""));
            }
        }
        return links;
    }

    @Test
    void everyRelativeLinkOfAGeneratedReportResolvesAndOfItsPublicationToAPublishedFile() throws Exception {
        Path report = dir.resolve("report");
        ReportGeneratorTest.writeRun(report, "standard");
        ReportGenerator.generate(report);
        for (String page : List.of("summary.md", "index.html")) {
            List<String> links = relativeLinks(Files.readString(report.resolve(page)));
            assertThat(links).as(page).isNotEmpty();
            assertThat(links).as(page + ": links to what is not in the report")
                    .allSatisfy(link -> assertThat(report.resolve(link)).exists());
        }

        Path target = dir.resolve("docs/reference-report");
        ReportPublisher.publish(report, target);

        String readme = Files.readString(target.resolve("README.md"));
        List<String> links = relativeLinks(readme);
        assertThat(links).contains("results.csv", "charts/blur.svg");
        assertThat(links).as("the published README links only what is published")
                .allSatisfy(link -> assertThat(target.resolve(link)).isRegularFile());
        assertThat(readme).doesNotContain("`index.html`", "`jmh-results.json`")
                .contains("Data: [results.csv](results.csv)");
    }

    @Test
    void theCommittedReferenceReportLinksOnlyFilesItHolds() throws IOException {
        Path committed = Path.of("..", "docs", "reference-report").toAbsolutePath().normalize();
        List<String> links = relativeLinks(Files.readString(committed.resolve("README.md")));
        assertThat(links).isNotEmpty().allSatisfy(link -> assertThat(committed.resolve(link)).isRegularFile());
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
