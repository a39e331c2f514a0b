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
import org.medjava.filter.Raster;
import org.medjava.filter.testkit.GoldenCase;
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
}
