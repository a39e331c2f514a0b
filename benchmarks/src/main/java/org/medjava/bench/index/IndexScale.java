package org.medjava.bench.index;

import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.DicomInputStream;
import com.pixelmed.dicom.TagFromName;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import org.medjava.bench.environment.EnvironmentStep;
import org.medjava.bench.setup.BenchPaths;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.core.index.IndexEntry;
import org.medjava.store.core.query.ArchiveQuery;
import org.medjava.store.core.query.ArchiveSearch;
import org.medjava.store.core.query.QueryLevel;
import org.medjava.store.testkit.peers.LocalPostgres;

/**
 * Issue 32's index at scale: synthetic instances (100 a study, 4 series, two studies a patient) loaded into a private
 * PostgreSQL through the store's own index writer ({@link DicomIndex#put}, 8 threads as the doors use it, the header
 * as DICOM JSON included), and at each checkpoint the latency of five queries run by {@link ArchiveSearch} — what
 * QIDO-RS and C-FIND both run below HTTP and DIMSE — 200 times each with varying values: a patient name wildcard,
 * a month of study dates, an accession number, a modality, and one study's instances. The broad ones carry a limit
 * of 100, as a worklist or OHIF's study list asks (OHIF sends 101). Ingest is timed over the first and the last
 * {@value #RATE_WINDOW} instances. With {@code --explain}, each query's plan at each checkpoint is taken from
 * PostgreSQL's {@code auto_explain} (ANALYZE) in a pass of its own, after the timed one.
 *
 * <p>{@code java -cp benchmarks/target/benchmarks.jar org.medjava.bench.index.IndexScale [--sizes 10000,100000,1000000]
 * [--out DIR] [--explain]}; 1,000,000 instances take tens of minutes to load on two cores.
 */
public final class IndexScale {

    static final int PER_STUDY = 100;
    static final int SERIES = 4;
    static final int QUERIES = 200;
    static final int WARM_UP = 40;
    static final int LIMIT = 100;
    static final int RATE_WINDOW = 10_000;
    static final int THREADS = 8;
    static final String[] MODALITIES = {"CT", "MR", "CR", "US", "CT", "MR"};
    static final String[] FAMILY = {"SMITH", "JOHNSON", "WILLIAMS", "BROWN", "JONES", "GARCIA", "MILLER", "DAVIS",
        "RODRIGUEZ", "MARTINEZ", "HERNANDEZ", "LOPEZ", "GONZALEZ", "WILSON", "ANDERSON", "THOMAS", "TAYLOR", "MOORE",
        "JACKSON", "MARTIN", "LEE", "PEREZ", "THOMPSON", "WHITE", "HARRIS", "SANCHEZ", "CLARK", "RAMIREZ", "LEWIS",
        "ROBINSON", "WALKER", "YOUNG", "ALLEN", "KING", "WRIGHT", "SCOTT", "TORRES", "NGUYEN", "HILL", "FLORES",
        "GREEN", "ADAMS", "NELSON", "BAKER", "HALL", "RIVERA", "CAMPBELL", "MITCHELL", "CARTER", "ROBERTS"};
    static final String[] GIVEN = {"JAMES", "MARY", "ROBERT", "PATRICIA", "JOHN", "JENNIFER", "MICHAEL", "LINDA",
        "DAVID", "ELIZABETH", "WILLIAM", "BARBARA", "RICHARD", "SUSAN", "JOSEPH", "JESSICA", "THOMAS", "SARAH",
        "CHARLES", "KAREN", "OLGA", "NINA", "IVAN", "ZOE", "ANNA", "ERIK", "HUGO", "LENA", "OMAR", "YUKI"};
    static final int DAYS = 3653; // 2016-01-01 .. 2025-12-31

    /** Five queries; {@code kind} names them in the report. */
    record Latency(String kind, String example, double p50Ms, double p99Ms, double maxMs, double meanRows) {
    }

    record Checkpoint(long instances, double ingestPerSecond, String load, List<Latency> latencies,
                      Map<String, String> plans) {
    }

    private final LocalPostgres postgres;
    private final String database;
    private final AttributeList header;
    private final long size;
    private DicomIndex index;
    private long loaded;

    IndexScale(LocalPostgres postgres, String database, AttributeList header, long size) {
        this.postgres = postgres;
        this.database = database;
        this.header = header;
        this.size = size;
        this.index = open();
    }

    private DicomIndex open() {
        return new DicomIndex(IndexDatabase.of(postgres.jdbcUrl(database), postgres.user(), postgres.password()));
    }

    public static void main(String[] args) throws Exception {
        List<Long> sizes = List.of(10_000L, 100_000L, 1_000_000L);
        Path out = BenchPaths.root().resolve("benchmarks/target/index-scale");
        boolean explain = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--sizes" -> sizes = Arrays.stream(args[++i].split(",")).map(String::trim).map(Long::parseLong)
                        .sorted().toList();
                case "--out" -> out = Path.of(args[++i]);
                case "--explain" -> explain = true;
                default -> throw new IllegalArgumentException("index-scale [--sizes a,b,c] [--out DIR] [--explain],"
                        + " not " + args[i]);
            }
        }
        Path sample = BenchPaths.requireFile(BenchPaths.root().resolve("testdata/samples/dicom/CT_small.dcm"),
                "run from a MedJava checkout");
        AttributeList header = new AttributeList();
        try (DicomInputStream in = new DicomInputStream(new BufferedInputStream(Files.newInputStream(sample)))) {
            header.read(in, TagFromName.PixelData);
        }
        Files.createDirectories(out);
        List<Checkpoint> checkpoints = new ArrayList<>();
        try (LocalPostgres postgres = LocalPostgres.start()) {
            postgres.createDatabase("index_scale");
            IndexScale scale = new IndexScale(postgres, "index_scale", header, Files.size(sample));
            try {
                for (long target : sizes) {
                    double rate = scale.loadTo(target);
                    List<Latency> latencies = scale.measure();
                    Map<String, String> plans = explain ? scale.plans() : Map.of();
                    Checkpoint c = new Checkpoint(target, rate, EnvironmentStep.loadAverage(), latencies, plans);
                    checkpoints.add(c);
                    System.out.println(format(c));
                    Files.writeString(out.resolve("summary.md"), report(checkpoints), StandardCharsets.UTF_8);
                }
            } finally {
                scale.index.close();
            }
        }
        System.out.println("report: " + out.resolve("summary.md"));
    }

    /**
     * Indexes instances until the index holds {@code target}; the rate (instances per second) over the last
     * {@value #RATE_WINDOW} of them, or over the first ones when this is the first load.
     */
    double loadTo(long target) throws Exception {
        long firstStudy = loaded / PER_STUDY;
        long lastStudy = target / PER_STUDY;
        long windowFrom = loaded == 0 ? 0 : Math.max(loaded, target - RATE_WINDOW);
        long windowTo = loaded == 0 ? Math.min(target, RATE_WINDOW) : target;
        AtomicLong windowStart = new AtomicLong();
        AtomicLong windowEnd = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> batch = new ArrayList<>();
            for (long s = firstStudy; s < lastStudy; s++) {
                long study = s;
                for (int i = 0; i < PER_STUDY; i++) {
                    int n = i;
                    long ordinal = study * PER_STUDY + i;
                    batch.add(pool.submit(() -> {
                        if (ordinal == windowFrom) {
                            windowStart.set(System.nanoTime());
                        }
                        index.put(IndexEntry.of(path(study, n), instance(study, n)), size, 1_700_000_000_000L);
                        if (ordinal == windowTo - 1) {
                            windowEnd.set(System.nanoTime());
                        }
                        return null;
                    }));
                }
                if (batch.size() >= 20 * PER_STUDY) {
                    for (Future<?> f : batch) {
                        f.get();
                    }
                    batch.clear();
                }
            }
            for (Future<?> f : batch) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        loaded = target;
        long nanos = windowEnd.get() - windowStart.get();
        return nanos <= 0 ? Double.NaN : (windowTo - windowFrom) * 1e9 / nanos;
    }

    static String path(long study, int n) {
        return "scale/" + study + "/" + n + ".dcm";
    }

    static String studyUid(long study) {
        return "2.25.32000" + study;
    }

    static String accession(long study) {
        return "ACC" + study;
    }

    static long patient(long study) {
        return study / 2;
    }

    /** FAMILY^GIVEN^MIDDLE: the middle name makes each patient's name its own (letters of its number). */
    static String patientName(long patient) {
        StringBuilder middle = new StringBuilder();
        for (long p = patient; p > 0 || middle.isEmpty(); p /= 26) {
            middle.append((char) ('A' + p % 26));
        }
        return FAMILY[(int) (patient % FAMILY.length)] + "^" + GIVEN[(int) ((patient / FAMILY.length) % GIVEN.length)]
                + "^" + middle;
    }

    /** Spread over ten years by a multiplicative hash, so that every checkpoint covers them evenly. */
    static String studyDate(long study) {
        long day = Math.floorMod(study * 2_654_435_761L, DAYS);
        return java.time.LocalDate.of(2016, 1, 1).plusDays(day).toString().replace("-", "");
    }

    static String modality(long study) {
        return MODALITIES[(int) (study % MODALITIES.length)];
    }

    private AttributeList instance(long study, int n) throws DicomException {
        AttributeList list = (AttributeList) header.clone();
        int series = n % SERIES;
        set(list, TagFromName.StudyInstanceUID, studyUid(study));
        set(list, TagFromName.SeriesInstanceUID, studyUid(study) + "." + (series + 1));
        set(list, TagFromName.SOPInstanceUID, studyUid(study) + "." + (series + 1) + "." + (n + 1));
        set(list, TagFromName.PatientID, "PID" + patient(study));
        set(list, TagFromName.PatientName, patientName(patient(study)));
        set(list, TagFromName.StudyDate, studyDate(study));
        set(list, TagFromName.SeriesDate, studyDate(study));
        set(list, TagFromName.AccessionNumber, accession(study));
        set(list, TagFromName.Modality, modality(study));
        set(list, TagFromName.StudyID, Long.toString(study % 100_000));
        set(list, TagFromName.SeriesNumber, Integer.toString(series + 1));
        set(list, TagFromName.InstanceNumber, Integer.toString(n / SERIES + 1));
        return list;
    }

    private static void set(AttributeList list, AttributeTag tag, String value) throws DicomException {
        list.remove(tag);
        com.pixelmed.dicom.Attribute a = com.pixelmed.dicom.AttributeFactory.newAttribute(tag);
        a.addValue(value);
        list.put(a);
    }

    /** The index as loaded up to {@code instances}, and what is asked of it. */
    record Population(long instances) {
        /** The five queries, the {@code i}-th of each kind (values vary with {@code i}, all of them exist). */
        Map<String, IntFunction<ArchiveQuery>> queries() {
            return IndexScale.queries(instances);
        }
    }

    private static Map<String, IntFunction<ArchiveQuery>> queries(long instances) {
        long studies = instances / PER_STUDY;
        long patients = Math.max(1, studies / 2);
        java.util.LinkedHashMap<String, IntFunction<ArchiveQuery>> q = new java.util.LinkedHashMap<>();
        q.put("patient name wildcard", i -> {
            String name = patientName((i * 7_919L) % patients);
            return new ArchiveQuery(QueryLevel.STUDY, Map.of("PatientName", name.substring(0, name.indexOf('^') + 2)
                    + "*"), false, 0, LIMIT);
        });
        q.put("study date, one month", i -> {
            java.time.LocalDate first = java.time.LocalDate.of(2016 + i % 10, 1 + (i / 10) % 12, 1);
            String from = first.toString().replace("-", "");
            String to = first.plusMonths(1).minusDays(1).toString().replace("-", "");
            return new ArchiveQuery(QueryLevel.STUDY, Map.of("StudyDate", from + "-" + to), false, 0, LIMIT);
        });
        q.put("accession number", i -> ArchiveQuery.of(QueryLevel.STUDY, Map.of("AccessionNumber",
                accession((i * 104_729L) % studies))));
        q.put("modality", i -> new ArchiveQuery(QueryLevel.STUDY, Map.of("ModalitiesInStudy",
                MODALITIES[i % 4]), false, 0, LIMIT));
        q.put("a study's instances", i -> ArchiveQuery.of(QueryLevel.IMAGE, Map.of("StudyInstanceUID",
                studyUid((i * 15_485_863L) % studies))));
        return q;
    }

    private int run(ArchiveSearch search, ArchiveQuery q) {
        return q.level() == QueryLevel.IMAGE ? search.instances(q).size() : search.studies(q).size();
    }

    /** Each kind interleaved with the others, {@value #WARM_UP} rounds untimed, then {@value #QUERIES} timed. */
    List<Latency> measure() {
        ArchiveSearch search = new ArchiveSearch(index);
        Map<String, IntFunction<ArchiveQuery>> queries = new Population(loaded).queries();
        Map<String, long[]> nanos = new java.util.LinkedHashMap<>();
        Map<String, long[]> rows = new java.util.LinkedHashMap<>();
        queries.keySet().forEach(k -> {
            nanos.put(k, new long[QUERIES]);
            rows.put(k, new long[QUERIES]);
        });
        for (int round = 0; round < WARM_UP + QUERIES; round++) {
            for (Map.Entry<String, IntFunction<ArchiveQuery>> e : queries.entrySet()) {
                ArchiveQuery q = e.getValue().apply(round);
                long t0 = System.nanoTime();
                int found = run(search, q);
                long t = System.nanoTime() - t0;
                if (round >= WARM_UP) {
                    nanos.get(e.getKey())[round - WARM_UP] = t;
                    rows.get(e.getKey())[round - WARM_UP] = found;
                }
            }
        }
        List<Latency> out = new ArrayList<>();
        for (Map.Entry<String, IntFunction<ArchiveQuery>> e : queries.entrySet()) {
            long[] t = nanos.get(e.getKey()).clone();
            Arrays.sort(t);
            out.add(new Latency(e.getKey(), e.getValue().apply(0).keys().toString(), t[QUERIES / 2] / 1e6,
                    t[(int) Math.ceil(QUERIES * 0.99) - 1] / 1e6, t[QUERIES - 1] / 1e6,
                    Arrays.stream(rows.get(e.getKey())).average().orElse(0)));
        }
        return out;
    }

    /**
     * Each query's plan as PostgreSQL ran it ({@code auto_explain} with ANALYZE, for new sessions of the database),
     * through a second index whose pool opens those sessions; the server's log is cut at a marker first.
     */
    Map<String, String> plans() {
        postgres.execute(database, "ALTER DATABASE " + database + " SET session_preload_libraries = 'auto_explain'",
                "ALTER DATABASE " + database + " SET auto_explain.log_min_duration = 0",
                "ALTER DATABASE " + database + " SET auto_explain.log_analyze = on",
                "ALTER DATABASE " + database + " SET auto_explain.log_buffers = on");
        Map<String, String> plans = new java.util.LinkedHashMap<>();
        DicomIndex explaining = open();
        try {
            ArchiveSearch search = new ArchiveSearch(explaining);
            for (Map.Entry<String, IntFunction<ArchiveQuery>> e : new Population(loaded).queries().entrySet()) {
                int before = postgres.log().length();
                run(search, e.getValue().apply(1));
                String logged = postgres.log().substring(before);
                String plan = planLines(logged);
                plans.put(e.getKey(), plan.isEmpty() ? "(no plan logged; the server's log:)\n" + logged : plan);
            }
        } finally {
            explaining.close();
            postgres.execute(database, "ALTER DATABASE " + database + " RESET ALL");
        }
        return plans;
    }

    /** The plans logged, without the log's prefixes and without the index's bookkeeping statements. */
    static String planLines(String log) {
        StringBuilder b = new StringBuilder();
        for (String entry : log.split("\n(?=\\S)")) {
            if (entry.contains("duration:") && entry.contains("plan:") && entry.toLowerCase(Locale.ROOT)
                    .contains("select") && !entry.contains("pg_catalog")) {
                b.append(entry.substring(entry.indexOf("plan:"))).append("\n");
            }
        }
        return b.toString();
    }

    static String format(Checkpoint c) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%,d instances: ingest %.0f/s, load %s%n",
                c.instances(), c.ingestPerSecond(), c.load()));
        for (Latency l : c.latencies()) {
            b.append(String.format(Locale.ROOT, "  %-22s p50 %6.2f ms  p99 %6.2f ms  max %6.2f ms  rows %.1f%n",
                    l.kind(), l.p50Ms(), l.p99Ms(), l.maxMs(), l.meanRows()));
        }
        return b.toString();
    }

    static String report(List<Checkpoint> checkpoints) {
        StringBuilder b = new StringBuilder("# The index at scale (issue 32)\n\n")
                .append("ArchiveSearch on PostgreSQL (what QIDO-RS and C-FIND run), ").append(QUERIES)
                .append(" queries of each kind after ").append(WARM_UP).append(" untimed rounds, interleaved; ")
                .append("broad queries limited to ").append(LIMIT).append(" results. Load is the 1-minute load ")
                .append("average at the end of the checkpoint.\n\n")
                .append("| instances | ingest (instances/s) | load | query | p50 ms | p99 ms | max ms | rows |\n")
                .append("|---|---|---|---|---|---|---|---|\n");
        for (Checkpoint c : checkpoints) {
            for (Latency l : c.latencies()) {
                b.append(String.format(Locale.ROOT, "| %,d | %.0f | %s | %s | %.2f | %.2f | %.2f | %.1f |%n",
                        c.instances(), c.ingestPerSecond(), c.load(), l.kind(), l.p50Ms(), l.p99Ms(), l.maxMs(),
                        l.meanRows()));
            }
        }
        for (Checkpoint c : checkpoints) {
            for (Map.Entry<String, String> p : c.plans().entrySet()) {
                b.append(String.format(Locale.ROOT, "%n## Plan at %,d instances: %s%n%n```%n%s```%n", c.instances(),
                        p.getKey(), p.getValue()));
            }
        }
        return b.toString();
    }
}
