package org.medjava.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.codec.ImageCodec;
import org.medjava.filter.Filter;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;
import org.medjava.filter.spi.FilterProvider;

class MainTest {
    @TempDir
    Path dir;
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();

    int run(String... args) {
        return Main.run(Arrays.asList(args), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    static Path sample(String name) {
        return Path.of(System.getProperty("medjava.root")).resolve("testdata/samples/gif").resolve(name);
    }

    /** The same filter taken straight from its plugin class, to check what the CLI wrote. */
    static Filter direct(String id) {
        for (FilterProvider p : ServiceLoader.load(FilterProvider.class)) {
            for (Filter f : p.filters()) {
                if (f.descriptor().id().equals(id)) {
                    return f;
                }
            }
        }
        throw new AssertionError(id);
    }

    @Test
    void listsTheEightBundledFiltersWithTheirParameters() {
        assertThat(run("filters")).isZero();
        assertThat(out()).contains("8 filters from 8 plugins: blur, despeckle, edge-detect, emboss, oil-paint, "
                + "pixelize, sharpen, spread").contains("n                an odd integer from 1 to 255 (default 3)");
    }

    @Test
    void filtersAGifIntoAPngExactlyAsThePluginDoesAndPrintsATimingLine() throws Exception {
        Path output = dir.resolve("out.png");

        assertThat(run("filter", "blur", "n=5", sample("ct-small.gif").toString(), output.toString(),
                "--region", "10,20,50,40")).isZero();

        Raster in = ImageCodec.read(sample("ct-small.gif"));
        Raster expected = Filter.run(direct("blur"), in, Region.of(10, 20, 50, 40),
                direct("blur").descriptor().params(java.util.Map.of("n", "5")), Implementation.STRAIGHTFORWARD);
        assertThat(ImageCodec.read(output).sameContent(expected)).isTrue();
        assertThat(out()).containsPattern("blur +n=5 +region 10,20,50,40 +optimized +[0-9.]+ ms");
    }

    @Test
    void runsAChainOfFiltersInOrder() throws Exception {
        Path output = dir.resolve("chain.ppm");

        assertThat(run("filter", "sharpen", "p=50", "+", "emboss", "+", "pixelize", "block=3x2",
                sample("radiograph-small.gif").toString(), output.toString(), "--impl", "parallel", "--repeat", "2"))
                .as(err()).isZero();

        Raster image = ImageCodec.read(sample("radiograph-small.gif"));
        for (String[] step : List.of(new String[] {"sharpen", "p", "50"}, new String[] {"emboss"},
                new String[] {"pixelize", "block", "3x2"})) {
            Filter f = direct(step[0]);
            var params = step.length == 1 ? java.util.Map.<String, String>of() : java.util.Map.of(step[1], step[2]);
            image = Filter.run(f, image, null, f.descriptor().params(params), Implementation.OPTIMIZED);
        }
        assertThat(ImageCodec.read(output).sameContent(image)).isTrue();
        assertThat(out()).contains("chain").contains("3 filters").contains("best of 2");
    }

    @Test
    void unknownFilterListsTheAvailableOnesAndWritesNothing() {
        Path output = dir.resolve("x.png");
        assertThat(run("filter", "blurr", sample("ct-small.gif").toString(), output.toString())).isEqualTo(1);
        assertThat(err()).contains("unknown filter \"blurr\"").contains("available: blur, despeckle");
        assertThat(output).doesNotExist();
    }

    @Test
    void invalidParametersQuoteTheRule() {
        Path output = dir.resolve("x.png");
        assertThat(run("filter", "blur", "n=4", sample("ct-small.gif").toString(), output.toString())).isEqualTo(1);
        assertThat(err()).contains("n must be an odd integer from 1 to 255");
        assertThat(run("filter", "sharpen", "p=100", sample("ct-small.gif").toString(), output.toString()))
                .isEqualTo(1);
        assertThat(err()).contains("p must be an integer from 0 to 99");
        assertThat(run("filter", "pixelize", "block=4x", sample("ct-small.gif").toString(), output.toString()))
                .isEqualTo(1);
        assertThat(err()).contains("\"N\" or \"AxB\"");
        assertThat(output).doesNotExist();
    }

    @Test
    void unreadableOrTruncatedInputGivesAClearMessageAndNoOutputFile() throws Exception {
        byte[] gif = Files.readAllBytes(sample("ct-small.gif"));
        Path truncated = dir.resolve("truncated.gif");
        Files.write(truncated, Arrays.copyOf(gif, gif.length / 3));
        Path output = dir.resolve("out.png");

        assertThat(run("filter", "blur", truncated.toString(), output.toString())).isEqualTo(1);
        assertThat(err()).contains("GIF data is damaged or truncated");
        assertThat(run("filter", "blur", dir.resolve("missing.gif").toString(), output.toString())).isEqualTo(1);
        assertThat(err()).contains("no such file");
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("truncated.gif");
        }
    }

    @Test
    void badCommandLinesExplainTheUsage() {
        assertThat(run("filter", "blur", "in.gif")).isEqualTo(2);
        assertThat(err()).contains("expected a filter id, an input file and an output file")
                .contains("see ./medjava filter --help");
        assertThat(run("filter", "blur", "in.gif", "out.xyz")).isEqualTo(2);
        assertThat(err()).contains("cannot tell the output format");
        assertThat(run("filter", "n=3", "in.gif", "out.png")).isEqualTo(2);
        assertThat(run("frobnicate")).isEqualTo(2);
    }

    @Test
    void saysWhenAGifMustBeQuantized() throws Exception {
        Path output = dir.resolve("colour.gif");
        assertThat(run("filter", "blur", sample("color.gif").toString(), output.toString())).isZero();
        assertThat(err()).contains("more than 256 colours");
        assertThat(ImageCodec.read(output).width()).isEqualTo(320);
    }

    @Test
    void theUsageIsPlainText() {
        assertThat(run("filter", "--help")).isZero();
        assertThat(out()).contains("other outputs go through the window.").doesNotContain("\"\"");
    }

    @Test
    void anOutputThatCannotBeWrittenIsNamedWithTheReason() {
        Path output = dir.resolve("missing/out.png");
        assertThat(run("filter", "blur", sample("ct-small.gif").toString(), output.toString())).isEqualTo(1);
        assertThat(err()).isEqualTo("error: cannot write " + output + ": no such directory " + output.getParent()
                + System.lineSeparator());
        assertThat(out()).doesNotContain("wrote");
    }
}
