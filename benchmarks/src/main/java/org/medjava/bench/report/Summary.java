package org.medjava.bench.report;

import java.util.List;
import java.util.Map;

/** The Markdown summary and the HTML page: environment block, tables, charts, problems. */
final class Summary {
    /** Heads both pages of a quick run, so that nobody quotes its numbers. */
    static final String SMOKE_BANNER = "Smoke test (./medjava bench --quick): one small image, a few unwarmed "
            + "iterations. It proves that every column runs; its times are not measurements and no target is judged. "
            + "Measure with ./medjava bench --standard (about 45 minutes) or the full run.";
    /**
     * How the line naming the report's files begins: its links are to files beside {@code summary.md}, and a
     * publication ({@link ReportPublisher}) rewrites the line to name the files it publishes.
     */
    static final String FILES_LINE = "Charts, CSV and the raw JMH JSON: ";

    private Summary() {
    }

    static String markdown(ReportData data, List<Table> tables) {
        return markdown(data, tables, List.of());
    }

    /** With the experiments' own sections after the summary tables. */
    static String markdown(ReportData data, List<Table> tables, List<Section> sections) {
        StringBuilder md = new StringBuilder("# MedJava benchmark report\n\n");
        if (data.isSmokeTest()) {
            md.append("> **").append(SMOKE_BANNER).append("**\n\n");
        }
        md.append("Environment:\n\n```\n");
        environment(data).forEach((k, v) -> md.append(String.format("%-14s %s%n", k + ":", v)));
        md.append("```\n\n");
        problems(data).forEach(p -> md.append("- **problem:** ").append(p).append('\n'));
        if (!data.problems().isEmpty()) {
            md.append('\n');
        }
        tables.forEach(t -> md.append(t.markdown()));
        sections.forEach(s -> md.append(s.markdown()));
        md.append(FILES_LINE).append("[index.html](index.html), [results.csv](results.csv), ")
                .append("[jmh-results.json](jmh-results.json), `charts/`.\n");
        return md.toString();
    }

    static String html(ReportData data, List<Table> tables, List<String> charts) {
        return html(data, tables, charts, List.of());
    }

    /** With the experiments' own sections (tables, charts, verdict) after the summary's charts. */
    static String html(ReportData data, List<Table> tables, List<String> charts, List<Section> sections) {
        // polyglot markup: valid HTML that also parses as XML (the quick-run test reads it with an XML parser)
        StringBuilder h = new StringBuilder("<!DOCTYPE html>\n")
                .append("<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n")
                .append("<title>MedJava benchmark report</title>\n<style>\n")
                .append("body{font-family:sans-serif;margin:2em;max-width:1400px}")
                .append("table{border-collapse:collapse;margin:.5em 0 1em}")
                .append("th,td{border:1px solid #ccc;padding:3px 8px;text-align:right;font-size:13px}")
                .append("th{background:#f4f4f4}tr th:first-child{text-align:left}")
                .append("td.met{background:#e8f5e9}td.miss{background:#fdecea}")
                .append(".note{font-size:13px;color:#444;max-width:1100px}")
                .append("pre{background:#f8f8f8;padding:.8em}img{max-width:100%;border:1px solid #eee}")
                .append(".smoke{background:#fff3cd;border:1px solid #e0c060;padding:.6em 1em;font-weight:bold}")
                .append("\n</style>\n</head>\n<body>\n<h1>MedJava benchmark report</h1>\n");
        if (data.isSmokeTest()) {
            h.append("<p class=\"smoke\" id=\"smoke-test\">").append(Html.escape(SMOKE_BANNER)).append("</p>\n");
        }
        h.append("<h2>Environment</h2>\n<pre>");
        environment(data).forEach((k, v) -> h.append(Html.escape(String.format("%-14s %s%n", k + ":", v))));
        h.append("</pre>\n");
        if (!data.problems().isEmpty()) {
            h.append("<h2>Problems</h2>\n<ul>\n");
            problems(data).forEach(p -> h.append("<li>").append(Html.escape(p)).append("</li>\n"));
            h.append("</ul>\n");
        }
        h.append("<h2>Summary</h2>\n");
        tables.forEach(t -> h.append(t.html()));
        h.append("<h2>Charts</h2>\n");
        for (String chart : charts) {
            h.append("<p><a href=\"charts/").append(chart).append(".svg\"><img src=\"charts/").append(chart)
                    .append(".svg\" alt=\"").append(chart).append("\"/></a><br/><a href=\"charts/").append(chart)
                    .append(".png\">PNG</a></p>\n");
        }
        sections.forEach(s -> h.append(s.html()));
        h.append("<h2>Data</h2>\n<ul><li><a href=\"results.csv\">results.csv</a> (every JMH result)</li>")
                .append("<li><a href=\"jmh-results.json\">jmh-results.json</a> (JMH's own JSON, all runs merged)</li>")
                .append("<li><a href=\"summary.md\">summary.md</a></li>")
                .append("<li><a href=\"raw/\">raw/</a> (per-group JMH JSON and log, pure-C, transport and store CSV)")
                .append("</li></ul>\n</body>\n</html>\n");
        return h.toString();
    }

    private static Map<String, String> environment(ReportData data) {
        Map<String, String> shown = new java.util.LinkedHashMap<>();
        ReportGenerator.ENVIRONMENT_LABELS.forEach((key, label) -> {
            String v = data.environment().get(key);
            if (v != null) {
                shown.put(label, v);
            }
        });
        return shown;
    }

    private static List<String> problems(ReportData data) {
        return data.problems();
    }
}
