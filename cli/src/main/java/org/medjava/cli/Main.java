package org.medjava.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.medjava.filter.ParamSpec;
import org.medjava.filter.runtime.FilterInfo;
import org.medjava.filter.runtime.FilterRegistry;
import org.medjava.filter.runtime.PluginDirectory;
import org.medjava.filter.runtime.RegistryException;

/** The {@code medjava} command line: {@code filter} and {@code filters}. */
public final class Main {
    static final String USAGE = """
            usage:
              medjava filter <id> [name=value ...] [+ <id> [name=value ...]] ... <in> <out> [options]
              medjava filters                      list the filters, their parameters and defaults
            options:
              --region x,y,w,h                     filter only this rectangle (clipped to the image)
              --impl straightforward|optimized|parallel   which port runs (default optimized)
              --repeat N                           run each step N times and report the best time too
              --plugins DIR                        plugin JARs to load (default: the bundled ones)
              --window c,w                         window of a grey DICOM written as PNG/PPM/GIF/JPEG (and the
                                                   derived DICOM's own); default the image's own
              --gray u16|s12|...                   format of PGM input (PGM holds offset values; default unsigned)
            formats: PPM, PNG, GIF, JPEG (by content when reading, by extension when writing); grey DICOM and
              16-bit PGM are filtered on their stored values: out.dcm is a derived DICOM at the source's depth,
              out.pgm the stored values, other outputs go through the window
            example: medjava filter blur n=5 + sharpen p=50 radiograph.gif out.png""";

    private Main() {
    }

    public static void main(String[] args) {
        // the registry logs each load and unload at INFO: right for a server, noise for a command
        java.util.logging.Logger.getLogger("org.medjava").setLevel(
                Boolean.getBoolean("medjava.verbose") ? java.util.logging.Level.INFO : java.util.logging.Level.WARNING);
        System.exit(run(Arrays.asList(args), System.out, System.err));
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.isEmpty() || args.contains("--help") || args.contains("-h")) {
            (args.isEmpty() ? err : out).println(USAGE);
            return args.isEmpty() ? 2 : 0;
        }
        try (FilterRegistry registry = new FilterRegistry()) {
            for (String problem : PluginDirectory.loadAll(registry, pluginDir(args))) {
                err.println("warning: " + problem);
            }
            switch (args.get(0)) {
                case "filter":
                    return FilterCommand.parse(args.subList(1, args.size())).run(registry, out, err);
                case "filters":
                    listFilters(registry, out);
                    return 0;
                default:
                    err.println("unknown command \"" + args.get(0) + "\"\n" + USAGE);
                    return 2;
            }
        } catch (FilterCommand.UsageException e) {
            err.println("error: " + e.getMessage() + "\n" + USAGE);
            return 2;
        } catch (RegistryException | IOException | IllegalArgumentException
                | org.medjava.filter.UnsupportedDataException e) {
            err.println("error: " + e.getMessage());
            return 1;
        }
    }

    private static Path pluginDir(List<String> args) throws IOException {
        int i = args.indexOf("--plugins");
        String dir = i >= 0 && i + 1 < args.size() ? args.get(i + 1) : System.getProperty("medjava.plugins");
        if (dir == null) {
            throw new IOException("no plugin directory: pass --plugins DIR or -Dmedjava.plugins");
        }
        Path path = Path.of(dir);
        if (!Files.isDirectory(path)) {
            throw new IOException("plugin directory " + path + " does not exist");
        }
        return path;
    }

    private static void listFilters(FilterRegistry registry, PrintStream out) {
        for (FilterInfo f : registry.filters()) {
            out.printf("%-12s %-16s plugin %s %s, spec %s%s%n", f.id(), f.descriptor().displayName(), f.pluginId(),
                    f.pluginVersion(), f.descriptor().specSection(),
                    f.state() == FilterInfo.State.ACTIVE ? "" : " [" + f.state() + ": " + f.reason() + "]");
            for (ParamSpec p : f.descriptor().params()) {
                out.printf("    %-16s %s (default %s)%n", p.name(), p.rule(), p.defaultValue());
            }
        }
        out.println(registry.filters().size() + " filters from " + registry.plugins().size() + " plugins: "
                + registry.filters().stream().map(FilterInfo::id).collect(Collectors.joining(", ")));
    }
}
