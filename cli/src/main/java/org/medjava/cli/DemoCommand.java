package org.medjava.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.medjava.cli.command.CliException;
import org.medjava.cli.command.Context;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code medjava demo}: the filter command line over the sample GIFs, every filter and one chain (data/demo). Beside
 * the filter commands, not with the developer's: it runs the whole command line ({@link Main#run}) in-process.
 */
@Command(name = "demo", description = "The filter command line over the sample GIFs (results in data/demo).")
final class DemoCommand implements Callable<Integer> {
    static final List<String> FILTERS = List.of("blur", "sharpen", "despeckle", "edge-detect", "emboss", "oil-paint",
            "pixelize", "spread");

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        Context ctx = Context.of(spec);
        Path samples = ctx.root().resolve("../shared/testdata/gif").normalize();
        if (!Files.isDirectory(samples)) {
            samples = ctx.root().resolve("testdata/sources");
        }
        Path out = ctx.root().resolve("data/demo");
        Files.createDirectories(out);
        ctx.out().println("MedJava filter demo: samples from " + samples + ", results in " + out);
        filter(ctx, List.of("filters"));
        List<Path> images;
        try (var files = Files.list(samples)) {
            images = files.filter(p -> p.toString().endsWith(".gif")).sorted().toList();
        }
        for (Path img : images) {
            String name = img.getFileName().toString().replaceFirst("\\.gif$", "");
            for (String f : FILTERS) {
                filter(ctx, List.of("filter", f, img.toString(), out.resolve(name + "-" + f + ".png").toString(),
                        "--impl", "parallel"));
            }
            filter(ctx, List.of("filter", "blur", "n=5", "+", "sharpen", "p=50", "+", "edge-detect", img.toString(),
                    out.resolve(name + "-chain.png").toString()));
        }
        try (var files = Files.list(out)) {
            ctx.out().println("done: " + files.count() + " images in " + out);
        }
        return 0;
    }

    /** One filter command line, its "wrote" lines left out. */
    private static void filter(Context ctx, List<String> args) {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        PrintStream captured = new PrintStream(buffer, true, StandardCharsets.UTF_8);
        int status = Main.run(args, new Context(ctx.root(), ctx.cwd(), ctx.env(), captured, ctx.err()));
        List<String> lines = new ArrayList<>(buffer.toString(StandardCharsets.UTF_8).lines().toList());
        lines.stream().filter(l -> !l.startsWith("wrote")).forEach(ctx.out()::println);
        if (status != 0) {
            throw new CliException("the demo's filter " + String.join(" ", args) + " failed (above)");
        }
    }
}
