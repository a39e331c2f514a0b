package org.medjava.store.net.dimse;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;
import org.medjava.filter.testkit.PackageRules;
import org.medjava.store.core.testsupport.ModuleRules;

/** dicom-net speaks DICOM, not HTTP: no container APIs, all under its package root (docs/modules.md). */
class ModuleBoundariesTest {

    private final JavaClasses classes = PackageRules.classesBeside(DimseServer.class);

    @Test
    void usesNoContainerApis() {
        ModuleRules.noContainerApis("dicom-net").check(classes);
    }

    @Test
    void livesUnderItsPackageRoot() {
        ModuleRules.packageRoot("dicom-net", "org.medjava.store.net").check(classes);
        ModuleRules.packageRoot("dicom-net's tests", "org.medjava.store.net")
                .check(PackageRules.classesBeside(getClass()));
    }

    @Test
    void hasNoPackageCycles() {
        PackageRules.freeOfCycles("dicom-net", "org.medjava.store.net").check(classes);
    }
}
