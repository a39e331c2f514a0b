package org.medjava.filter.runtime.isolation;

import java.util.List;

/**
 * How a host runs plugin code, for its log, {@code /health} and the filter documentation.
 *
 * @param mode        {@code workers} (out of process) or {@code in-process}
 * @param workers     the pool's size (0 in-process)
 * @param protections what confines plugin code, in words
 * @param missing     what this machine lacks compared with the strongest confinement, in words
 * @param started     worker processes started since the host started
 * @param replaced    workers replaced after a fault since the host started
 */
public record IsolationReport(String mode, int workers, List<String> protections, List<String> missing,
                              int started, int replaced) {
    public IsolationReport {
        protections = List.copyOf(protections);
        missing = List.copyOf(missing);
    }

    /** Plugin code runs in the host's own process: nothing confines it. */
    public static IsolationReport inProcess() {
        return new IsolationReport("in-process", 0, List.of(), List.of("plugin code runs inside the host's process"
                + " with the host's rights"), 0, 0);
    }
}
