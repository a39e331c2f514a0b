package org.medjava.testdata;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.medjava.codec.ImageCodec;
import org.medjava.filter.Filter;
import org.medjava.filter.Implementation;
import org.medjava.filter.ParamSpec;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;
import org.medjava.filter.testkit.GoldenCase;
import org.medjava.filter.testkit.ImageGenerators;
import org.medjava.filter.testkit.RasterDiff;

/**
 * Randomized cross-check: many random images x regions x parameters through all three Java implementations and
 * the three C implementations (portable, optimized, vectorized), at tolerance 0. Reproducible: {@code -Dcrosscheck.seed=N -Dcrosscheck.count=N}.
 */
class JavaCCrossCheckTest {
    static final long SEED = Long.getLong("crosscheck.seed", 20261121L);
    static final int COUNT = Integer.getInteger("crosscheck.count", 2000);

    @Test
    void javaAndCAgreeOnRandomCases() throws Exception {
        Path dir = Path.of("target/crosscheck").toAbsolutePath();
        Files.createDirectories(dir.resolve("inputs"));
        Files.createDirectories(dir.resolve("expected"));
        Map<String, Filter> filters = Ports.javaFilters();
        List<String> ids = new ArrayList<>(filters.keySet());
        SplittableRandom random = new SplittableRandom(SEED);
        List<GoldenCase> cases = new ArrayList<>();
        for (int n = 0; n < COUNT; n++) {
            Filter filter = filters.get(ids.get(n % ids.size()));
            boolean large = random.nextInt(20) == 0;
            int w = 1 + random.nextInt(large ? 300 : 70);
            int h = 1 + random.nextInt(large ? 200 : 50);
            ImageGenerators.Kind kind = ImageGenerators.Kind.values()[random.nextInt(ImageGenerators.Kind.values().length)];
            Raster in = ImageGenerators.generate(kind, w, h, random.nextLong());
            Region region = randomRegion(random, w, h);
            Map<String, String> params = randomParams(random, filter);
            String id = String.format("x%04d-%s", n, filter.descriptor().id());

            Raster expected = Filter.run(filter, in, region, filter.descriptor().params(params),
                    Implementation.STRAIGHTFORWARD);
            for (Implementation impl : List.of(Implementation.OPTIMIZED, Implementation.PARALLEL)) {
                Raster other = Filter.run(filter, in, region, filter.descriptor().params(params), impl);
                assertThat(RasterDiff.describe(expected, other, dir, id + "-" + impl.id()))
                        .as("seed %d case %s %s %s region %s", SEED, id, kind, params, region).isNull();
            }
            ImageCodec.write(in, dir.resolve("inputs/" + id + ".ppm"));
            ImageCodec.write(expected, dir.resolve("expected/" + id + ".ppm"));
            cases.add(new GoldenCase(id, filter.descriptor().id(), params, region, "inputs/" + id + ".ppm",
                    "expected/" + id + ".ppm"));
        }
        GoldenCase.write(dir.resolve("cases.csv"), cases, "random cross-check, seed " + SEED);

        Ports.CResult c = Ports.runCGolden(dir.resolve("cases.csv"), dir, dir.resolve("c-diffs"));

        String failures = c.output().lines().filter(l -> l.contains("FAIL")).limit(20).reduce("", (a, b) -> a + b + "\n");
        assertThat(c.failed()).as("seed %d: C disagrees with Java:%n%s", SEED, failures).isZero();
        assertThat(c.passed()).as(c.output()).isEqualTo(3 * COUNT);
        assertThat(c.exitCode()).isZero();
    }

    static Region randomRegion(SplittableRandom random, int w, int h) {
        switch (random.nextInt(5)) {
            case 0:
                return null;
            case 1: // reaching outside the image
                return Region.of(random.nextInt(-5, w), random.nextInt(-5, h), random.nextInt(0, w + 10),
                        random.nextInt(0, h + 10));
            case 2: // thin
                return Region.of(random.nextInt(w), random.nextInt(h), 1 + random.nextInt(3), 1 + random.nextInt(h));
            default: {
                int x = random.nextInt(w);
                int y = random.nextInt(h);
                return Region.of(x, y, 1 + random.nextInt(w - x), 1 + random.nextInt(h - y));
            }
        }
    }

    /** Any valid value within ranges small enough to keep the run short; booleans stay at their default. */
    static Map<String, String> randomParams(SplittableRandom random, Filter filter) {
        Map<String, String> params = new LinkedHashMap<>();
        for (ParamSpec p : filter.descriptor().params()) {
            if (random.nextInt(4) == 0) {
                continue; // leave at default
            }
            switch (p.type()) {
                case INT: {
                    int max = p.name().equals("n") ? Math.min(p.max(), 11) : p.max();
                    int v = (int) random.nextLong(p.min(), (long) max + 1);
                    if (p.oddOnly() && v % 2 == 0) {
                        v = v == max ? v - 1 : v + 1;
                    }
                    params.put(p.name(), Integer.toString(v));
                    break;
                }
                case EXTENT: {
                    int a = p.min() + random.nextInt(12);
                    int b = p.min() + random.nextInt(12);
                    params.put(p.name(), random.nextBoolean() ? Integer.toString(a) : a + "x" + b);
                    break;
                }
                case CHOICE:
                    params.put(p.name(), p.choices().get(random.nextInt(p.choices().size())));
                    break;
                default:
                    break;
            }
        }
        return params;
    }
}
