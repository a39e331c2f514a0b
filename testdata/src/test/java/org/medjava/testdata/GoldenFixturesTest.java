package org.medjava.testdata;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.medjava.codec.ImageCodec;
import org.medjava.filter.Filter;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Raster;
import org.medjava.filter.testkit.GoldenCase;
import org.medjava.filter.testkit.Gray16GoldenCase;
import org.medjava.filter.testkit.PgmFiles;
import org.medjava.filter.testkit.TestData;

/** The golden fixtures are complete, well formed, and unchanged since they were last regenerated on purpose. */
class GoldenFixturesTest {
    final Path dir = TestData.goldenDir();

    @Test
    void fixturesAreExactlyWhatTheLastRegenerationWrote() throws Exception {
        String recorded = Files.readString(dir.resolve("SHA256SUMS"));
        assertThat(RegenerateGolden.checksums(dir))
                .as("testdata/ changed by hand; regenerate on purpose with ./medjava golden regenerate")
                .isEqualTo(recorded);
    }

    @Test
    void everyCaseIsWellFormedAndEveryFilterIsCovered() throws Exception {
        List<GoldenCase> cases = GoldenCase.load(dir.resolve("cases.csv"));
        Map<String, Filter> filters = Ports.javaFilters();
        Set<String> ids = new HashSet<>();
        Set<String> sizes = new HashSet<>();
        for (GoldenCase c : cases) {
            assertThat(ids.add(c.id())).as("unique id %s", c.id()).isTrue();
            assertThat(c.id()).matches("[a-z0-9-]+");
            assertThat(filters).containsKey(c.filter());
            filters.get(c.filter()).descriptor().params(c.params()); // valid parameters
            Raster in = ImageCodec.read(dir.resolve(c.input()));
            Raster expected = ImageCodec.read(dir.resolve(c.expected()));
            assertThat(expected.sameSize(in)).as(c.id()).isTrue();
            sizes.add(in.width() + "x" + in.height());
        }
        assertThat(cases.stream().map(GoldenCase::filter).distinct())
                .containsExactlyInAnyOrder("blur", "sharpen", "despeckle", "edge-detect", "emboss", "oil-paint",
                        "pixelize", "spread");
        assertThat(sizes).contains("1x1", "256x256");
        assertThat(cases.stream().filter(c -> c.region() != null)).isNotEmpty();
        assertThat(cases.stream().filter(c -> !c.params().isEmpty())).isNotEmpty();
    }

    @Test
    void everyGreyCaseIsWellFormedAndCoversTheFormatsAndEveryFilter() throws Exception {
        List<Gray16GoldenCase> cases = Gray16GoldenCase.load(dir.resolve(Gray16GoldenCase.FILE));
        Map<String, Filter> filters = Ports.javaFilters();
        Set<String> ids = new HashSet<>();
        GoldenCase.load(dir.resolve("cases.csv")).forEach(c -> ids.add(c.id()));
        Set<String> sizes = new HashSet<>();
        Set<String> formats = new HashSet<>();
        boolean minimum = false;
        boolean maximum = false;
        for (Gray16GoldenCase c : cases) {
            assertThat(ids.add(c.id())).as("id %s unique across cases.csv and %s", c.id(), Gray16GoldenCase.FILE)
                    .isTrue();
            assertThat(c.id()).matches("[a-z0-9-]+");
            assertThat(filters).containsKey(c.filter());
            assertThat(filters.get(c.filter()).supportsGray16()).as(c.filter()).isTrue();
            filters.get(c.filter()).descriptor().params(c.params());
            GrayRaster16 in = PgmFiles.read(dir.resolve(c.input()), c.bitsStored(), c.signed());
            GrayRaster16 expected = PgmFiles.read(dir.resolve(c.expected()), c.bitsStored(), c.signed());
            assertThat(expected.sameFormat(in)).as(c.id()).isTrue();
            sizes.add(in.width() + "x" + in.height());
            formats.add(c.format());
            for (int i = 0; i < in.words().length; i++) {
                minimum |= c.bitsStored() == 16 && in.offsetValue(i) == 0;
                maximum |= c.bitsStored() == 16 && in.offsetValue(i) == in.range();
            }
        }
        assertThat(cases.stream().map(Gray16GoldenCase::filter).distinct())
                .containsExactlyInAnyOrder("blur", "sharpen", "despeckle", "edge-detect", "emboss", "oil-paint",
                        "pixelize", "spread");
        assertThat(formats).contains("u16", "s16", "u12", "s12");
        assertThat(sizes).contains("1x1", "256x256", "2x5", "5x2", "17x13");
        assertThat(minimum && maximum).as("inputs reach both ends of the 16-bit ranges").isTrue();
        assertThat(cases.stream().filter(c -> c.region() != null)).isNotEmpty();
        assertThat(cases.stream().filter(c -> !c.params().isEmpty())).isNotEmpty();
    }
}
