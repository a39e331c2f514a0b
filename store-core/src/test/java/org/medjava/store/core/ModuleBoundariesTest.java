package org.medjava.store.core;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;
import org.medjava.store.core.testsupport.ModuleRules;

/** store-core is plain Java: no container APIs, no DICOM network, all under its package root (docs/modules.md). */
class ModuleBoundariesTest {

    private final JavaClasses classes = ModuleRules.classesBeside(StoreException.class);

    @Test
    void usesNoContainerApis() {
        ModuleRules.noContainerApis("store-core").check(classes);
    }

    @Test
    void doesNoDicomNetworking() {
        ModuleRules.noDicomNetwork("store-core").check(classes);
    }

    @Test
    void livesUnderItsPackageRoot() {
        ModuleRules.packageRoot("store-core", "org.medjava.store.core").check(classes);
        ModuleRules.packageRoot("store-core's tests", "org.medjava.store.core")
                .check(ModuleRules.classesBeside(getClass()));
    }
}
