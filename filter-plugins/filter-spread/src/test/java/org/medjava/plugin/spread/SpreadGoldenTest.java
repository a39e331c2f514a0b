package org.medjava.plugin.spread;

import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.medjava.filter.testkit.GoldenTests;

/** Every golden case of testdata/cases.csv for this filter, through all three Java implementations, tolerance 0. */
class SpreadGoldenTest {
    @TestFactory
    Stream<DynamicTest> goldenCases() {
        return GoldenTests.forFilter(new SpreadFilter());
    }
}
