package org.medjava.filter.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.medjava.filter.Filter;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;

/**
 * Dynamic tests running every golden case of one filter through every implementation, at tolerance 0: the 8-bit
 * cases of {@code cases.csv} and, when the filter has grey kernels, the grey cases of {@code cases-gray16.csv}. Use
 * from a plugin's {@code @TestFactory} ({@link FilterSuite} does).
 */
public final class GoldenTests {
    private GoldenTests() {
    }

    /** Every golden case of the filter, of each depth it declares; at least one case per depth must exist. */
    public static Stream<DynamicTest> forFilter(Filter filter) {
        String id = filter.descriptor().id();
        Stream<DynamicTest> rgb = tests(id + " has golden cases", casesFor(id), GoldenCase::id,
                (c, impl) -> check(filter, c, impl));
        if (!filter.supportsGray16()) {
            return rgb;
        }
        return Stream.concat(rgb, tests(id + " has grey golden cases", casesForGray16(id), Gray16GoldenCase::id,
                (c, impl) -> checkGray16(filter, c, impl)));
    }

    /** Runs one case with one implementation. */
    @FunctionalInterface
    private interface Check<C> {
        void run(C goldenCase, Implementation implementation) throws IOException;
    }

    private static <C> Stream<DynamicTest> tests(String nonEmpty, List<C> cases, Function<C, String> caseId,
                                                 Check<C> check) {
        List<DynamicTest> tests = new ArrayList<>();
        tests.add(DynamicTest.dynamicTest(nonEmpty, () -> assertThat(cases).isNotEmpty()));
        for (C c : cases) {
            for (Implementation impl : Implementation.values()) {
                tests.add(DynamicTest.dynamicTest(caseId.apply(c) + " [" + impl.id() + "]", () -> check.run(c, impl)));
            }
        }
        return tests.stream();
    }

    public static List<GoldenCase> casesFor(String filterId) {
        try {
            return GoldenCase.load(TestData.goldenDir().resolve("cases.csv")).stream()
                    .filter(c -> c.filter().equals(filterId)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs one case with one implementation and fails with a diff report when the output differs at all. */
    public static void check(Filter filter, GoldenCase c, Implementation impl) throws IOException {
        Path dir = TestData.goldenDir();
        Raster input = PpmFiles.read(dir.resolve(c.input()));
        Raster expected = PpmFiles.read(dir.resolve(c.expected()));
        Raster actual = Filter.run(filter, input, c.region(), filter.descriptor().params(c.params()), impl);
        String difference = RasterDiff.describe(expected, actual, TestData.reportDir(), c.id() + "-" + impl.id());
        assertThat(difference).as("golden case %s (%s)", c.id(), impl.id()).isNull();
    }

    /** The grey cases of one filter. */
    public static List<Gray16GoldenCase> casesForGray16(String filterId) {
        Path csv = TestData.goldenDir().resolve(Gray16GoldenCase.FILE);
        try {
            return Gray16GoldenCase.load(csv).stream().filter(c -> c.filter().equals(filterId)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs one grey case with one implementation and fails with a diff report when the output differs at all. */
    public static void checkGray16(Filter filter, Gray16GoldenCase c, Implementation impl) throws IOException {
        Path dir = TestData.goldenDir();
        GrayRaster16 input = PgmFiles.read(dir.resolve(c.input()), c.bitsStored(), c.signed());
        GrayRaster16 expected = PgmFiles.read(dir.resolve(c.expected()), c.bitsStored(), c.signed());
        GrayRaster16 actual = Filter.run(filter, input, c.region(), filter.descriptor().params(c.params()), impl);
        String difference = GrayRasters.describe(expected, actual, TestData.reportDir(), c.id() + "-" + impl.id());
        assertThat(difference).as("grey golden case %s (%s)", c.id(), impl.id()).isNull();
    }
}
