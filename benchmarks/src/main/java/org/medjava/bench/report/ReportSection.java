package org.medjava.bench.report;

import java.util.List;

/**
 * A section of its own in the report (issue 20's experiments): a heading, paragraphs (what was measured, the machine
 * note, the paper's figures, the verdict), tables and charts (names under {@code charts/}).
 */
record ReportSection(String id, String title, List<String> paragraphs, List<Table> tables, List<String> charts) {

    String markdown() {
        StringBuilder md = new StringBuilder("## ").append(title).append("\n\n");
        paragraphs.forEach(p -> md.append(p).append("\n\n"));
        tables.forEach(t -> md.append(t.markdown()));
        charts.forEach(c -> md.append("![").append(c).append("](charts/").append(c).append(".svg)\n\n"));
        return md.toString();
    }

    String html() {
        StringBuilder h = new StringBuilder("<h2 id=\"").append(Html.escape(id)).append("\">")
                .append(Html.escape(title)).append("</h2>\n");
        paragraphs.forEach(p -> h.append("<p class=\"note\">").append(Html.escape(p)).append("</p>\n"));
        tables.forEach(t -> h.append(t.html()));
        for (String chart : charts) {
            h.append("<p><a href=\"charts/").append(chart).append(".svg\"><img src=\"charts/").append(chart)
                    .append(".svg\" alt=\"").append(chart).append("\"/></a><br/><a href=\"charts/").append(chart)
                    .append(".png\">PNG</a></p>\n");
        }
        return h.toString();
    }
}
