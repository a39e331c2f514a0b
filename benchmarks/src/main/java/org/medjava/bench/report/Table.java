package org.medjava.bench.report;

import java.util.ArrayList;
import java.util.List;

/** A titled table with notes, rendered the same way into the Markdown summary and the HTML page. */
final class Table {
    private final String title;
    private final List<String> headers;
    private final List<List<String>> rows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    Table(String title, List<String> headers) {
        this.title = title;
        this.headers = List.copyOf(headers);
    }

    Table row(List<String> cells) {
        if (cells.size() != headers.size()) {
            throw new IllegalArgumentException(cells.size() + " cells for " + headers.size() + " columns in " + title);
        }
        rows.add(List.copyOf(cells));
        return this;
    }

    Table note(String note) {
        notes.add(note);
        return this;
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    String title() {
        return title;
    }

    String markdown() {
        StringBuilder md = new StringBuilder("### ").append(title).append("\n\n");
        md.append("| ").append(String.join(" | ", headers)).append(" |\n|");
        for (int i = 0; i < headers.size(); i++) {
            md.append(i == 0 ? "---|" : "---:|");
        }
        md.append('\n');
        for (List<String> row : rows) {
            md.append("| ").append(String.join(" | ", row)).append(" |\n");
        }
        for (String n : notes) {
            md.append('\n').append(n).append('\n');
        }
        return md.append('\n').toString();
    }

    String html() {
        StringBuilder h = new StringBuilder("<h3>").append(Html.escape(title)).append("</h3>\n<table>\n<tr>");
        for (String head : headers) {
            h.append("<th>").append(Html.escape(head)).append("</th>");
        }
        h.append("</tr>\n");
        for (List<String> row : rows) {
            h.append("<tr>");
            for (int i = 0; i < row.size(); i++) {
                String cell = row.get(i);
                String cls = cell.contains("✗") ? " class=\"miss\"" : cell.contains("✓") ? " class=\"met\"" : "";
                h.append(i == 0 ? "<th>" : "<td" + cls + ">").append(Html.escape(cell))
                        .append(i == 0 ? "</th>" : "</td>");
            }
            h.append("</tr>\n");
        }
        h.append("</table>\n");
        for (String n : notes) {
            h.append("<p class=\"note\">").append(Html.escape(n)).append("</p>\n");
        }
        return h.toString();
    }
}
