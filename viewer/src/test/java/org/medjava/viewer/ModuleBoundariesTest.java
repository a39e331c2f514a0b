package org.medjava.viewer;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;

/**
 * The viewer's packages depend one way (docs/architecture.md draws them): the rule of store-core's
 * {@code ModuleRules.freeOfCycles}, written out here because the viewer takes only Keycloak's harness from
 * store-core's test-jar. The root package is a slice of its own, which {@code slices().matching(ROOT + ".(*)..")}
 * would leave out.
 */
class ModuleBoundariesTest {

    private static final String ROOT = "org.medjava.viewer";

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
                .because("the viewer's packages depend one way, so each can be read and changed from below (issue 39)")
                .check(new ClassFileImporter().importUrl(
                        ViewerApp.class.getProtectionDomain().getCodeSource().getLocation()));
    }
}
