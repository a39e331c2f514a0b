package org.medjava.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.medjava.cli.command.Context;
import org.medjava.codec.ImageCodec;
import org.medjava.codec.ImageFormat;
import org.medjava.codec.dicom.DerivationCode;
import org.medjava.codec.dicom.DerivedDicom;
import org.medjava.codec.dicom.Uids;
import org.medjava.codec.dicom.DicomCodec;
import org.medjava.codec.dicom.DicomImage;
import org.medjava.codec.dicom.Window;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.UnsupportedDataException;
import org.medjava.filter.runtime.FilterInfo;
import org.medjava.filter.runtime.PluginInfo;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;
import org.medjava.filter.runtime.ApplyRecord;
import org.medjava.filter.runtime.FilterRegistry;
import org.medjava.filter.runtime.RegistryEvent;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code medjava filter <id> [name=value ...] [+ <id> [name=value ...]] ... <in> <out>}: a chain of filters over one
 * image file, each step timed (benchmark mode). Everything is validated before the input is read; the output is
 * written atomically, so a failure leaves no partial file. Paths are the caller's (relative to their directory).
 */
@Command(name = "filter", description = "Filter one image file through a chain of filters (each step timed).",
        customSynopsis = "medjava filter <id> [name=value ...] [+ <id> [name=value ...]] ... <in> <out> [options]",
        footer = {"", "Formats: PPM, PNG, GIF, JPEG (by content when reading, by extension when writing); grey DICOM",
                "and 16-bit PGM are filtered on their stored values: out.dcm is a derived DICOM at the source's depth,",
                "out.pgm the stored values, other outputs go through the window.",
                "Example: medjava filter blur n=5 + sharpen p=50 radiograph.gif out.png"})
final class FilterCommand implements Callable<Integer> {
    record Step(String filterId, Map<String, String> params) {
    }

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "WORD", description = "filter ids with their name=value parameters, chained with +; "
            + "then the input and the output file")
    List<String> words = new ArrayList<>();

    @Option(names = "--region", paramLabel = "x,y,w,h", description = "filter only this rectangle (clipped to the image)")
    String regionText;

    @Option(names = "--impl", paramLabel = "straightforward|optimized|parallel",
            description = "which port runs (default optimized)")
    String implementationText;

    @Option(names = "--repeat", paramLabel = "N", description = "run each step N times and report the best time too")
    String repeatText;

    @Option(names = "--plugins", paramLabel = "DIR", description = "plugin JARs to load (default: the bundled ones)")
    String plugins;

    @Option(names = "--window", paramLabel = "c,w", description = "window of a grey DICOM written as PNG/PPM/GIF/JPEG "
            + "(and the derived DICOM's own); default the image's own")
    String windowText;

    @Option(names = "--gray", paramLabel = "u16|s12|...",
            description = "format of PGM input (PGM holds offset values; default unsigned)")
    String grayText;

    private final List<Step> steps = new ArrayList<>();
    private String inputName;
    private String outputName;
    private Path input;
    private Path output;
    private Region region;
    private Implementation implementation = Implementation.OPTIMIZED;
    private int repeat = 1;
    private Window window;
    private String grayFormat;

    @Override
    public Integer call() throws IOException {
        Context ctx = Context.of(spec);
        parse(ctx);
        try (FilterRegistry registry = FiltersCommand.registry(ctx, plugins)) {
            return run(registry, ctx.out(), ctx.err());
        }
    }

    /** Checks the options and splits the words into steps, input and output; the files are the caller's. */
    private void parse(Context ctx) {
        try {
            region = regionText == null ? null : Region.parse(regionText);
            implementation = implementationText == null ? Implementation.OPTIMIZED
                    : Implementation.parse(implementationText);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        repeat = repeatText == null ? 1 : positive(repeatText, "--repeat");
        window = windowText == null ? null : window(windowText);
        grayFormat = grayText == null ? null : grayFormat(grayText);
        if (words.size() < 3) {
            throw new UsageException("expected a filter id, an input file and an output file");
        }
        inputName = words.get(words.size() - 2);
        outputName = words.get(words.size() - 1);
        input = ctx.path(inputName);
        output = ctx.path(outputName);
        Step current = null;
        for (String word : words.subList(0, words.size() - 2)) {
            if (word.equals("+")) {
                current = null;
            } else if (current == null) {
                if (word.contains("=")) {
                    throw new UsageException("\"" + word + "\" stands where a filter id is expected");
                }
                current = new Step(word, new LinkedHashMap<>());
                steps.add(current);
            } else {
                int eq = word.indexOf('=');
                if (eq <= 0) {
                    throw new UsageException("\"" + word + "\" is not name=value (separate chained filters with +)");
                }
                current.params().put(word.substring(0, eq), word.substring(eq + 1));
            }
        }
        if (steps.isEmpty()) {
            throw new UsageException("no filter given");
        }
    }

    private static Window window(String text) {
        String[] parts = text.split(",");
        try {
            if (parts.length == 2) {
                return new Window(Double.parseDouble(parts[0].trim()), Double.parseDouble(parts[1].trim()));
            }
        } catch (IllegalArgumentException e) {
            throw new UsageException("--window " + text + ": " + e.getMessage());
        }
        throw new UsageException("--window takes center,width (for example --window 40,400), got " + text);
    }

    /** u16, s12, ...: the format of PGM input (docs/filters.md); PGM holds offset values, not the sign. */
    private static String grayFormat(String text) {
        if (!text.matches("[us]([1-9]|1[0-6])")) {
            throw new UsageException("--gray takes u or s and the bits stored, 1..16 (u16, s12, ...), got " + text);
        }
        return text;
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
        String outName = output.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
        boolean pgmOut = outName.endsWith(".pgm");
        if (!pgmOut && !outName.endsWith(".dcm")) {
            outputFormat(); // a bad output name is reported before the input is read
        }
        if (!Files.isRegularFile(input)) {
            throw new IOException(inputName + ": no such file");
        }
        byte[] head = readHead(input);
        if (DicomCodec.isDicom(head) || head.length >= 2 && head[0] == 'P' && head[1] == '5' || pgmOut) {
            return runGrey(registry, out, err, head, outName, pgmOut);
        }
        if (window != null) {
            throw new UsageException("--window applies to DICOM input only");
        }
        return runRgb(registry, out, err);
    }

    private static byte[] readHead(Path file) throws IOException {
        try (var in = Files.newInputStream(file)) {
            return in.readNBytes(132);
        }
    }

    /**
     * Grey DICOM and PGM: the chain on the stored values (docs/xv-filters-16bit.md). Out: a derived DICOM at the
     * source's depth ({@code .dcm}, as the store's {@code POST /derived} writes it), a PGM of the stored values, or
     * an 8-bit image through the window ({@code --window}, else the image's own, else the range of the values).
     * Colour DICOM with an image output takes the 8-bit path.
     */
    private int runGrey(FilterRegistry registry, PrintStream out, PrintStream err, byte[] head, String outName,
            boolean pgmOut) throws IOException {
        DicomImage dicom = null;
        GrayRaster16 grey;
        if (DicomCodec.isDicom(head)) {
            dicom = DicomCodec.read(input);
            if (!dicom.isGray16()) {
                if (dicom.isRgb8() && !pgmOut) {
                    return runRgb(registry, out, err);
                }
                throw new UnsupportedDataException(steps.get(0).filterId(), dicom.dataDescription(),
                        "8-bit RGB and 1..16-bit signed or unsigned grey only");
            }
            grey = dicom.grayRaster();
        } else if (head.length >= 2 && head[0] == 'P' && head[1] == '5') {
            grey = Pgm.read(input, grayFormat);
        } else {
            throw new UsageException("PGM output holds grey stored values: the input must be grey DICOM or a PGM");
        }
        List<ApplyRecord> records = timing(registry);
        out.printf("%s: %dx%d, %s%n", inputName, grey.width(), grey.height(), grey.describe());
        double total = 0;
        for (Step step : steps) {
            GrayRaster16 result = null;
            records.clear();
            for (int r = 0; r < repeat; r++) {
                result = registry.apply(step.filterId(), grey, region, step.params(), implementation);
            }
            grey = result;
            total += report(out, step, records);
        }
        if (steps.size() > 1) {
            out.printf("%-12s %-28s %-25s %-15s %10.3f ms%n", "chain", steps.size() + " filters", "", "", total);
        }
        if (pgmOut) {
            Pgm.write(grey, output);
        } else if (outName.endsWith(".dcm")) {
            if (dicom == null) {
                throw new UsageException("a derived DICOM needs a DICOM source to refer to; write .pgm, .png or .ppm");
            }
            derived(registry, dicom).write(grey, output);
        } else {
            ImageFormat outFormat = outputFormat();
            Raster image = dicom != null ? dicom.withStoredValues(grey).render(window)
                    : new Raster(grey.width(), grey.height(), Pgm.toRgb(grey));
            write(image, outFormat, err);
        }
        out.println("wrote " + outputName);
        return 0;
    }

    /**
     * The derived object the store's POST /derived writes for this chain. Its series is one per source series, chain
     * and region (a name-based UID), so filtering the images of a series one by one gives one derived series.
     */
    private DerivedDicom.Request derived(FilterRegistry registry, DicomImage source) {
        String chain = steps.stream().map(s -> s.params().isEmpty() ? s.filterId() : s.filterId() + " "
                + s.params()).collect(java.util.stream.Collectors.joining(" + "));
        List<DerivedDicom.Contributor> contributors = new ArrayList<>();
        for (Step step : steps) {
            var plugin = registry.filter(step.filterId()).map(FilterInfo::pluginId).flatMap(registry::plugin);
            contributors.add(new DerivedDicom.Contributor(plugin.map(PluginInfo::id).orElse(step.filterId()),
                    plugin.map(PluginInfo::version).orElse(""), plugin.map(PluginInfo::sha256).orElse(""),
                    step.params().isEmpty() ? step.filterId() : step.filterId() + " " + step.params()));
        }
        String plugins = DerivedDicom.Contributor.summary(contributors);
        return DerivedDicom.from(source)
                .derivationDescription("MedJava CLI: window " + (window == null ? "the image's own" : window.center()
                        + "," + window.width()) + "; filters: " + chain + (region == null ? "" : "; region " + region)
                        + (plugins.isEmpty() ? "" : "; plugins: " + plugins))
                .derivationCodes(DerivationCode.forFilters(steps.stream().map(Step::filterId).toList()))
                .seriesDescription("MedJava: " + chain)
                .seriesInstanceUid(Uids.fromName("medjava-cli-derived|" + source.attributes().seriesInstanceUid()
                        + "|" + chain + "|" + region))
                .window(window)
                .contributors(contributors);
    }

    private ImageFormat outputFormat() {
        ImageFormat format = ImageFormat.fromFileName(output).orElseThrow(() -> new UsageException(
                "cannot tell the output format from \"" + output.getFileName() + "\"; use one of: "
                        + ImageFormat.describeAll() + ", pgm"));
        if (format == ImageFormat.DICOM) {
            throw new UsageException("DICOM output needs a DICOM source");
        }
        return format;
    }

    private void write(Raster image, ImageFormat outFormat, PrintStream err) throws IOException {
        if (!ImageCodec.isLossless(image, outFormat)) {
            err.println("note: " + outFormat + " cannot hold this image exactly"
                    + (outFormat == ImageFormat.GIF ? " (more than 256 colours): it is quantized" : " (lossy)"));
        }
        ImageCodec.write(image, output);
    }

    private static List<ApplyRecord> timing(FilterRegistry registry) {
        List<ApplyRecord> records = new ArrayList<>();
        registry.setTiming(true);
        registry.addListener(e -> {
            if (e instanceof RegistryEvent.FilterApplied applied) {
                records.add(applied.record());
            }
        });
        return records;
    }

    private double report(PrintStream out, Step step, List<ApplyRecord> records) {
        double best = records.stream().mapToDouble(ApplyRecord::millis).min().orElse(0);
        ApplyRecord first = records.get(0);
        out.printf("%-12s %-28s region %-18s %-15s %10.3f ms%s%n", step.filterId(), first.params(),
                first.region(), implementation.id(), records.get(records.size() - 1).millis(),
                repeat > 1 ? String.format(" (best of %d: %.3f ms)", repeat, best) : "");
        return records.get(records.size() - 1).millis();
    }

    private int runRgb(FilterRegistry registry, PrintStream out, PrintStream err) throws IOException {
        ImageFormat outFormat = ImageFormat.fromFileName(output).orElseThrow(() -> new UsageException(
                "cannot tell the output format from \"" + output.getFileName() + "\"; use one of: "
                        + ImageFormat.describeAll()));
        if (!Files.isRegularFile(input)) {
            throw new IOException(inputName + ": no such file");
        }
        Raster image = ImageCodec.read(input);
        List<ApplyRecord> records = new ArrayList<>();
        registry.setTiming(true);
        registry.addListener(e -> {
            if (e instanceof RegistryEvent.FilterApplied applied) {
                records.add(applied.record());
            }
        });
        out.printf("%s: %dx%d%n", inputName, image.width(), image.height());
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
        out.println("wrote " + outputName);
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
