package org.medjava.filter.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.ServiceLoader;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.medjava.filter.Filter;
import org.medjava.filter.FilterParams;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;
import org.medjava.filter.spi.FilterProvider;

/**
 * The 8-bit test suite every plugin runs, instead of a copy of each template per plugin: implement this interface
 * (and usually {@link Gray16Suite}) in one test class, return the filter and its expected descriptor. The
 * descriptor follows the {@link DescriptorContract}; the plugin's provider is found by {@link ServiceLoader}; every
 * golden case passes with every implementation, of both depths when the filter has grey kernels; all
 * implementations agree byte for byte on random images, regions and parameters ({@link #randomParams}), and the
 * parallel bands on larger images.
 */
public interface FilterSuite extends FilterSubject {

    /**
     * {@link DescriptorContract#summary} of the filter's descriptor as it must stay: ids, versions, spec sections and
     * parameter rules are stable forever (Java, REST, C and JMH name them).
     */
    String expectedDescriptor();

    @Test
    default void descriptorFollowsTheContract() {
        DescriptorContract.check(filter(), expectedDescriptor());
    }

    /** How many random cases {@link #allImplementationsAgreeOnRandomCases} runs. */
    default int randomCases() {
        return 1000;
    }

    @Test
    default void providerIsFoundByServiceLoader() {
        String id = filter().descriptor().id();
        List<String> ids = StreamSupport.stream(ServiceLoader.load(FilterProvider.class).spliterator(), false)
                .flatMap(p -> p.filters().stream()).map(f -> f.descriptor().id()).toList();
        assertThat(ids).contains(id);
    }

    @TestFactory
    default Stream<DynamicTest> goldenCases() {
        return GoldenTests.forFilter(filter());
    }

    /**
     * STRAIGHTFORWARD == OPTIMIZED == PARALLEL on random images of every kind (noise, flat, posterized, palettes, dim,
     * extremes, smooth), sizes from 1×1, regions that may reach outside the image or be 1 or 2 pixels thin, and
     * random parameters; nothing outside the region changes. At least a fifth of the cases must change the image.
     */
    @Test
    default void allImplementationsAgreeOnRandomCases() {
        Filter filter = filter();
        long seed = 0x5EED_8B17L ^ filter.descriptor().id().hashCode();
        SplittableRandom rnd = new SplittableRandom(seed);
        int cases = randomCases();
        int changed = 0;
        for (int i = 0; i < cases; i++) {
            Map<String, String> raw = randomParams(rnd);
            int max = maxSide(raw);
            int w = rnd.nextBoolean() ? 1 + rnd.nextInt(max) : TestRasters.randomSize(new Random(rnd.nextLong()), max);
            int h = rnd.nextBoolean() ? 1 + rnd.nextInt(Math.min(max, 50))
                    : TestRasters.randomSize(new Random(rnd.nextLong()), Math.min(max, 50));
            Raster src = randomImage(rnd, w, h);
            Region region = rnd.nextBoolean() ? TestRasters.randomRegion(rnd, w, h)
                    : TestRasters.randomRegion(new Random(rnd.nextLong()), w, h);
            FilterParams params = filter.descriptor().params(raw);
            String what = "seed " + seed + " case " + i + ": " + w + "x" + h + " region " + region + " " + params;
            if (ImplementationEquivalence.check(filter, src, region, params, what)) {
                changed++;
            }
        }
        // the cases must exercise the filter, not mostly compare unchanged copies (Sharpen leaves regions thinner
        // than 3 and p=0 alone, so a fifth is the bar)
        assertThat(changed).as("cases that changed the image").isGreaterThan(cases / 5);
    }

    /**
     * Bigger images, so that parallel bands really split: PARALLEL against OPTIMIZED (a sequential filter's PARALLEL
     * is its OPTIMIZED port, so there against STRAIGHTFORWARD).
     */
    @Test
    default void parallelBandsAgreeOnLargerImages() {
        Filter filter = filter();
        long seed = 0xBA2D_8B17L ^ filter.descriptor().id().hashCode();
        SplittableRandom rnd = new SplittableRandom(seed);
        Implementation reference = filter.descriptor().parallelizable() ? Implementation.OPTIMIZED
                : Implementation.STRAIGHTFORWARD;
        for (int i = 0; i < 10; i++) {
            int w = 100 + rnd.nextInt(300);
            int h = 100 + rnd.nextInt(300);
            Raster src = randomImage(rnd, w, h);
            Region region = rnd.nextBoolean() ? null : TestRasters.randomRegion(rnd, w, h);
            FilterParams params = filter.descriptor().params(randomParams(rnd));
            String what = "seed " + seed + " case " + i + ": " + w + "x" + h + " region " + region + " " + params;
            Raster expected = Filter.run(filter, src, region, params, reference);
            Raster actual = Filter.run(filter, src, region, params, Implementation.PARALLEL);
            assertThat(TestRasters.firstDifference(expected, actual)).as(what).isNull();
        }
    }

    /** One of the kinds of both {@link TestRasters#random} generators. */
    private static Raster randomImage(SplittableRandom rnd, int w, int h) {
        return rnd.nextBoolean() ? TestRasters.random(rnd, w, h) : TestRasters.random(new Random(rnd.nextLong()), w, h);
    }
}
