package org.medjava.store.core.testsupport;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The import rules that keep the store's three modules to their jobs (docs/modules.md), checked by each module's
 * {@code ModuleBoundariesTest} on its own main classes. The build already stops a module from importing one that
 * depends on it; these rules catch what Maven cannot see: a framework or library used where it does not belong.
 */
public final class ModuleRules {

    /** JAX-RS, servlets, CDI and MicroProfile: the WAR's business alone. */
    public static final String[] CONTAINER = {"jakarta.ws.rs..", "jakarta.servlet..", "jakarta.enterprise..",
            "jakarta.inject..", "jakarta.security..", "org.eclipse.microprofile.."};

    private ModuleRules() {
    }

    /** The main classes of the module whose tests are running (its target/classes; no JARs, no tests). */
    public static JavaClasses thisModule() {
        return new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
                .importPackages("org.medjava.store");
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
