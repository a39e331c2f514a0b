package org.medjava.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.medjava.cli.command.CliException;
import org.medjava.cli.command.Context;
import org.medjava.filter.ParamSpec;
import org.medjava.filter.runtime.FilterInfo;
import org.medjava.filter.runtime.FilterRegistry;
import org.medjava.filter.runtime.PluginDirectory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code medjava filters}: the filters the plugins provide, their parameters and defaults. */
@Command(name = "filters", description = "List the filters, their parameters and defaults.")
final class FiltersCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--plugins", paramLabel = "DIR", description = "plugin JARs to load (default: the bundled ones)")
    String plugins;

    @Override
    public Integer call() throws IOException {
        Context ctx = Context.of(spec);
        try (FilterRegistry registry = registry(ctx, plugins)) {
            list(registry, ctx.out());
        }
        return 0;
    }

    /**
     * A registry with the plugins of {@code dir} (the caller's), else of -Dmedjava.plugins, else the bundled ones
     * (medjava/plugins beside this JAR, where the build copies them); what failed to load is a warning.
     */
    static FilterRegistry registry(Context ctx, String dir) throws IOException {
        String property = System.getProperty("medjava.plugins");
        Path path = dir != null ? ctx.path(dir)
                : property != null ? Path.of(property) : Context.codeLocation().resolve("medjava/plugins");
        if (!Files.isDirectory(path)) {
            throw new CliException("plugin directory " + path + " does not exist: give one with --plugins DIR, "
                    + "or build the command line (./medjava build)");
        }
        FilterRegistry registry = new FilterRegistry();
        try {
            for (String problem : PluginDirectory.loadAll(registry, path)) {
                ctx.err().println("warning: " + problem);
            }
        } catch (IOException | RuntimeException e) {
            registry.close();
            throw e;
        }
        return registry;
    }

    private static void list(FilterRegistry registry, PrintStream out) {
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
