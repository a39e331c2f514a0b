package org.medjava.bench.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.medjava.bench.ingest.IngestPlan;
import org.medjava.bench.serve.ServePlan;
import org.medjava.bench.setup.GrayFormat;
import org.medjava.bench.setup.JvmColumn;
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
                        if (g.gray16()) {
                            for (String format : g.grayFormats()) {
                                assertThat(Impl.parse(impl).supportsGray16(filter, GrayFormat.parse(format))).isTrue();
                                assertThat(seen.add(size + " " + filter + " " + impl + " " + format)).as("duplicate")
                                        .isTrue();
                            }
                            continue;
                        }
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
        // 16-bit grey at 512² and 4096²: every implementation on u16, the optimized ones and OpenCV on s16 too
        assertThat(seen).noneMatch(k -> k.startsWith("1024 ") && k.endsWith(" u16"));
        for (String size : RunPlan.GRAY16_SIZES) {
            for (String filter : JavaFilters.ids()) {
                for (Impl impl : Impl.values()) {
                    if (impl.supportsGray16(filter, GrayFormat.U16)) {
                        assertThat(seen).contains(size + " " + filter + " " + impl.id() + " u16");
                    }
                }
                assertThat(seen).contains(size + " " + filter + " java-optimized s16", size + " " + filter
                        + " c-optimized-O2 s16", size + " " + filter + " c-optimized-native s16");
            }
            assertThat(seen).contains(size + " sharpen opencv s16", size + " despeckle opencv u16")
                    .doesNotContain(size + " despeckle opencv s16", size + " oil-paint opencv u16");
        }
    }

    @Test
    void dataChoosesTheRgbOrTheGreyGroups() {
        List<String> sizes = List.of("512");
        RunPlan grey = RunPlan.full(sizes, JavaFilters.ids(), false, RunPlan.Data.GRAY16);
        assertThat(grey.groups()).allSatisfy(g -> assertThat(g.gray16()).isTrue());
        // 512²: 8 filters × (7 on u16 + 3 on s16) + OpenCV 6 on 16U and 5 on 16S + the vectorized C on both
        long vectorized = JavaFilters.ids().stream().filter(f -> Impl.C_VECTORIZED.supportsGray16(f, GrayFormat.U16)
                && Impl.C_VECTORIZED.supportsGray16(f, GrayFormat.S16)).count();
        assertThat(grey.benchmarkCount()).isEqualTo(8 * 10 + 6 + 5 + 2 * vectorized);
        RunPlan rgb = RunPlan.full(sizes, JavaFilters.ids(), false, RunPlan.Data.RGB8);
        assertThat(rgb.groups()).noneSatisfy(g -> assertThat(g.gray16()).isTrue());
        assertThat(RunPlan.full(sizes, JavaFilters.ids(), false).benchmarkCount())
                .isEqualTo(grey.benchmarkCount() + rgb.benchmarkCount());
        assertThat(RunPlan.quick().groups()).anySatisfy(g -> assertThat(g.grayFormats()).contains("u16", "s16"));
        // --data gray16 measures whatever sizes were asked for; a run of both only 512² and 4096²
        assertThat(RunPlan.full(List.of("1024"), JavaFilters.ids(), false, RunPlan.Data.GRAY16).benchmarkCount())
                .isEqualTo(grey.benchmarkCount());
        assertThat(RunPlan.full(List.of("1024"), JavaFilters.ids(), false).groups())
                .noneSatisfy(g -> assertThat(g.gray16()).isTrue());
    }

    @Test
    void quickPlanHasOneOfEachColumnAtOneSize() {
        RunPlan plan = RunPlan.quick();
        assertThat(plan.groups()).allSatisfy(g -> assertThat(g.sizes()).isEqualTo(List.of("256")));
        assertThat(plan.groups()).extracting(JmhGroup::jvm).contains(JvmColumn.JIT, JvmColumn.XINT);
        assertThat(plan.store().enabled()).isFalse();
    }
    @Test
    void standardPlanMeasuresEveryFilterAtThreeSizesAgainstCAndOpenCvWithTenIterationsInTwoForks() {
        RunPlan plan = RunPlan.standard(JavaFilters.ids(), true);
        assertThat(plan.mode()).isEqualTo("standard");
        assertThat(plan.smokeTest()).isFalse();
        for (String size : RunPlan.STANDARD_SIZES) {
            for (String impl : List.of("java-optimized", "java-parallel", "c-optimized-O2", "c-optimized-native")) {
                assertThat(plan.groups()).as(impl + " at " + size).anySatisfy(g -> {
                    assertThat(g.sizes()).containsExactly(size);
                    assertThat(g.impls()).contains(impl);
                    assertThat(g.filters()).containsExactlyElementsOf(JavaFilters.ids());
                });
            }
            // the C row Java is judged against, wherever c-reference has a kernel (the rest is reported n/a)
            List<String> kernels = JavaFilters.ids().stream().filter(Impl.C_VECTORIZED::supports).toList();
            assertThat(kernels).contains("blur");
            assertThat(plan.groups()).anySatisfy(g -> {
                assertThat(g.sizes()).containsExactly(size);
                assertThat(g.impls()).containsExactly("c-vectorized");
                assertThat(g.filters()).containsExactlyElementsOf(kernels);
            });
            assertThat(plan.groups()).anySatisfy(g -> assertThat(g.copyBaseline() && g.sizes().contains(size))
                    .isTrue());
        }
        assertThat(plan.groups()).flatExtracting(JmhGroup::impls).noneMatch(i -> i.contains("straightforward"));
        assertThat(plan.groups()).extracting(JmhGroup::jvm).doesNotContain(JvmColumn.XINT);
        assertThat(plan.groups()).noneSatisfy(g -> assertThat(g.gray16()).isTrue());
        // issue 35: enough samples for a median's confidence interval, from two JVMs
        assertThat(plan.groups()).allSatisfy(g -> {
            assertThat(g.timing().iterations()).isGreaterThanOrEqualTo(10);
            assertThat(g.timing().forks()).isGreaterThanOrEqualTo(2);
        });
        double minutes = plan.groups().stream().mapToDouble(CostModel::groupSeconds).sum() / 60;
        assertThat(minutes).as("planned JMH minutes").isBetween(20.0, 60.0);
        assertThat(plan.store().enabled()).isTrue();
        assertThat(RunPlan.quick().smokeTest()).isTrue();
    }

    @Test
    void theServeStepIsLeftOutOfTheQuickRunAndMeasuresTheLargeFileOtherwise() {
        assertThat(RunPlan.quick().serve()).isEmpty();
        ServePlan standard = RunPlan.standard(List.of("blur"), true).serve().orElseThrow();
        assertThat(standard.rounds()).isEqualTo(3);
        assertThat(standard.largeMiB()).isEqualTo(256);
        assertThat(RunPlan.full().serve().orElseThrow().rounds()).isEqualTo(5);
    }

    @Test
    void theIngestStepIsLeftOutOfTheQuickRunAndInterleavesRoundsOtherwise() {
        assertThat(RunPlan.quick().ingest()).isEmpty();
        IngestPlan standard = RunPlan.standard(List.of("blur"), true).ingest().orElseThrow();
        assertThat(standard.rounds()).isEqualTo(3);
        assertThat(standard.storeWarmUp()).isGreaterThan(standard.instances());
        assertThat(RunPlan.full().ingest().orElseThrow().rounds()).isEqualTo(5);
    }
}
