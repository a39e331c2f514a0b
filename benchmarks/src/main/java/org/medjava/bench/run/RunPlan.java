package org.medjava.bench.run;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.medjava.bench.setup.GrayFormat;
import org.medjava.bench.setup.ImageSize;
import org.medjava.bench.setup.JvmColumn;
import org.medjava.bench.setup.Timing;
import org.medjava.bench.variant.Impl;
import org.medjava.bench.variant.JavaFilters;

/**
 * What a benchmark run measures. {@link #full} is the paper's complete run (about 40–50 minutes on 2 cores, 16-bit
 * grey included); {@link #standard} measures what a performance engineer compares — every filter at three sizes,
 * the fast Java ports against C and OpenCV on JDK 17 and 25 — in about 10 minutes; {@link #quick} is a smoke test
 * that proves the whole pipeline in about a minute (one small size, a few implementations per filter).
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

    /** What the JMH groups measure: the 8-bit RGB filters, the 16-bit grey ones, or both. */
    public enum Data {
        RGB8, GRAY16, ALL;

        public static Data parse(String text) {
            switch (text) {
                case "rgb8": return RGB8;
                case "gray16": return GRAY16;
                case "all": return ALL;
                default: throw new IllegalArgumentException("--data must be rgb8, gray16 or all, got " + text);
            }
        }

        boolean rgb8() {
            return this != GRAY16;
        }

        boolean gray16() {
            return this != RGB8;
        }
    }

    /**
     * Sizes of the 16-bit groups in a run of both kinds of data: the two the issue asks for (another ~10 minutes on
     * 2 cores). {@code --data gray16} measures every requested size.
     */
    public static final List<String> GRAY16_SIZES = List.of("512", "4096");

    /** The grey formats of the 16-bit groups: every implementation on u16, the fast ones and OpenCV also on s16. */
    public static final List<String> GRAY_FORMATS = List.of("u16", "s16");

    public static RunPlan full(List<String> sizes, List<String> filters, boolean withStore) {
        return full(sizes, filters, withStore, Data.ALL);
    }

    public static RunPlan full(List<String> sizes, List<String> filters, boolean withStore, Data data) {
        List<JmhGroup> groups = new ArrayList<>();
        if (data.rgb8()) {
            addRgb8(groups, sizes, filters);
        }
        if (data.gray16()) {
            for (String size : sizes) {
                if (data == Data.GRAY16 || GRAY16_SIZES.contains(size)) {
                    addGray16(groups, size, filters);
                }
            }
        }
        return new RunPlan(data == Data.ALL ? "full" : "full " + data.name().toLowerCase(java.util.Locale.ROOT),
                groups,
                new HarnessPlan(sizes, filters, 0.2, 0.5),
                new TransportPlan(TRANSPORT_BUFFERS, 256L << 20, 5),
                new StorePlan(withStore, List.of(1, 4, 16, 64, 256), 3));
    }

    /**
     * The 16-bit grey groups of one size: every Java and C implementation on u16 (OpenCV's 16U); Java optimized,
     * C optimized at both levels and OpenCV on s16 (16S) too, for the ratios against OpenCV on signed data.
     */
    private static void addGray16(List<JmhGroup> groups, String size, List<String> filters) {
        ImageSize s = ImageSize.parse(size);
        List<Impl> slow = List.of(Impl.JAVA_STRAIGHTFORWARD, Impl.C_STRAIGHTFORWARD_O2, Impl.C_STRAIGHTFORWARD_NATIVE);
        List<Impl> fast = List.of(Impl.JAVA_OPTIMIZED, Impl.JAVA_PARALLEL, Impl.C_OPTIMIZED_O2, Impl.C_OPTIMIZED_NATIVE);
        List<Impl> signed = List.of(Impl.JAVA_OPTIMIZED, Impl.C_OPTIMIZED_O2, Impl.C_OPTIMIZED_NATIVE);
        groups.add(gray16Group("gray16 " + size + " straightforward", size, filters, slow, "u16", Timing.full(s, true)));
        groups.add(gray16Group("gray16 " + size, size, filters, fast, "u16", Timing.full(s, false)));
        groups.add(gray16Group("gray16 s16 " + size, size, filters, signed, "s16", Timing.full(s, false)));
        vectorized("gray16 c vectorized " + size, size, filters, Timing.full(s, false), GRAY_FORMATS)
                .ifPresent(groups::add);
        for (String format : GRAY_FORMATS) {
            GrayFormat f = GrayFormat.parse(format);
            List<String> openCv = filters.stream().filter(id -> Impl.OPENCV.supportsGray16(id, f))
                    .collect(Collectors.toList());
            if (!openCv.isEmpty()) {
                groups.add(new JmhGroup("gray16 opencv " + format + " " + size, false, List.of(size), openCv,
                        ids(List.of(Impl.OPENCV)), JvmColumn.JIT, Timing.full(s, false), List.of(), List.of(format)));
            }
        }
    }

    /**
     * The vectorized C on the filters it has a kernel for ({@code formats} empty: 8-bit RGB, else 16-bit grey), or
     * nothing when it has none of them: a cell without a kernel is reported "n/a", never run.
     */
    static java.util.Optional<JmhGroup> vectorized(String name, String size, List<String> filters, Timing timing,
                                                   List<String> formats) {
        List<String> with = filters.stream().filter(f -> formats.isEmpty() ? Impl.C_VECTORIZED.supports(f)
                : formats.stream().allMatch(x -> Impl.C_VECTORIZED.supportsGray16(f, GrayFormat.parse(x))))
                .collect(Collectors.toList());
        return with.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(new JmhGroup(name, false,
                List.of(size), with, ids(List.of(Impl.C_VECTORIZED)), JvmColumn.JIT, timing, List.of(), formats));
    }

    private static JmhGroup gray16Group(String name, String size, List<String> filters, List<Impl> impls,
                                        String format, Timing timing) {
        return new JmhGroup(name, false, List.of(size), filters, ids(impls), JvmColumn.JIT, timing, List.of(),
                List.of(format));
    }

    private static void addRgb8(List<JmhGroup> groups, List<String> sizes, List<String> filters) {
        List<String> openCvFilters = filters.stream().filter(Impl.OPENCV::supports).collect(Collectors.toList());
        List<String> xintSizes = sizes.stream().filter(XINT_SIZES::contains).collect(Collectors.toList());
        for (String size : sizes) {
            ImageSize s = ImageSize.parse(size);
            groups.add(new JmhGroup("copy " + size, true, List.of(size), List.of(), List.of(), JvmColumn.JIT,
                    Timing.full(s, false), List.of()));
            addSplit(groups, "java", size, filters, Impl.java(), JvmColumn.JIT);
            addSplit(groups, "c", size, filters, Impl.c().stream().filter(i -> i != Impl.C_VECTORIZED)
                    .collect(Collectors.toList()), JvmColumn.JIT);
            vectorized("c vectorized " + size, size, filters, Timing.full(s, false), List.of()).ifPresent(groups::add);
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
    }

    public static RunPlan full() {
        return full(FULL_SIZES, JavaFilters.ids(), true);
    }

    /** The standard run's sizes: a small image, and the two the targets are stated at. */
    public static final List<String> STANDARD_SIZES = List.of("512", "1024", "4096");

    /**
     * The standard run: every filter at {@link #STANDARD_SIZES}, measured as the full run measures (same iteration
     * settings), but only the columns the targets compare — Java optimized and parallel (JDK 17, and JDK 25 when
     * installed), C optimized at -O2 and -O3 -march=native, OpenCV, the copy floor — without the straightforward
     * ports, the interpreter and the 16-bit groups (which the full run adds); the image store at 1 and 16 MiB.
     */
    public static RunPlan standard(List<String> filters, boolean withStore) {
        List<String> openCvFilters = filters.stream().filter(Impl.OPENCV::supports).collect(Collectors.toList());
        List<Impl> java = List.of(Impl.JAVA_OPTIMIZED, Impl.JAVA_PARALLEL);
        List<Impl> c = List.of(Impl.C_OPTIMIZED_O2, Impl.C_OPTIMIZED_NATIVE);
        List<JmhGroup> groups = new ArrayList<>();
        for (String size : STANDARD_SIZES) {
            Timing t = Timing.standard(ImageSize.parse(size));
            groups.add(new JmhGroup("copy " + size, true, List.of(size), List.of(), List.of(), JvmColumn.JIT, t,
                    List.of()));
            groups.add(new JmhGroup("java " + size, false, List.of(size), filters, ids(java), JvmColumn.JIT, t,
                    List.of()));
            groups.add(new JmhGroup("c " + size, false, List.of(size), filters, ids(c), JvmColumn.JIT, t, List.of()));
            vectorized("c vectorized " + size, size, filters, t, List.of()).ifPresent(groups::add);
            if (!openCvFilters.isEmpty()) {
                groups.add(new JmhGroup("opencv " + size, false, List.of(size), openCvFilters,
                        ids(List.of(Impl.OPENCV)), JvmColumn.JIT, t, List.of()));
            }
            if (JvmColumn.jdk25Installed()) {
                groups.add(new JmhGroup("jdk25 " + size, false, List.of(size), filters, ids(java), JvmColumn.JDK25, t,
                        List.of()));
            }
        }
        return new RunPlan("standard", groups,
                new HarnessPlan(STANDARD_SIZES, filters, 0.1, 0.3),
                new TransportPlan(List.of(8192, 65536), 64L << 20, 3),
                new StorePlan(withStore, List.of(1, 16), 3));
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
        vectorized("c vectorized", size, filters, t, List.of()).ifPresent(groups::add);
        groups.add(new JmhGroup("blur, all columns", false, List.of(size), List.of("blur"),
                ids(List.of(Impl.JAVA_STRAIGHTFORWARD, Impl.JAVA_PARALLEL, Impl.C_OPTIMIZED_NATIVE, Impl.OPENCV)),
                JvmColumn.JIT, t, List.of()));
        groups.add(new JmhGroup("xint", false, List.of(size), List.of("blur"), ids(List.of(Impl.JAVA_OPTIMIZED)),
                JvmColumn.XINT, t, List.of()));
        if (JvmColumn.jdk25Installed()) {
            groups.add(new JmhGroup("jdk25", false, List.of(size), List.of("blur"), ids(List.of(Impl.JAVA_OPTIMIZED)),
                    JvmColumn.JDK25, t, List.of()));
        }
        groups.add(new JmhGroup("gray16 blur", false, List.of(size), List.of("blur"),
                ids(List.of(Impl.JAVA_OPTIMIZED, Impl.C_OPTIMIZED_O2, Impl.OPENCV)), JvmColumn.JIT, t, List.of(),
                GRAY_FORMATS));
        vectorized("gray16 c vectorized blur", size, List.of("blur"), t, GRAY_FORMATS).ifPresent(groups::add);
        return new RunPlan("quick", groups,
                new HarnessPlan(List.of(size), filters, 0.05, 0.1),
                new TransportPlan(List.of(8192, 65536), 32L << 20, 2),
                new StorePlan(false, List.of(), 0));
    }

    /** A smoke test: its numbers prove that every column runs, they are not measurements. */
    public boolean smokeTest() {
        return mode.equals("quick");
    }

    /** Issue 20's ØMQ experiment: the quick run's smoke test, else the standard counts. */
    public org.medjava.bench.zmq.MessagingPlan zmq() {
        return mode.equals("quick") ? org.medjava.bench.zmq.MessagingPlan.quick()
                : org.medjava.bench.zmq.MessagingPlan.full();
    }

    /**
     * Issue 34's codec cell ({@link org.medjava.bench.codec.CodecStep}): the quick run's smoke test, else 10
     * one-second iterations in each of 2 forks (JJ2000's encode + decode takes most of a second).
     */
    public Timing codec() {
        return mode.equals("quick") ? Timing.quick() : new Timing(3, 1.0, 10, 1.0, 2);
    }

    /** Issue 20's JNI-vs-FFM benchmark: the quick run's smoke test, else the standard run. */
    public org.medjava.bench.ffm.CallPlan ffm() {
        return mode.equals("quick") ? org.medjava.bench.ffm.CallPlan.quick() : org.medjava.bench.ffm.CallPlan.full();
    }

    /**
     * Issue 21's GET comparison of the store with nginx and Orthanc: the standard or the full run's lengths; the quick
     * run leaves it out (its warm-up alone would double the smoke test).
     */
    public java.util.Optional<org.medjava.bench.serve.ServePlan> serve() {
        return mode.equals("quick") ? java.util.Optional.empty()
                : java.util.Optional.of(mode.equals("standard") ? org.medjava.bench.serve.ServePlan.standard()
                : org.medjava.bench.serve.ServePlan.full());
    }

    /** Issue 21's ingest comparison of the store with Orthanc: the standard or the full run's; not in the quick run. */
    public java.util.Optional<org.medjava.bench.ingest.IngestPlan> ingest() {
        return mode.equals("quick") ? java.util.Optional.empty()
                : java.util.Optional.of(mode.equals("standard") ? org.medjava.bench.ingest.IngestPlan.standard()
                : org.medjava.bench.ingest.IngestPlan.full());
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
