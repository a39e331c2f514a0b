package org.medjava.bench.codec;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.medjava.bench.CodecBenchmark;
import org.medjava.bench.setup.ImageSize;
import org.medjava.bench.setup.Timing;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Issue 34's codec cell: {@link CodecBenchmark#encodeAndDecode} for each codec on the {@link #SIZE} CT frame, JMH's
 * results in {@code raw/codec-jmh.json} (its output in {@code raw/codec-jmh.log}), and each codec's compressed size,
 * checked lossless, in {@code raw/codec-sizes.csv}.
 */
public final class CodecStep {
    public static final String JSON = "codec-jmh.json";
    public static final String SIZES = "codec-sizes.csv";
    /** The frame of issue 34's target: a 512² 16-bit CT slice. */
    public static final String SIZE = "512";

    private final Path rawDir;
    private final PrintStream console;

    public CodecStep(Path rawDir, PrintStream console) {
        this.rawDir = rawDir;
        this.console = console;
    }

    /** @return the number of codecs whose benchmark failed */
    public int run(Timing timing) throws IOException, RunnerException {
        ImageSize size = ImageSize.parse(SIZE);
        byte[] samples = CodecBenchmark.ctFrame(size);
        List<String> lines = new ArrayList<>(List.of("codec,bytes,uncompressed_bytes,lossless"));
        for (CodecBenchmark.Codec c : CodecBenchmark.Codec.values()) {
            byte[] coded;
            try {
                coded = c.encode(samples, size.width(), size.height());
                boolean exact = java.util.Arrays.equals(c.decode(coded, size.width(), size.height()), samples);
                lines.add(String.format(Locale.ROOT, "%s,%d,%d,%b", c.id(), coded.length, samples.length, exact));
            } catch (org.medjava.codec.ImageDecodeException e) {
                console.println("codec: " + c.id() + " failed: " + e.getMessage());
            }
        }
        Files.write(rawDir.resolve(SIZES), lines);
        console.println("codecs: encode + decode of a " + SIZE + "² 16-bit CT frame...");
        try (PrintStream log = new PrintStream(new FileOutputStream(rawDir.resolve("codec-jmh.log").toFile(), true),
                true, StandardCharsets.UTF_8)) {
            int got = new Runner(new OptionsBuilder()
                    .include(CodecBenchmark.class.getName().replace(".", "\\.") + "\\.encodeAndDecode$")
                    .param("size", SIZE)
                    .forks(timing.forks())
                    .warmupIterations(timing.warmupIterations())
                    .warmupTime(TimeValue.milliseconds(Math.round(timing.warmupSeconds() * 1000)))
                    .measurementIterations(timing.iterations())
                    .measurementTime(TimeValue.milliseconds(Math.round(timing.seconds() * 1000)))
                    .shouldFailOnError(false)
                    .result(rawDir.resolve(JSON).toString())
                    .resultFormat(ResultFormatType.JSON)
                    .build(), OutputFormatFactory.createFormatInstance(log, VerboseMode.NORMAL)).run().size();
            int expected = CodecBenchmark.Codec.values().length;
            if (got < expected) {
                console.printf(Locale.ROOT, "  %d of %d codec benchmarks failed; see raw/codec-jmh.log%n",
                        expected - got, expected);
            }
            return expected - got;
        }
    }
}
