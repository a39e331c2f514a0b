package org.medjava.store.core;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackages;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;
import org.medjava.filter.testkit.PackageRules;
import org.medjava.store.core.testsupport.ModuleRules;

/**
 * store-core is plain Java: no container APIs, no DICOM network, all under its package root, no package cycles
 * (docs/modules.md).
 */
class ModuleBoundariesTest {

    private final JavaClasses classes = PackageRules.classesBeside(StoreException.class);

    @Test
    void usesNoContainerApis() {
        ModuleRules.noContainerApis("store-core").check(classes);
    }

    @Test
    void doesNoDicomNetworking() {
        ModuleRules.noDicomNetwork("store-core").check(classes);
    }

    @Test
    void hasNoPackageCycles() {
        PackageRules.freeOfCycles("store-core", "org.medjava.store.core").check(classes);
    }

    @Test
    void keepsItsValueTypesAtTheBottom() {
        noClasses().that().resideInAPackage("org.medjava.store.core.model..")
                .should().dependOnClassesThat(resideInAPackage("org.medjava.store.core..").and(
                        resideOutsideOfPackages("org.medjava.store.core", "org.medjava.store.core.model..")))
                .because("every package may use the value types, so they use nothing above them (docs/modules.md)")
                .check(classes);
    }

    @Test
    void livesUnderItsPackageRoot() {
        ModuleRules.packageRoot("store-core", "org.medjava.store.core").check(classes);
        ModuleRules.packageRoot("store-core's tests", "org.medjava.store.core")
                .check(PackageRules.classesBeside(getClass()));
    }
}
