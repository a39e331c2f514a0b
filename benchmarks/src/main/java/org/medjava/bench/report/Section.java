package org.medjava.bench.report;

import java.util.List;

/**
 * One experiment's part of the report (issue 20's ØMQ and JNI-vs-FFM sections): a heading, paragraphs (the method,
 * the papers' figures, the verdict), tables and charts ({@code charts/NAME.svg|png}, written by whoever builds the
 * section). Rendered the same into the Markdown summary and the HTML page.
 */
record Section(String id, String title, List<String> paragraphs, List<Table> tables, List<String> charts) {

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
