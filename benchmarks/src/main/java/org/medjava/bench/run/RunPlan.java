package org.medjava.bench.run;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.medjava.bench.ImageSize;
import org.medjava.bench.variant.Impl;
import org.medjava.bench.variant.JavaFilters;

/**
 * What a benchmark run measures. {@link #full} is the report's run (about 30–40 minutes on 2 cores); {@link #quick}
 * proves the whole pipeline in about a minute (one small size, a few implementations per filter, one of each column).
 */
public record RunPlan(String mode, List<JmhGroup> groups, HarnessPlan harness, TransportPlan transport,
                      StorePlan store) {

    /** The pure-C harness: same sizes and filters as the JMH C columns. */
    public record HarnessPlan(List<String> sizes, List<String> filters, double warmupSeconds, double seconds) {
    }

    /** Loopback sockets: sender buffer sizes, bytes per transfer, measured repetitions (after one warm-up). */
    public record TransportPlan(List<Integer> buffers, long totalBytes, int repeat) {
    }

    /** The image store over HTTP: file sizes in MiB, repetitions; {@code enabled=false} leaves it out. */
    public record StorePlan(boolean enabled, List<Integer> mebibytes, int repeat) {
    }

    public static final List<String> FULL_SIZES = List.of("256", "512", "1024", "2048", "4096", "3000x2000");
    /** Sizes of the interpreter column (the paper's "JIT off"): small only, it runs 20–100× slower. */
    public static final List<String> XINT_SIZES = List.of("256", "512");
    public static final List<Integer> TRANSPORT_BUFFERS = List.of(1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072);

    public static RunPlan full(List<String> sizes, List<String> filters, boolean withStore) {
        List<JmhGroup> groups = new ArrayList<>();
        List<String> openCvFilters = filters.stream().filter(Impl.OPENCV::supports).collect(Collectors.toList());
        List<String> xintSizes = sizes.stream().filter(XINT_SIZES::contains).collect(Collectors.toList());
        for (String size : sizes) {
            ImageSize s = ImageSize.parse(size);
            groups.add(new JmhGroup("copy " + size, true, List.of(size), List.of(), List.of(), JvmColumn.JIT,
                    Timing.full(s, false), List.of()));
            addSplit(groups, "java", size, filters, Impl.java(), JvmColumn.JIT);
            addSplit(groups, "c", size, filters, Impl.c(), JvmColumn.JIT);
            if (!openCvFilters.isEmpty()) {
                groups.add(new JmhGroup("opencv " + size, false, List.of(size), openCvFilters, ids(List.of(Impl.OPENCV)),
                        JvmColumn.JIT, Timing.full(s, false), List.of()));
            }
            if (JvmColumn.jdk25Installed()) {
                addSplit(groups, "jdk25", size, filters, Impl.java(), JvmColumn.JDK25);
            }
        }
        if (!xintSizes.isEmpty()) {
            groups.add(new JmhGroup("xint", false, xintSizes, filters,
                    ids(List.of(Impl.JAVA_STRAIGHTFORWARD, Impl.JAVA_OPTIMIZED)), JvmColumn.XINT,
                    new Timing(1, 0.5, 2, 0.5), List.of()));
        }
        return new RunPlan("full", groups,
                new HarnessPlan(sizes, filters, 0.2, 0.5),
                new TransportPlan(TRANSPORT_BUFFERS, 256L << 20, 5),
                new StorePlan(withStore, List.of(1, 4, 16, 64, 256), 3));
    }

    public static RunPlan full() {
        return full(FULL_SIZES, JavaFilters.ids(), true);
    }

    /** One size (256²), every filter, one of each kind of column, short iterations; no image store. */
    public static RunPlan quick() {
        String size = "256";
        Timing t = Timing.quick();
        List<String> filters = JavaFilters.ids();
        List<JmhGroup> groups = new ArrayList<>();
        groups.add(new JmhGroup("copy", true, List.of(size), List.of(), List.of(), JvmColumn.JIT, t, List.of()));
        groups.add(new JmhGroup("java+c", false, List.of(size), filters,
                ids(List.of(Impl.JAVA_OPTIMIZED, Impl.C_OPTIMIZED_O2)), JvmColumn.JIT, t, List.of()));
        groups.add(new JmhGroup("blur, all columns", false, List.of(size), List.of("blur"),
                ids(List.of(Impl.JAVA_STRAIGHTFORWARD, Impl.JAVA_PARALLEL, Impl.C_OPTIMIZED_NATIVE, Impl.OPENCV)),
                JvmColumn.JIT, t, List.of()));
        groups.add(new JmhGroup("xint", false, List.of(size), List.of("blur"), ids(List.of(Impl.JAVA_OPTIMIZED)),
                JvmColumn.XINT, t, List.of()));
        if (JvmColumn.jdk25Installed()) {
            groups.add(new JmhGroup("jdk25", false, List.of(size), List.of("blur"), ids(List.of(Impl.JAVA_OPTIMIZED)),
                    JvmColumn.JDK25, t, List.of()));
        }
        return new RunPlan("quick", groups,
                new HarnessPlan(List.of(size), filters, 0.05, 0.1),
                new TransportPlan(List.of(8192, 65536), 32L << 20, 2),
                new StorePlan(false, List.of(), 0));
    }

    public int benchmarkCount() {
        return groups.stream().mapToInt(JmhGroup::benchmarkCount).sum();
    }

    /** Straightforward ports in a group of their own at big sizes, where they get fewer, longer iterations. */
    private static void addSplit(List<JmhGroup> groups, String name, String size, List<String> filters,
                                 List<Impl> impls, JvmColumn jvm) {
        ImageSize s = ImageSize.parse(size);
        List<Impl> slow = impls.stream().filter(i -> i.id().contains("straightforward")).collect(Collectors.toList());
        List<Impl> fast = impls.stream().filter(i -> !slow.contains(i)).collect(Collectors.toList());
        if (!slow.isEmpty()) {
            groups.add(new JmhGroup(name + " " + size + " straightforward", false, List.of(size), filters, ids(slow),
                    jvm, Timing.full(s, true), List.of()));
        }
        if (!fast.isEmpty()) {
            groups.add(new JmhGroup(name + " " + size, false, List.of(size), filters, ids(fast), jvm,
                    Timing.full(s, false), List.of()));
        }
    }

    private static List<String> ids(List<Impl> impls) {
        return impls.stream().map(Impl::id).collect(Collectors.toList());
    }
}
