package org.medjava.viewer.filters;

import java.util.List;
import org.medjava.filter.runtime.PluginTrust;
import org.medjava.filter.runtime.isolation.IsolationReport;

/**
 * How the viewer's filter plugins run, in a reader's words, for the Filters menu, its details dialog, the status
 * bar and the log: in confined worker processes (the default on Linux), in worker processes this machine cannot
 * confine (no namespaces: a plain process each, which still contains exits, memory, threads and runaways), or
 * inside the viewer with only the signature checks.
 *
 * @param report what the registry reports ({@code FilterRegistry.isolation()})
 * @param note   why plugins run inside the viewer (option, platform, workers that could not be prepared), or null
 * @param trust  whose plugins the viewer loads
 */
public record FilterIsolation(IsolationReport report, String note, PluginTrust trust) {

    /** Whether plugin code runs outside the viewer's process. */
    public boolean inWorkers() {
        return "workers".equals(report.mode());
    }

    /** Whether nothing is missing: worker processes with every protection the filter runtime knows. */
    public boolean confined() {
        return inWorkers() && report.missing().isEmpty();
    }

    /** One line: where plugins run and how well they are confined. */
    public String headline() {
        if (!inWorkers()) {
            return "Plugins run inside the viewer: signature checks only";
        }
        String processes = report.workers() == 1 ? "1 worker process" : report.workers() + " worker processes";
        return confined() ? "Plugins run in " + processes + ", sandboxed"
                : "Plugins run in " + processes + ", not fully sandboxed here";
    }

    /** The headline and the reasons, protections and gaps, one item a line (dialog and log). */
    public String details() {
        StringBuilder text = new StringBuilder(headline()).append('.');
        if (note != null) {
            text.append("\n").append(note).append('.');
        }
        list(text, "Protections", report.protections());
        list(text, "Missing on this machine", report.missing());
        text.append("\n\nPlugin signatures: ").append(trust.checks() ? trust.toString()
                : "off (any plugin JAR is loaded)").append('.');
        if (inWorkers()) {
            text.append("\nWorkers started: ").append(report.started()).append(", replaced after a fault: ")
                    .append(report.replaced()).append('.');
        }
        return text.toString();
    }

    private static void list(StringBuilder text, String title, List<String> items) {
        if (items.isEmpty()) {
            return;
        }
        text.append("\n\n").append(title).append(':');
        items.forEach(item -> text.append("\n• ").append(item));
    }
}
