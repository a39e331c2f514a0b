package org.medjava.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Copies a finished report into a directory meant to be committed ({@code docs/reference-report/}): the Markdown
 * summary as its {@code README.md} with every SVG chart of the report (those it does not show in place follow it),
 * and the CSV results (all points, the store against its
 * peers); every relative link of the README names a file published beside it. What the README quotes is there, readable on the forge, and made anew by {@code ./medjava bench publish}.
 * A smoke test (the quick run) is refused: its numbers are not results.
 */
public final class ReportPublisher {
    private static final Pattern CHART = Pattern.compile("\\]\\((charts/[A-Za-z0-9._-]+\\.svg)\\)");
    private static final List<String> DATA = List.of("results.csv", ReportGenerator.RAW + "/serve.csv",
            ReportGenerator.RAW + "/ingest.csv",
            ReportGenerator.RAW + "/store-http.csv", ReportGenerator.RAW + "/environment.properties");

    private ReportPublisher() {
    }

    /** @return the files written under {@code target} */
    public static List<Path> publish(Path report, Path target) throws IOException {
        Path summary = report.resolve("summary.md");
        if (!Files.isRegularFile(summary)) {
            throw new IOException("no report in " + report + ": run ./medjava bench --standard (or the full run) first");
        }
        String markdown = Files.readString(summary, StandardCharsets.UTF_8);
        if (markdown.contains(Summary.SMOKE_BANNER)) {
            throw new IOException(report + " holds a smoke test (--quick): publish a standard or full run");
        }
        Set<String> charts = new LinkedHashSet<>();
        Matcher m = CHART.matcher(markdown);
        while (m.find()) {
            charts.add(m.group(1));
        }
        // the summary shows some charts in place; the rest (the HTML page's) follow it, so that all are on the forge
        StringBuilder more = new StringBuilder();
        if (Files.isDirectory(report.resolve("charts"))) {
            try (Stream<Path> svgs = Files.list(report.resolve("charts"))) {
                for (Path svg : svgs.filter(p -> p.toString().endsWith(".svg")).sorted().toList()) {
                    String chart = "charts/" + svg.getFileName();
                    if (charts.add(chart)) {
                        more.append("![").append(svg.getFileName().toString().replace(".svg", "")).append("](")
                                .append(chart).append(")\n\n");
                    }
                }
            }
        }
        if (more.length() > 0) {
            markdown = markdown.stripTrailing() + "\n\n## Charts\n\n" + more;
        }
        clear(target);
        Files.createDirectories(target.resolve("charts"));
        List<Path> written = new ArrayList<>();
        for (String chart : charts) {
            written.add(copy(report.resolve(chart), target.resolve(chart)));
        }
        List<String> published = new ArrayList<>();
        for (String data : DATA) {
            Path source = report.resolve(data);
            if (Files.isRegularFile(source)) {
                String name = source.getFileName().toString();
                written.add(copy(source, target.resolve(name)));
                published.add(name);
            }
        }
        written.add(0, Files.writeString(target.resolve("README.md"), filesLine(markdown, published),
                StandardCharsets.UTF_8));
        return written;
    }

    /**
     * The summary's line naming the report's files links files beside it in the report (its HTML page, JMH's raw
     * JSON) that a publication does not copy: here it names what is published.
     */
    private static String filesLine(String markdown, List<String> published) {
        StringBuilder line = new StringBuilder("Data: ");
        for (int i = 0; i < published.size(); i++) {
            line.append(i == 0 ? "" : ", ").append('[').append(published.get(i)).append("](")
                    .append(published.get(i)).append(')');
        }
        line.append(published.isEmpty() ? "none published" : "").append("; the charts are in `charts/`. The HTML page "
                + "and JMH's raw JSON stay with the run's report (`./medjava bench report`).");
        return Pattern.compile("^" + Pattern.quote(Summary.FILES_LINE) + ".*$", Pattern.MULTILINE).matcher(markdown)
                .replaceAll(Matcher.quoteReplacement(line.toString()));
    }

    /**
     * The previous publication goes — a chart the new report no longer draws must not linger — but only what a
     * publication writes: the directory may be given wrongly.
     */
    private static void clear(Path target) throws IOException {
        if (Files.isDirectory(target.resolve("charts"))) {
            try (Stream<Path> charts = Files.list(target.resolve("charts"))) {
                for (Path chart : charts.filter(p -> p.toString().endsWith(".svg")).toList()) {
                    Files.delete(chart);
                }
            }
        }
        Files.deleteIfExists(target.resolve("README.md"));
        for (String data : DATA) {
            Files.deleteIfExists(target.resolve(Path.of(data).getFileName().toString()));
        }
    }

    private static Path copy(Path from, Path to) throws IOException {
        if (!Files.isRegularFile(from)) {
            throw new IOException("the report names " + from + ", which is not there: regenerate the report");
        }
        return Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
}
