package org.medjava.bench.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.medjava.bench.variant.Impl;
import org.medjava.bench.variant.JavaFilters;

/** The full plan covers every filter × size × implementation once, and only valid combinations. */
class RunPlanTest {

    @Test
    void fullPlanCoversEveryImplementationOfEveryFilterAtEverySize() {
        RunPlan plan = RunPlan.full();
        Set<String> seen = new HashSet<>();
        for (JmhGroup g : plan.groups()) {
            for (String size : g.sizes()) {
                if (g.copyBaseline()) {
                    assertThat(seen.add("copy " + size)).isTrue();
                    continue;
                }
                for (String filter : g.filters()) {
                    for (String impl : g.impls()) {
                        assertThat(Impl.parse(impl).supports(filter)).isTrue();
                        assertThat(seen.add(size + " " + filter + " " + impl + " " + g.jvm())).as("duplicate").isTrue();
                    }
                }
            }
        }
        for (String size : RunPlan.FULL_SIZES) {
            assertThat(seen).contains("copy " + size);
            for (String filter : JavaFilters.ids()) {
                for (Impl impl : Impl.values()) {
                    if (impl.supports(filter)) {
                        assertThat(seen).contains(size + " " + filter + " " + impl.id() + " " + JvmColumn.JIT);
                    }
                }
                if (JvmColumn.jdk25Installed()) {
                    assertThat(seen).contains(size + " " + filter + " java-optimized " + JvmColumn.JDK25);
                }
            }
        }
        assertThat(seen).contains("256 oil-paint java-straightforward " + JvmColumn.XINT)
                .doesNotContain("4096 blur java-optimized " + JvmColumn.XINT);
    }

    @Test
    void quickPlanHasOneOfEachColumnAtOneSize() {
        RunPlan plan = RunPlan.quick();
        assertThat(plan.groups()).allSatisfy(g -> assertThat(g.sizes()).isEqualTo(List.of("256")));
        assertThat(plan.groups()).extracting(JmhGroup::jvm).contains(JvmColumn.JIT, JvmColumn.XINT);
        assertThat(plan.store().enabled()).isFalse();
    }
}
