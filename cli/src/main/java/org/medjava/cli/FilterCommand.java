package org.medjava.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.medjava.codec.ImageCodec;
import org.medjava.codec.ImageFormat;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;
import org.medjava.filter.runtime.ApplyRecord;
import org.medjava.filter.runtime.FilterRegistry;
import org.medjava.filter.runtime.RegistryEvent;

/**
 * {@code medjava filter <id> [name=value ...] [+ <id> [name=value ...]] ... <in> <out>}: a chain of filters over one
 * image file, each step timed (benchmark mode). Everything is validated before the input is read; the output is
 * written atomically, so a failure leaves no partial file.
 */
final class FilterCommand {
    record Step(String filterId, Map<String, String> params) {
    }

    private final List<Step> steps = new ArrayList<>();
    private Path input;
    private Path output;
    private Region region;
    private Implementation implementation = Implementation.OPTIMIZED;
    private int repeat = 1;

    /** Parses everything after "filter"; options may stand anywhere. */
    static FilterCommand parse(List<String> args) {
        FilterCommand command = new FilterCommand();
        List<String> words = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            switch (arg) {
                case "--region" -> command.region = Region.parse(value(args, ++i, arg));
                case "--impl" -> command.implementation = Implementation.parse(value(args, ++i, arg));
                case "--repeat" -> command.repeat = positive(value(args, ++i, arg), arg);
                case "--plugins" -> i++; // handled by Main
                default -> {
                    if (arg.startsWith("--")) {
                        throw new UsageException("unknown option " + arg);
                    }
                    words.add(arg);
                }
            }
        }
        if (words.size() < 3) {
            throw new UsageException("expected a filter id, an input file and an output file");
        }
        command.input = Path.of(words.get(words.size() - 2));
        command.output = Path.of(words.get(words.size() - 1));
        Step current = null;
        for (String word : words.subList(0, words.size() - 2)) {
            if (word.equals("+")) {
                current = null;
            } else if (current == null) {
                if (word.contains("=")) {
                    throw new UsageException("\"" + word + "\" stands where a filter id is expected");
                }
                current = new Step(word, new LinkedHashMap<>());
                command.steps.add(current);
            } else {
                int eq = word.indexOf('=');
                if (eq <= 0) {
                    throw new UsageException("\"" + word + "\" is not name=value (separate chained filters with +)");
                }
                current.params().put(word.substring(0, eq), word.substring(eq + 1));
            }
        }
        if (command.steps.isEmpty()) {
            throw new UsageException("no filter given");
        }
        return command;
    }

    private static String value(List<String> args, int i, String option) {
        if (i >= args.size()) {
            throw new UsageException(option + " needs a value");
        }
        return args.get(i);
    }

    private static int positive(String text, String option) {
        try {
            int n = Integer.parseInt(text);
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new UsageException(option + " must be a positive integer, got " + text);
    }

    int run(FilterRegistry registry, PrintStream out, PrintStream err) throws IOException {
        for (Step step : steps) {
            registry.validate(step.filterId(), step.params());
        }
        ImageFormat outFormat = ImageFormat.fromFileName(output).orElseThrow(() -> new UsageException(
                "cannot tell the output format from \"" + output.getFileName() + "\"; use one of: "
                        + ImageFormat.describeAll()));
        if (!Files.isRegularFile(input)) {
            throw new IOException(input + ": no such file");
        }
        Raster image = ImageCodec.read(input);
        List<ApplyRecord> records = new ArrayList<>();
        registry.setTiming(true);
        registry.addListener(e -> {
            if (e instanceof RegistryEvent.FilterApplied applied) {
                records.add(applied.record());
            }
        });
        out.printf("%s: %dx%d%n", input, image.width(), image.height());
        double total = 0;
        for (Step step : steps) {
            Raster result = null;
            records.clear();
            for (int r = 0; r < repeat; r++) {
                result = registry.apply(step.filterId(), image, region, step.params(), implementation);
            }
            image = result;
            double best = records.stream().mapToDouble(ApplyRecord::millis).min().orElse(0);
            ApplyRecord first = records.get(0);
            total += records.get(records.size() - 1).millis();
            out.printf("%-12s %-28s region %-18s %-15s %10.3f ms%s%n", step.filterId(), first.params(),
                    first.region(), implementation.id(), records.get(records.size() - 1).millis(),
                    repeat > 1 ? String.format(" (best of %d: %.3f ms)", repeat, best) : "");
        }
        if (steps.size() > 1) {
            out.printf("%-12s %-28s %-25s %-15s %10.3f ms%n", "chain", steps.size() + " filters", "", "", total);
        }
        if (!ImageCodec.isLossless(image, outFormat)) {
            err.println("note: " + outFormat + " cannot hold this image exactly"
                    + (outFormat == ImageFormat.GIF ? " (more than 256 colours): it is quantized" : " (lossy)"));
        }
        ImageCodec.write(image, output);
        out.println("wrote " + output);
        return 0;
    }

    /** A command line that does not make sense; the message says what to write instead. */
    static final class UsageException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }
}
