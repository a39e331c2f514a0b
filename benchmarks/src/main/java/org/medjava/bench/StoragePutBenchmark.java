package org.medjava.bench;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.medjava.bench.setup.BenchPaths;
import org.medjava.bench.transport.MultiFrameDicom;
import org.medjava.codec.ImageCodec;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.core.ingest.DuplicatePolicy;
import org.medjava.store.core.ingest.Ingest;
import org.medjava.store.core.model.Preconditions;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.repo.UploadValidator;
import org.medjava.store.core.storage.LocalFileStorage;
import org.medjava.store.core.storage.ObjectStorage;
import org.medjava.store.core.storage.S3Settings;
import org.medjava.store.core.storage.S3Storage;
import org.medjava.store.testkit.peers.S3ProxyServer;
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
 * One HTTP PUT of a DICOM file as the image store performs it, without the HTTP layer: {@link Ingest#put} stages the
 * body, parses it once, validates it, installs it into the storage and indexes it (embedded H2). Storages: the local
 * file system ({@link LocalFileStorage}, fsync + atomic rename, in a temp directory) and S3-compatible object storage
 * ({@link S3Storage} on the AWS SDK) against a real S3Proxy process started in the set-up (image-store-testkit's
 * {@link S3ProxyServer}, file-system backend, bucket {@value #BUCKET}, prefix
 * {@value #PREFIX}). Same repository, validator and index settings for both: the store's defaults.
 *
 * <p>Every invocation replaces the same path ({@code Preconditions.NONE}, as a PUT without conditional headers): a
 * re-upload is a realistic PUT, and the store, its index and S3Proxy's directory stay the same size however many
 * invocations JMH makes (fresh paths would grow all three and change what later iterations measure). The set-up
 * stores the file once, so even the first warm-up invocation is a replacement.
 *
 * <p>Payloads: {@code 39KB} is {@code testdata/samples/dicom/CT_small.dcm}; {@code 6MB} is {@code RG3_UNCR.dcm}
 * (1760×1760 radiograph, uncompressed) from {@code -D}{@value #LARGE_PROPERTY}, default {@value #LARGE_DEFAULT};
 * when that file is missing a 6 MiB uncompressed multi-frame DICOM is generated ({@link MultiFrameDicom}) and the
 * fork says so on stderr. S3Proxy's jar comes from {@code -Ds3proxy.jar}, default
 * {@code benchmarks/target/s3proxy/s3proxy.jar} (copied there by the module's build).
 *
 * <p>Not part of {@code BenchMain}'s quick or full run, and not of plain {@code bench jmh} unless named:
 * {@code java -jar benchmarks/target/benchmarks.jar jmh StoragePutBenchmark} (about 5 minutes).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 8, time = 4)
@Measurement(iterations = 8, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class StoragePutBenchmark {
    /** {@code files} ({@link LocalFileStorage}) or {@code s3} ({@link S3Storage} on S3Proxy). */
    @Param({"files", "s3"})
    public String storage;

    /** {@code 39KB} (CT_small.dcm) or {@code 6MB} (RG3_UNCR.dcm). */
    @Param({"39KB", "6MB"})
    public String size;

    public static final String LARGE_PROPERTY = "medjava.bench.dicom.large";
    static final String LARGE_DEFAULT = "/work/shared/testdata/dicom/RG3_UNCR.dcm";
    static final String SMALL = "testdata/samples/dicom/CT_small.dcm";
    static final String S3PROXY_JAR_PROPERTY = "s3proxy.jar";
    static final String BUCKET = "medjava-bench";
    static final String PREFIX = "images";
    /** The store's defaults: medjava.upload.max-bytes, medjava.images.max-pixels, medjava.dicom.duplicate-policy. */
    static final long MAX_UPLOAD_BYTES = 1L << 30;
    static final long MAX_PIXELS = ImageCodec.DEFAULT_MAX_PIXELS;
    static final DuplicatePolicy DUPLICATE_POLICY = DuplicatePolicy.REJECT;
    static final String CONTENT_TYPE = "application/dicom";

    private Path dir;
    private S3ProxyServer s3proxy;
    private ObjectStorage objects;
    private DicomIndex index;
    private Ingest ingest;
    private byte[] body;
    private StorePath path;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("medjava-bench-put-");
        try {
            body = Files.readAllBytes(payload());
            path = StorePath.parse("bench/dicom/" + size + ".dcm");
            objects = switch (storage) {
                case "files" -> new LocalFileStorage(dir.resolve("images"));
                case "s3" -> openS3();
                default -> throw new IllegalArgumentException("storage must be files or s3, not " + storage);
            };
            index = new DicomIndex(IndexDatabase.h2(dir.resolve("index")));
            ingest = Ingest.builder(new ImageRepository(objects, MAX_UPLOAD_BYTES), index,
                    new UploadValidator(MAX_PIXELS), DUPLICATE_POLICY).build();
            if (!put().created()) {
                throw new IllegalStateException("the set-up's PUT should have created " + path);
            }
        } catch (IOException | RuntimeException | Error e) {
            try {
                tearDown(); // JMH does not tear down a failed set-up: no S3Proxy or temp directory left behind
            } catch (IOException | RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    private Path payload() throws IOException {
        switch (size) {
            case "39KB":
                return BenchPaths.requireFile(BenchPaths.root().resolve(SMALL), "run from a MedJava checkout or set "
                        + "-Dmedjava.root");
            case "6MB":
                Path large = Path.of(System.getProperty(LARGE_PROPERTY, LARGE_DEFAULT));
                if (Files.isRegularFile(large)) {
                    return large;
                }
                Path generated = dir.resolve("generated-6MiB.dcm");
                MultiFrameDicom.write(generated, 6, 6);
                System.err.println("StoragePutBenchmark: " + large + " is missing (-D" + LARGE_PROPERTY
                        + "); PUTting a generated 6 MiB multi-frame DICOM instead");
                return generated;
            default:
                throw new IllegalArgumentException("size must be 39KB or 6MB, not " + size);
        }
    }

    private ObjectStorage openS3() throws IOException {
        if (System.getProperty(S3PROXY_JAR_PROPERTY) == null) {
            Path jar = BenchPaths.requireFile(BenchPaths.root().resolve("benchmarks/target/s3proxy/s3proxy.jar"),
                    "build the benchmarks (mvn -pl benchmarks package -DskipTests copies it there) or set -D"
                            + S3PROXY_JAR_PROPERTY);
            System.setProperty(S3PROXY_JAR_PROPERTY, jar.toString());
        }
        s3proxy = S3ProxyServer.start(dir.resolve("s3proxy"));
        s3proxy.createBucket(BUCKET);
        return S3Storage.open(new S3Settings(s3proxy.endpoint(), null, BUCKET, PREFIX, S3ProxyServer.ACCESS_KEY,
                S3ProxyServer.SECRET_KEY), dir.resolve("s3-staging"));
    }

    @Benchmark
    public ImageRepository.PutResult put() throws IOException {
        return ingest.put(path, new ByteArrayInputStream(body), body.length, CONTENT_TYPE, Preconditions.NONE,
                Caller.account("bench", "127.0.0.1")); // an HTTP PUT's caller, for its audit record
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        try {
            if (index != null) {
                index.close();
            }
            if (objects != null) {
                objects.close();
            }
        } finally {
            if (s3proxy != null) {
                s3proxy.close();
            }
            deleteTree(dir);
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}
