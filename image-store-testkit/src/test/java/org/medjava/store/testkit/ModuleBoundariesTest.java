package org.medjava.store.testkit;

import org.junit.jupiter.api.Test;
import org.medjava.filter.testkit.PackageRules;

/**
 * The test kit's packages depend one way: the root (running a tool, free ports, the samples and the studies made from
 * them), {@code http} (clients and load) and {@code store} (the store on Payara Micro and its clients) at the bottom,
 * {@code peers} (the programs beside the store) on the root, {@code pacs} and {@code cluster} on all of them. Checked with filter-testkit's {@link PackageRules}, as every
 * module is. (That it uses none of the store's modules the build itself sees: it does not declare them.)
 */
class ModuleBoundariesTest {

    @Test
    void hasNoPackageCycles() {
        PackageRules.freeOfCycles("image-store-testkit", "org.medjava.store.testkit")
                .check(PackageRules.classesBeside(Command.class));
    }
}
