package org.medjava.store.net.dimse;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;
import org.medjava.store.core.testsupport.ModuleRules;

/** dicom-net speaks DICOM, not HTTP: no container APIs (docs/modules.md). */
class ModuleBoundariesTest {

    private final JavaClasses classes = ModuleRules.thisModule();

    @Test
    void usesNoContainerApis() {
        ModuleRules.noContainerApis("dicom-net").check(classes);
    }
}
