package org.medjava.cli;

import org.junit.jupiter.api.Test;
import org.medjava.filter.testkit.PackageRules;

/**
 * The command line's packages depend one way: the root (the entry point, the root command that lists every
 * subcommand, and the filter commands) on {@code admin}, {@code dev} and {@code store}, and all of them on
 * {@code command}, what a command runs in ({@code Context}, {@code CliException}, {@code Processes}), which reaches
 * the root command only through {@code Context.Holder}.
 * Checked with filter-testkit's {@link PackageRules}, as every module is.
 */
class ModuleBoundariesTest {

    @Test
    void hasNoPackageCycles() {
        PackageRules.freeOfCycles("cli", "org.medjava.cli").check(PackageRules.classesBeside(Main.class));
    }
}
