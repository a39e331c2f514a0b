package org.medjava.store.core.testsupport;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;

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

    /**
     * Every class in the output directory that holds {@code anyClass}, whatever its package: a module's main classes
     * (its target/classes) given one of them, its test classes given a test. By location, not by package, so that a
     * class outside the module's package root is seen, and a dependency's classes in the same reactor are not.
     */
    public static JavaClasses classesBeside(Class<?> anyClass) {
        return new ClassFileImporter().importUrl(anyClass.getProtectionDomain().getCodeSource().getLocation());
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

    /**
     * No package cycle: each package directly under {@code root} is a slice with its subpackages, and the classes in
     * {@code root} itself are one more, which {@code slices().matching(root + ".(*)..")} would leave out.
     */
    public static ArchRule freeOfCycles(String module, String root) {
        return slices().assignedFrom(new SliceAssignment() {
                    @Override
                    public SliceIdentifier getIdentifierOf(JavaClass c) {
                        String pkg = c.getPackageName();
                        return pkg.equals(root) ? SliceIdentifier.of(root)
                                : pkg.startsWith(root + ".") ? SliceIdentifier.of(root + "."
                                        + pkg.substring(root.length() + 1).split("\\.")[0])
                                : SliceIdentifier.ignore();
                    }

                    @Override
                    public String getDescription() {
                        return root + " and each package under it";
                    }
                }).should().beFreeOfCycles()
                .because(module + "'s packages depend one way, so each can be read and changed from below (issue 39)");
    }
}
