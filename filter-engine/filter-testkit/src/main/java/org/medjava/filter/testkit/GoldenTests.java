package org.medjava.filter.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.medjava.filter.Filter;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;

/**
 * Dynamic tests running every golden case of one filter through every implementation, at tolerance 0. Use from
 * a plugin's {@code @TestFactory}.
 */
public final class GoldenTests {
    private GoldenTests() {
    }

    public static Stream<DynamicTest> forFilter(Filter filter) {
        String id = filter.descriptor().id();
        List<GoldenCase> cases = casesFor(id);
        List<DynamicTest> tests = new ArrayList<>();
        tests.add(DynamicTest.dynamicTest(id + " has golden cases", () -> assertThat(cases).isNotEmpty()));
        for (GoldenCase c : cases) {
            for (Implementation impl : Implementation.values()) {
                tests.add(DynamicTest.dynamicTest(c.id() + " [" + impl.id() + "]", () -> check(filter, c, impl)));
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
}
