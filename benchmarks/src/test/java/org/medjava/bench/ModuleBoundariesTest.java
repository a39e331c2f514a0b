package org.medjava.bench;

import org.junit.jupiter.api.Test;
import org.medjava.bench.run.BenchMain;
import org.medjava.filter.testkit.PackageRules;

/**
 * The benchmarks' packages depend one way: {@code setup} (paths, images, sizes, grey formats, the forks' JVM and
 * timing) at the bottom; the implementations ({@code jni}, {@code variant}, {@code transport}), the root's JMH
 * benchmarks and the steps ({@code ffm}, {@code zmq}, {@code ipc}, {@code serve}, {@code ingest}, {@code index},
 * {@code environment}) above it; {@code report}, which reads what the steps wrote, above them; {@code run}, which
 * runs everything and the report, on top.
 * Checked with filter-testkit's {@link PackageRules}, as every module is.
 */
class ModuleBoundariesTest {

    @Test
    void hasNoPackageCycles() {
        PackageRules.freeOfCycles("benchmarks", "org.medjava.bench")
                .check(PackageRules.classesBeside(BenchMain.class));
    }
}
