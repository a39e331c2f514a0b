package org.medjava.testdata;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.medjava.filter.Filter;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.Region;
import org.medjava.filter.testkit.Gray16GoldenCase;
import org.medjava.filter.testkit.GrayRasters;
import org.medjava.filter.testkit.PgmFiles;

/**
 * Randomized grey cross-check (docs/xv-filters-16bit.md): random formats (1..16 bits, signed or not) × images ×
 * regions × parameters through all three Java implementations and the three C implementations, at tolerance 0.
 * Reproducible: {@code -Dcrosscheck.seed=N -Dcrosscheck.gray.count=N}.
 */
class JavaCCrossCheckGray16Test {
    static final long SEED = Long.getLong("crosscheck.seed", 20261121L) ^ 0x16;
    static final int COUNT = Integer.getInteger("crosscheck.gray.count", 1200);

    @Test
    void javaAndCAgreeOnRandomGreyCases() throws Exception {
        Path dir = Path.of("target/crosscheck-gray16").toAbsolutePath();
        Files.createDirectories(dir.resolve("inputs"));
        Files.createDirectories(dir.resolve("expected"));
        Map<String, Filter> filters = Ports.javaFilters();
        List<String> ids = new ArrayList<>(filters.keySet());
        SplittableRandom random = new SplittableRandom(SEED);
        List<Gray16GoldenCase> cases = new ArrayList<>();
        for (int n = 0; n < COUNT; n++) {
            Filter filter = filters.get(ids.get(n % ids.size()));
            boolean large = random.nextInt(20) == 0;
            int w = 1 + random.nextInt(large ? 300 : 60);
            int h = 1 + random.nextInt(large ? 200 : 40);
            int[] format = GrayRasters.randomFormat(random);
            GrayRaster16 in = GrayRasters.random(random, w, h, format[0], format[1] == 1);
            Region region = JavaCCrossCheckTest.randomRegion(random, w, h);
            Map<String, String> params = JavaCCrossCheckTest.randomParams(random, filter);
            String id = String.format("g%04d-%s", n, filter.descriptor().id());

            GrayRaster16 expected = Filter.run(filter, in, region, filter.descriptor().params(params),
                    Implementation.STRAIGHTFORWARD);
            for (Implementation impl : List.of(Implementation.OPTIMIZED, Implementation.PARALLEL)) {
                GrayRaster16 other = Filter.run(filter, in, region, filter.descriptor().params(params), impl);
                assertThat(GrayRasters.describe(expected, other, dir, id + "-" + impl.id()))
                        .as("seed %d case %s %s %s region %s", SEED, id, in, params, region).isNull();
            }
            PgmFiles.write(in, dir.resolve("inputs/" + id + ".pgm"));
            PgmFiles.write(expected, dir.resolve("expected/" + id + ".pgm"));
            cases.add(new Gray16GoldenCase(id, filter.descriptor().id(), params, region, "inputs/" + id + ".pgm",
                    "expected/" + id + ".pgm", in.bitsStored(), in.signed()));
        }
        Gray16GoldenCase.write(dir.resolve("cases.csv"), cases, "random grey cross-check, seed " + SEED);

        Ports.CResult c = Ports.runCGolden(dir.resolve("cases.csv"), dir, dir.resolve("c-diffs"));

        String failures = c.output().lines().filter(l -> l.contains("FAIL")).limit(20).reduce("", (a, b) -> a + b + "\n");
        assertThat(c.failed()).as("seed %d: C disagrees with Java:%n%s", SEED, failures).isZero();
        assertThat(c.passed()).as(c.output()).isEqualTo(3 * COUNT);
        assertThat(c.exitCode()).isZero();
    }
}
