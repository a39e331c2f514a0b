package org.medjava.bench.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.medjava.bench.CopyBaseline;
import org.medjava.bench.FilterBenchmark;
import org.medjava.bench.StoragePutBenchmark;

/**
 * StoragePutBenchmark (an S3Proxy process, minutes) runs only when named: never in the quick or full run, and not in
 * plain {@code jmh} without a regexp.
 */
class BenchMainTest {
    private static final String STORAGE_PUT = StoragePutBenchmark.class.getName() + ".put";

    @Test
    void plainJmhWithoutRegexpRunsTheFilterBenchmarksOnly() {
        String[] args = BenchMain.jmhArgs(new String[] {"-p", "size=1024", "-p", "filter=blur"});
        assertThat(args).containsExactly("-jvmArgsPrepend", BenchMain.VECTOR_MODULE, "-p", "size=1024", "-p",
                "filter=blur", BenchMain.DEFAULT_JMH_INCLUDE);
        Pattern include = Pattern.compile(BenchMain.DEFAULT_JMH_INCLUDE);
        assertThat(include.matcher(FilterBenchmark.class.getName() + ".run").find()).isTrue();
        assertThat(include.matcher(CopyBaseline.class.getName() + ".copy").find()).isTrue();
        assertThat(include.matcher(STORAGE_PUT).find()).isFalse();
    }

    @Test
    void aRegexpGoesThroughWithTheVectorModuleAndUnparsableArgumentsUnchanged() {
        assertThat(BenchMain.jmhArgs(new String[] {"StoragePutBenchmark", "-p", "storage=s3"}))
                .containsExactly("-jvmArgsPrepend", BenchMain.VECTOR_MODULE, "StoragePutBenchmark", "-p", "storage=s3");
        assertThat(BenchMain.jmhArgs(new String[] {"-f", "not-a-number"})).containsExactly("-f", "not-a-number");
    }

    @Test
    void forksGetTheVectorModuleUnlessTheCallerPrependsArgumentsItself() throws Exception {
        String[] args = BenchMain.jmhArgs(new String[] {"-p", "filter=emboss"});
        org.openjdk.jmh.runner.options.CommandLineOptions parsed =
                new org.openjdk.jmh.runner.options.CommandLineOptions(args);
        assertThat(parsed.getJvmArgsPrepend().get()).containsExactly(BenchMain.VECTOR_MODULE);
        assertThat(BenchMain.jmhArgs(new String[] {"-jvmArgsPrepend", "-Xint", "-p", "filter=emboss"}))
                .containsExactly("-jvmArgsPrepend", "-Xint", "-p", "filter=emboss", BenchMain.DEFAULT_JMH_INCLUDE);
    }

    @Test
    void quickAndFullRunsLeaveTheStorageBenchmarkOut() {
        List<JmhGroup> groups = new ArrayList<>(RunPlan.quick().groups());
        groups.addAll(RunPlan.full().groups());
        for (JmhGroup g : groups) {
            for (String include : g.options(Path.of("unused.json")).getIncludes()) {
                assertThat(Pattern.compile(include).matcher(STORAGE_PUT).find()).as(g.name()).isFalse();
            }
        }
    }

    @Test
    void dataOptionSelectsTheGreyBenchmarks() {
        BenchMain.Options options = BenchMain.Options.parse(new String[] {"--sizes", "512,4096", "--data", "gray16"});
        assertThat(options.data()).isEqualTo(RunPlan.Data.GRAY16);
        assertThat(BenchMain.Options.parse(new String[0]).data()).isEqualTo(RunPlan.Data.ALL);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> BenchMain.Options.parse(new String[] {"--data", "x"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rgb8, gray16 or all");
        JmhGroup grey = RunPlan.full(List.of("512"), List.of("blur"), false, RunPlan.Data.GRAY16).groups().get(0);
        assertThat(grey.options(Path.of("unused.json")).getIncludes())
                .allSatisfy(i -> assertThat(Pattern.compile(i).matcher(
                        org.medjava.bench.Gray16Benchmark.class.getName() + ".run").find()).isTrue());
        assertThat(BenchMain.jmhArgs(new String[] {"Gray16Benchmark", "-p", "format=s16"}))
                .containsExactly("-jvmArgsPrepend", BenchMain.VECTOR_MODULE, "Gray16Benchmark", "-p", "format=s16");
    }
    @Test
    void standardModeLeavesIssue20sExperimentsToTheFullRun() {
        BenchMain.Options standard = BenchMain.Options.parse(new String[] {"--standard", "--skip", "store"});
        assertThat(standard.mode()).isEqualTo("standard");
        assertThat(standard.quick()).isFalse();
        assertThat(standard.skip()).containsExactly("store", "ipc", "blocks", "zmq", "ffm");
        assertThat(BenchMain.Options.parse(new String[] {"--quick"}).quick()).isTrue();
        assertThat(BenchMain.Options.parse(new String[0]).mode()).isEqualTo("full");
        assertThat(BenchMain.Options.parse(new String[] {"--full"}).skip()).isEmpty();
    }
}
