package org.medjava.cli;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;

/**
 * The command line's packages depend one way: the root (the entry point, the root command that lists every
 * subcommand, and the filter commands) on {@code admin}, {@code dev} and {@code store}, and all of them on
 * {@code command}, what a command runs in ({@code Context}, {@code CliException}, {@code Processes}), which reaches
 * the root command only through {@code Context.Holder}. The rule of store-core's {@code ModuleRules.freeOfCycles},
 * written out here: cli does not take store-core's test-jar. The root package is a slice of its own, which
 * {@code slices().matching(ROOT + ".(*)..")} would leave out.
 */
class ModuleBoundariesTest {

    private static final String ROOT = "org.medjava.cli";

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
                .because("the command line's packages depend one way, so each can be read and changed from below "
                        + "(issue 39)")
                .check(new ClassFileImporter().importUrl(
                        Main.class.getProtectionDomain().getCodeSource().getLocation()));
    }
}
