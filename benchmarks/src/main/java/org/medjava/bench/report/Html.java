package org.medjava.bench.report;

/** HTML text escaping. */
final class Html {
    private Html() {
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
