package org.medjava.store.web;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;
import org.medjava.store.testsupport.ModuleRules;

/** The WAR is thin: no PixelMed, and every REST resource in one package (docs/modules.md). */
class ModuleBoundariesTest {

    private final JavaClasses classes = ModuleRules.thisModule();

    @Test
    void doesNotTouchPixelMed() {
        ModuleRules.noPixelMed("image-store (the WAR)").check(classes);
    }

    @Test
    void resourcesLiveInTheWebPackage() {
        classes().that().areAnnotatedWith(jakarta.ws.rs.Path.class).should().resideInAPackage("org.medjava.store.web")
                .because("resources are grouped by layer: every JAX-RS resource in org.medjava.store.web")
                .check(classes);
    }
}
