package org.medjava.store.core;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;
import org.medjava.store.core.testsupport.ModuleRules;

/** store-core is plain Java: no container APIs, no DICOM network (docs/modules.md). */
class ModuleBoundariesTest {

    private final JavaClasses classes = ModuleRules.thisModule();

    @Test
    void usesNoContainerApis() {
        ModuleRules.noContainerApis("store-core").check(classes);
    }

    @Test
    void doesNoDicomNetworking() {
        ModuleRules.noDicomNetwork("store-core").check(classes);
    }
}
