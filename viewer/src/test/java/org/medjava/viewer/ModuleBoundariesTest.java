package org.medjava.viewer;

import org.junit.jupiter.api.Test;
import org.medjava.filter.testkit.PackageRules;

/**
 * The viewer's packages depend one way (docs/architecture.md draws them).
 * Checked with filter-testkit's {@link PackageRules}, as every module is.
 */
class ModuleBoundariesTest {

    @Test
    void hasNoPackageCycles() {
        PackageRules.freeOfCycles("viewer", "org.medjava.viewer").check(PackageRules.classesBeside(ViewerApp.class));
    }
}
