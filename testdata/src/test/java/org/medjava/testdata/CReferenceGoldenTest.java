package org.medjava.testdata;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.medjava.filter.testkit.GoldenCase;
import org.medjava.filter.testkit.Gray16GoldenCase;
import org.medjava.filter.testkit.TestData;

/**
 * The three C implementations (straightforward, optimized, vectorized) reproduce every golden case byte for byte,
 * 8-bit and grey (the Java side runs in each plugin module).
 */
class CReferenceGoldenTest {
    @Test
    void everyCImplementationPassesEveryGoldenCase() throws Exception {
        Path dir = TestData.goldenDir();
        int cases = GoldenCase.load(dir.resolve("cases.csv")).size();

        Ports.CResult result = Ports.runCGolden(dir.resolve("cases.csv"), dir, Path.of("target/c-golden-diffs")
                .toAbsolutePath());

        assertThat(result.failed()).as(result.output()).isZero();
        assertThat(result.passed()).as(result.output()).isEqualTo(3 * cases);
        assertThat(result.exitCode()).as(result.output()).isZero();
    }

    @Test
    void everyCImplementationPassesEveryGreyGoldenCase() throws Exception {
        Path dir = TestData.goldenDir();
        int cases = Gray16GoldenCase.load(dir.resolve(Gray16GoldenCase.FILE)).size();

        Ports.CResult result = Ports.runCGolden(dir.resolve(Gray16GoldenCase.FILE), dir,
                Path.of("target/c-golden-diffs").toAbsolutePath());

        assertThat(result.failed()).as(result.output()).isZero();
        assertThat(result.passed()).as(result.output()).isEqualTo(3 * cases);
        assertThat(result.exitCode()).as(result.output()).isZero();
    }
}
