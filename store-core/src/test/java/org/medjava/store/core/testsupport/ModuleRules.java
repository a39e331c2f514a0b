package org.medjava.store.core.testsupport;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.lang.ArchRule;

/**
 * The import rules that keep the store's three modules to their jobs (docs/modules.md), checked by each module's
 * {@code ModuleBoundariesTest} on its own main classes (read with filter-testkit's {@code PackageRules}, which also
 * holds the package-cycle rule every module checks). The build already stops a module from importing one that
 * depends on it; these rules catch what Maven cannot see: a framework or library used where it does not belong.
 */
public final class ModuleRules {

    /** JAX-RS, servlets, CDI and MicroProfile: the WAR's business alone. */
    public static final String[] CONTAINER = {"jakarta.ws.rs..", "jakarta.servlet..", "jakarta.enterprise..",
            "jakarta.inject..", "jakarta.security..", "org.eclipse.microprofile.."};

    private ModuleRules() {
    }

    /** Each module's packages carry its name, so an import tells which module it comes from. */
    public static ArchRule packageRoot(String module, String root) {
        return classes().should().resideInAPackage(root + "..")
                .because("every package of " + module + " is under " + root + " (docs/modules.md)");
    }

    public static ArchRule noContainerApis(String module) {
        return noClasses().should().dependOnClassesThat().resideInAnyPackage(CONTAINER)
                .because(module + " is plain Java: HTTP, CDI and configuration belong to the WAR (image-store)");
    }

    public static ArchRule noDicomNetwork(String module) {
        return noClasses().should().dependOnClassesThat().resideInAnyPackage("com.pixelmed.network..")
                .because("DICOM networking belongs to dicom-net, not to " + module);
    }

    public static ArchRule noPixelMed(String module) {
        return noClasses().should().dependOnClassesThat().resideInAnyPackage("com.pixelmed..")
                .because(module + " reaches DICOM through store-core, dicom-net and image-codec, which declare PixelMed");
    }
}
