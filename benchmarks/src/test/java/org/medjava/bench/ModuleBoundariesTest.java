package org.medjava.bench;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;
import org.medjava.bench.run.BenchMain;

/**
 * The benchmarks' packages depend one way: {@code setup} (paths, images, sizes, grey formats, the forks' JVM and
 * timing) at the bottom; the implementations ({@code jni}, {@code variant}, {@code transport}), the root's JMH
 * benchmarks and the steps ({@code ffm}, {@code zmq}, {@code ipc}, {@code serve}, {@code ingest},
 * {@code environment}) above it; {@code report}, which reads what the steps wrote, above them; {@code run}, which
 * runs everything and the report, on top. The rule of store-core's {@code ModuleRules.freeOfCycles}, written out
 * here as in image-codec and viewer: this module takes store-core's test-jar for the two servers its benchmarks
 * start, not for its rules. The root package is a slice of its own, which
 * {@code slices().matching(ROOT + ".(*)..")} would leave out.
 */
class ModuleBoundariesTest {

    private static final String ROOT = "org.medjava.bench";

    @Test
    void hasNoPackageCycles() {
        slices().assignedFrom(new SliceAssignment() {
                    @Override
                    public SliceIdentifier getIdentifierOf(JavaClass c) {
                        String pkg = c.getPackageName();
                        return pkg.equals(ROOT) ? SliceIdentifier.of(ROOT)
                                : pkg.startsWith(ROOT + ".") ? SliceIdentifier.of(ROOT + "."
                                        + pkg.substring(ROOT.length() + 1).split("\\.")[0])
                                : SliceIdentifier.ignore();
                    }

                    @Override
                    public String getDescription() {
                        return ROOT + " and each package under it";
                    }
                }).should().beFreeOfCycles()
                .because("the benchmarks' packages depend one way, so each can be read and changed from below "
                        + "(issue 39)")
                .check(new ClassFileImporter().importUrl(
                        BenchMain.class.getProtectionDomain().getCodeSource().getLocation()));
    }
}
