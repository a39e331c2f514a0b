package org.medjava.store.server.config;

import java.nio.file.Path;
import java.util.Optional;
import org.medjava.filter.runtime.PluginTrust;
import org.medjava.filter.runtime.isolation.WorkerOptions;

/**
 * Whose filter plugins the store runs and where their code runs: the trusted publishers' certificates, what happens
 * to other JARs, and the filter workers that confine plugin code.
 *
 * @param workers the filter workers' options; empty when plugins run inside the store ({@code in-process})
 */
public record PluginSettings(PluginTrust.Policy signatures, Path trustedPublishers, Optional<WorkerOptions> workers) {

    /**
     * What the store does with a plugin JAR that is not signed by a trusted publisher (unsigned, changed after
     * signing, partly signed, signed by an untrusted key, a certificate expired or not yet valid): {@code require}
     * refuses it (an install answers 422 saying why; nothing is kept), {@code quarantine} refuses it too but keeps
     * the upload in {@code <data-dir>/plugins/quarantine/} for an administrator to inspect, {@code off} loads any
     * plugin (as before signed plugins). The check runs before any code of the plugin does.
     */
    static final Key SIGNATURES = Key.of("medjava.plugins.signatures", "require");

    /**
     * The trusted plugin publishers: a directory of PEM or DER certificates ({@code *.pem}, {@code *.crt},
     * {@code *.cer}), each a publisher's own certificate or the authority that issued it; read at start (restart
     * after changing it). Unset: {@code <data-dir>/trusted-publishers}, which the first start fills with the
     * certificate of the publisher of the built-in plugins (beside the seed plugins, {@code trusted-publishers/}).
     */
    static final Key TRUSTED_PUBLISHERS = Key.of("medjava.plugins.trusted-publishers");

    /**
     * Where plugin code runs: {@code workers} (the default) runs every plugin, from its loading on, in filter worker
     * processes confined by what the operating system offers (bubblewrap namespaces: no network, no files but its
     * code and its shared memory; user 65534; control-group caps on memory and threads), rasters passed through
     * shared memory; {@code in-process} runs plugins inside the store with the store's rights, as before issue 31 —
     * only for plugins the administrator fully trusts. {@code /health/ready} and the log say which protections are
     * active.
     */
    static final Key ISOLATION = Key.of("medjava.plugins.isolation", "workers");

    /** Filter worker processes; 0: as many as filter calls may run at once ({@code medjava.filters.max-concurrent}). */
    static final Key WORKERS = Key.of("medjava.plugins.workers", "0");

    /** Each filter worker's Java heap in MiB; its memory cap is this plus 192 MiB for the JVM itself. */
    static final Key WORKER_HEAP_MIB = Key.of("medjava.plugins.worker-heap-mib", "512");

    /** Threads (tasks) each filter worker may have, where control groups are available; the JVM needs about 20. */
    static final Key WORKER_TASKS = Key.of("medjava.plugins.worker-tasks", "128");

    /**
     * {@code true}: refuse to load plugins when the operating system offers no confinement beyond a separate process
     * (bubblewrap missing or user namespaces off); {@code false}: load them in plain worker processes and say so.
     */
    static final Key REQUIRE_CONFINEMENT = Key.of("medjava.plugins.require-confinement", "false");

    public static PluginSettings from(SettingsSource source, Path dataDir, int filterCalls) {
        String isolation = source.string(ISOLATION);
        Optional<WorkerOptions> workers;
        switch (isolation) {
            case "workers" -> {
                int n = source.integer(WORKERS);
                try {
                    workers = Optional.of(WorkerOptions.defaults().withWorkers(n > 0 ? n : Math.max(1, filterCalls))
                            .withHeapMiB(source.integer(WORKER_HEAP_MIB)).withMaxTasks(source.integer(WORKER_TASKS))
                            .withRequireSandbox(source.bool(REQUIRE_CONFINEMENT)));
                } catch (IllegalArgumentException e) {
                    throw new SettingException(WORKERS, String.valueOf(n), e.getMessage());
                }
            }
            case "in-process" -> workers = Optional.empty();
            default -> throw new SettingException(ISOLATION, isolation, "write workers or in-process");
        }
        String policy = source.string(SIGNATURES);
        PluginTrust.Policy signatures;
        try {
            signatures = PluginTrust.Policy.parse(policy);
        } catch (IllegalArgumentException e) {
            throw new SettingException(SIGNATURES, policy, "write require, quarantine or off");
        }
        return new PluginSettings(signatures, DataSettings.path(source, TRUSTED_PUBLISHERS)
                .orElse(dataDir.resolve("trusted-publishers")).toAbsolutePath().normalize(), workers);
    }
}
