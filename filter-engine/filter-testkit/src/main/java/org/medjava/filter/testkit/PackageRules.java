package org.medjava.filter.testkit;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;

/**
 * The package rule every module's {@code ModuleBoundariesTest} checks (issue 39): its packages depend one way. Here
 * because this is the test kit every Java module can take: image-codec and the modules below store-core cannot take
 * store-core's test-jar.
 */
public final class PackageRules {

    private PackageRules() {
    }

    /**
     * Every class in the output directory that holds {@code anyClass}, whatever its package: a module's main classes
     * given one of them. By location, not by package, so that a class outside the module's package root is seen, and
     * a dependency's classes are not.
     */
    public static JavaClasses classesBeside(Class<?> anyClass) {
        return new ClassFileImporter().importUrl(anyClass.getProtectionDomain().getCodeSource().getLocation());
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
