package org.medjava.viewer;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.medjava.filter.runtime.isolation.WorkerOptions;

/**
 * How the viewer starts: an optional store to connect to (with a login: the password only from the environment,
 * never the command line), benchmark mode's CSV file, the bundled plugin directory, how often to check the store's
 * filter manifest, how plugins run (filter workers, or null: in the viewer's own process) and files to open.
 */
public record ViewerOptions(String server, String user, char[] password, Path benchmarkCsv, Path pluginsDir,
                            Duration manifestInterval, WorkerOptions filterWorkers, List<Path> files) {

    public static final Path DEFAULT_CSV = Path.of("data", "viewer-benchmark.csv");

    public ViewerOptions {
        files = List.copyOf(files);
    }

    public boolean benchmark() {
        return benchmarkCsv != null;
    }

    public static final String USAGE = """
            usage: medjava viewer [--server URL] [--user NAME] [--benchmark[=FILE.csv]] [FILE ...]
              --server URL        connect to this image store at start (asks for the password unless
                                  MEDJAVA_PASSWORD is set)
              --user NAME         the login name (default: the last one used with that server)
              --benchmark[=FILE]  benchmark mode: every filter application is appended to FILE
                                  (default data/viewer-benchmark.csv) as well as shown in the status bar
              FILE                images to open (DICOM, GIF, PNG, JPEG, PPM)
            system properties: medjava.plugins (bundled plugin directory), medjava.viewer.manifest-seconds (5),
              medjava.viewer.trusted-publishers (plugin publishers' certificates; default: the bundled plugins'
              trusted-publishers/), medjava.viewer.plugin-signatures (require, quarantine or off; require),
              medjava.viewer.filters (workers: plugins run in confined worker processes, the default on Linux;
              in-process: inside the viewer, signature checks only), medjava.viewer.filter-workers (2),
              medjava.viewer.filter-worker-heap-mb (512)""";

    /** Filter plugins run in worker processes unless asked otherwise; only Linux offers them (and their sandbox). */
    static final String DEFAULT_FILTERS = System.getProperty("os.name", "").toLowerCase(Locale.ROOT)
            .startsWith("linux") ? "workers" : "in-process";

    /** Parses the command line; the password comes from {@code MEDJAVA_PASSWORD} when set. */
    public static ViewerOptions parse(String[] args, String passwordFromEnvironment) {
        String server = null;
        String user = null;
        Path csv = null;
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--server") || a.equals("--user")) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(a + " needs a value\n" + USAGE);
                }
                if (a.equals("--server")) {
                    server = args[++i];
                } else {
                    user = args[++i];
                }
            } else if (a.startsWith("--server=")) {
                server = a.substring("--server=".length());
            } else if (a.startsWith("--user=")) {
                user = a.substring("--user=".length());
            } else if (a.equals("--benchmark")) {
                csv = DEFAULT_CSV;
            } else if (a.startsWith("--benchmark=")) {
                csv = Path.of(a.substring("--benchmark=".length()));
            } else if (a.equals("--help") || a.equals("-h")) {
                throw new IllegalArgumentException(USAGE);
            } else if (a.startsWith("-")) {
                throw new IllegalArgumentException("unknown option " + a + "\n" + USAGE);
            } else {
                files.add(Path.of(a));
            }
        }
        String plugins = System.getProperty("medjava.plugins");
        long seconds = Long.getLong("medjava.viewer.manifest-seconds", 5);
        Duration interval = seconds > 0 ? Duration.ofSeconds(seconds)
                : Duration.ofMillis(Long.getLong("medjava.viewer.manifest-millis", 500));
        char[] password = passwordFromEnvironment == null || passwordFromEnvironment.isEmpty() ? null
                : passwordFromEnvironment.toCharArray();
        return new ViewerOptions(server, user, password, csv, plugins == null ? null : Path.of(plugins), interval,
                filterWorkersFromProperties(), files);
    }

    /**
     * How plugins run, from {@code medjava.viewer.filters} ({@code workers} or {@code in-process}),
     * {@code medjava.viewer.filter-workers} and {@code medjava.viewer.filter-worker-heap-mb}: a workstation's pool,
     * two workers of 512 MiB, or null for in-process.
     */
    public static WorkerOptions filterWorkersFromProperties() {
        String mode = System.getProperty("medjava.viewer.filters", DEFAULT_FILTERS).trim().toLowerCase(Locale.ROOT);
        if (mode.equals("in-process")) {
            return null;
        }
        if (!mode.equals("workers")) {
            throw new IllegalArgumentException("medjava.viewer.filters=" + mode + ": write workers or in-process\n"
                    + USAGE);
        }
        int workers = Integer.getInteger("medjava.viewer.filter-workers", 2);
        int heapMb = Integer.getInteger("medjava.viewer.filter-worker-heap-mb", 512);
        try {
            return WorkerOptions.defaults().withWorkers(workers).withHeapMiB(heapMb);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + "\n" + USAGE, e);
        }
    }
}
