package org.medjava.bench;

import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.DicomInputStream;
import com.pixelmed.dicom.TagFromName;
import com.pixelmed.dicom.UniqueIdentifierAttribute;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.medjava.bench.setup.BenchPaths;
import org.medjava.store.core.audit.AuditTrail;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.core.index.IndexEntry;
import org.medjava.store.core.index.TrashScope;
import org.medjava.store.core.index.Trashed;
import org.medjava.store.core.metrics.StoreMetrics;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.storage.LocalFileStorage;
import org.medjava.store.core.trash.Trash;
import org.medjava.store.testkit.peers.LocalPostgres;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Issue 36's target "a study of 5,000 instances is deleted for users in under a second": one {@link Trash#delete} of
 * a study of {@code instances} instances, as {@code DELETE /dicomweb/studies/{uid}} performs it below HTTP (the
 * guard's counts, the move out of the index into the trash, the change feed, the hidden-file set, the audit
 * record), on embedded H2 (one node) and on PostgreSQL (a cluster's database; a private server started by the set-up,
 * as the tests do). Before each deletion a new study of that size is indexed (not timed), and the index already
 * holds the previous iterations' studies in its trash, as a working store would.
 *
 * <p>{@code java -jar benchmarks/target/benchmarks.jar jmh TrashBenchmark} (about 5 minutes).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 10)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class TrashBenchmark {
    /** {@code h2} (embedded, one node) or {@code postgres} (a local server, as a cluster's). */
    @Param({"h2", "postgres"})
    public String database;

    @Param({"5000"})
    public int instances;

    static final String SMALL = "testdata/samples/dicom/CT_small.dcm";

    private Path dir;
    private LocalPostgres postgres;
    private DicomIndex index;
    private Trash trash;
    private AttributeList header;
    private long size;
    private String study;
    private int studies;

    @Setup(Level.Trial)
    public void setUp() throws IOException, DicomException {
        dir = Files.createTempDirectory("medjava-bench-trash-");
        Path sample = BenchPaths.requireFile(BenchPaths.root().resolve(SMALL), "run from a MedJava checkout");
        size = Files.size(sample);
        header = new AttributeList();
        try (DicomInputStream in = new DicomInputStream(new BufferedInputStream(Files.newInputStream(sample)))) {
            header.read(in, TagFromName.PixelData);
        }
        IndexDatabase db = switch (database) {
            case "h2" -> IndexDatabase.h2(dir.resolve("index"));
            case "postgres" -> {
                postgres = LocalPostgres.start();
                yield IndexDatabase.of(postgres.createDatabase("trash_bench"), postgres.user(), postgres.password());
            }
            default -> throw new IllegalArgumentException("database must be h2 or postgres, not " + database);
        };
        index = new DicomIndex(db);
        ImageRepository images = new ImageRepository(new LocalFileStorage(dir.resolve("images")), 1L << 30);
        trash = new Trash(index, images, new Trash.Settings(Duration.ofHours(72), 1.0, Long.MAX_VALUE),
                AuditTrail.NONE, StoreMetrics.NONE, Clock.systemUTC());
    }

    /** A new study of {@code instances} instances in one series, indexed by 8 threads (the index's group commit). */
    @Setup(Level.Iteration)
    public void newStudy() throws Exception {
        study = "2.25.9" + System.nanoTime() + ++studies;
        String series = study + ".1";
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            java.util.List<Future<?>> puts = new java.util.ArrayList<>();
            for (int i = 0; i < instances; i++) {
                int n = i;
                puts.add(pool.submit(() -> {
                    AttributeList list = (AttributeList) header.clone();
                    set(list, TagFromName.StudyInstanceUID, study);
                    set(list, TagFromName.SeriesInstanceUID, series);
                    set(list, TagFromName.SOPInstanceUID, series + "." + n);
                    index.put(IndexEntry.of("bench/" + study + "/" + n + ".dcm", list), size,
                            System.currentTimeMillis());
                    return null;
                }));
            }
            for (Future<?> f : puts) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
    }

    private static void set(AttributeList list, com.pixelmed.dicom.AttributeTag tag, String uid) throws DicomException {
        UniqueIdentifierAttribute a = new UniqueIdentifierAttribute(tag);
        a.addValue(uid);
        list.put(a);
    }

    @Benchmark
    public Trashed deleteStudy() {
        Trashed trashed = trash.delete(TrashScope.study(study), "benchmark", true, Caller.account("bench",
                "127.0.0.1"));
        if (trashed.instances() != instances) {
            throw new IllegalStateException("deleted " + trashed.instances() + " of " + instances);
        }
        return trashed;
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        if (index != null) {
            index.close();
        }
        if (postgres != null) {
            postgres.close();
        }
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
