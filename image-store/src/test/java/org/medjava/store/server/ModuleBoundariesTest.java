package org.medjava.store.server;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;
import org.medjava.filter.testkit.PackageRules;
import org.medjava.store.core.testsupport.ModuleRules;
import org.medjava.store.server.config.StoreConfig;

/**
 * The WAR is thin: no PixelMed, no container internals, every REST resource in {@code rest}, all under its package
 * root (docs/modules.md).
 */
class ModuleBoundariesTest {

    private final JavaClasses classes = PackageRules.classesBeside(StoreConfig.class);

    @Test
    void doesNotTouchPixelMed() {
        ModuleRules.noPixelMed("image-store (the WAR)").check(classes);
    }

    @Test
    void reachesNoContainerInternals() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("org.glassfish.grizzly..",
                        "com.sun.enterprise..", "org.glassfish.internal..", "org.glassfish.hk2..", "org.apache.catalina..",
                        "fish.payara..")
                .because("the store uses Payara through the Jakarta EE and MicroProfile APIs only: its HTTP front is its "
                        + "own (front.FrontServer), not a handler slipped into Payara's listener")
                .check(classes);
        noClasses().should().callMethod(Class.class, "forName", String.class)
                .orShould().callMethod(Class.class, "forName", String.class, boolean.class, ClassLoader.class)
                .orShould().callMethod(java.lang.reflect.Method.class, "invoke", Object.class, Object[].class)
                .because("no class of the server's is reached by name: what is not public API is not used")
                .check(classes);
    }

    @Test
    void resourcesLiveInTheRestPackage() {
        classes().that().areAnnotatedWith(jakarta.ws.rs.Path.class).should()
                .resideInAPackage("org.medjava.store.server.rest")
                .because("the WAR's packages are split by role: every JAX-RS resource in org.medjava.store.server.rest")
                .check(classes);
    }

    @Test
    void livesUnderItsPackageRoot() {
        ModuleRules.packageRoot("image-store", "org.medjava.store.server").check(classes);
        ModuleRules.packageRoot("image-store's tests", "org.medjava.store.server")
                .check(PackageRules.classesBeside(getClass()));
    }

    @Test
    void hasNoPackageCycles() {
        PackageRules.freeOfCycles("image-store", "org.medjava.store.server").check(classes);
    }
}
