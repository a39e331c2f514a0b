package org.medjava.store.core.storage;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

import org.medjava.store.core.StoreException;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * An {@link ObjectStorage} in a bucket of an S3-compatible object store (AWS S3, MinIO, Ceph, S3Proxy, ...).
 *
 * <p>Layout: the object of store key {@code k} is {@code prefix + "/" + k} (just {@code k} without a prefix);
 * directories are implicit key prefixes ending in '/'. S3 replaces an object atomically for readers on PutObject and
 * CompleteMultipartUpload, which gives the contract's atomic replace.
 *
 * <p>ETag and modified time come from user metadata written with every install ({@value #META_ETAG},
 * {@value #META_MODIFIED}), not from S3's own ETag: S3's is the MD5 of the bytes and repeats when the same bytes
 * are written again. ListObjectsV2 does not return user metadata, so {@link #list} and {@link #walk} HEAD each object.
 *
 * <p>Bodies are staged in a local directory and streamed from there: nothing holds a whole object in the heap.
 */
public final class S3Storage implements ObjectStorage {

    static final String META_ETAG = "medjava-etag";
    static final String META_MODIFIED = "medjava-modified";
    private static final String CONTENT_TYPE = "application/octet-stream";
    private static final int MAX_PARTS = 10_000;
    /**
     * The client's connections: one for each request thread of the servlet container (Payara Micro's
     * http-thread-pool has 200), as each holds one while it streams a body; the SDK's default of 50 made the 51st
     * concurrent read wait for a connection instead of the object store.
     */
    static final int MAX_CONNECTIONS = 200;

    private final S3Settings settings;
    private final S3Client s3;
    private final Path stagingDir;
    private final String bucket;
    private final String prefix;
    private final WriteClock writeClock = new WriteClock();
    private final EndpointWatch reachable;
    /** Test hook: runs after each multipart part has been uploaded, with its number (1-based). */
    private volatile IntConsumer partUploaded = n -> { };
    /** Test hook: runs as each request goes out, with its operation's name ("GetObject", "HeadObject", ...). */
    private volatile Consumer<String> requestSent = operation -> { };

    private S3Storage(S3Settings settings, Path stagingDir) throws IOException {
        this.settings = settings;
        this.bucket = settings.bucket();
        this.prefix = settings.prefix();
        this.stagingDir = Files.createDirectories(stagingDir);
        this.s3 = newClient(settings, new ExecutionInterceptor() {
            @Override
            public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                requestSent.accept(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME));
            }
        });
        this.reachable = new EndpointWatch(settings.endpoint().toString(), () -> s3.headBucket(b -> b.bucket(bucket)));
    }

    /**
     * Connects to the bucket and checks that it can be reached with these credentials.
     *
     * @param stagingDir a local directory for bodies on their way in and for {@link #localCopy}s
     * @throws IllegalStateException naming the setting to fix when the endpoint is unreachable, the credentials are
     *                               refused or the bucket does not exist
     */
    public static S3Storage open(S3Settings settings, Path stagingDir) throws IOException {
        S3Storage storage = new S3Storage(settings, stagingDir);
        try {
            storage.checkBucket();
            return storage;
        } catch (RuntimeException e) {
            storage.close();
            throw e;
        }
    }

    static S3Client newClient(S3Settings settings, ExecutionInterceptor interceptor) {
        return S3Client.builder()
                .endpointOverride(settings.endpoint())
                .region(Region.of(settings.region()))
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(settings.accessKey(), settings.secretKey())))
                // Buckets as path segments: S3-compatible servers rarely have wildcard DNS for virtual hosts.
                .forcePathStyle(true)
                // Since 2.30 the SDK sends every upload aws-chunked with a CRC trailer by default; S3-compatible
                // servers often refuse that (S3Proxy 2.6.0: 400 "x-amz-content-sha256 does not match"). Only send
                // and check checksums where S3 requires them.
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .overrideConfiguration(c -> c.addExecutionInterceptor(interceptor))
                .httpClientBuilder(ApacheHttpClient.builder()
                        .maxConnections(MAX_CONNECTIONS)
                        .tcpKeepAlive(true) // idle pooled connections across firewalls and NAT
                        .connectionTimeout(Duration.ofSeconds(5))
                        .socketTimeout(Duration.ofSeconds(60)))
                .build();
    }

    private void checkBucket() {
        try {
            s3.headBucket(b -> b.bucket(bucket));
        } catch (SdkClientException e) {
            throw new IllegalStateException("object storage at " + endpoint() + " is unreachable; check "
                    + S3Settings.ENDPOINT + "=" + endpoint() + ": " + e.getMessage(), e);
        } catch (S3Exception e) {
            int status = e.statusCode();
            if (status == 403 || status == 401 || isCode(e, "InvalidAccessKeyId", "SignatureDoesNotMatch")) {
                throw new IllegalStateException("object storage at " + endpoint() + " refused the credentials for "
                        + "bucket '" + bucket + "' (HTTP " + status + describeCode(e) + "); check "
                        + S3Settings.ACCESS_KEY + "=" + settings.accessKey() + " and " + S3Settings.SECRET_KEY, e);
            }
            if (status == 404 || isCode(e, "NoSuchBucket")) {
                throw new IllegalStateException("bucket '" + bucket + "' does not exist at " + endpoint()
                        + "; create it or check " + S3Settings.BUCKET + "=" + bucket, e);
            }
            if (status == 301 || isCode(e, "PermanentRedirect", "AuthorizationHeaderMalformed")) {
                throw new IllegalStateException("bucket '" + bucket + "' at " + endpoint()
                        + " is in another region; check " + S3Settings.REGION + "=" + settings.region(), e);
            }
            throw new IllegalStateException("object storage at " + endpoint() + " refused bucket '" + bucket
                    + "' (HTTP " + status + describeCode(e) + ")", e);
        }
    }

    // ---- reads ------------------------------------------------------------------------------------------------

    @Override
    public Optional<StorageEntry> stat(String key) throws IOException {
        reachable.check("stat " + key);
        if (key.isEmpty()) {
            return Optional.of(directory(""));
        }
        try {
            Optional<StorageEntry> object = head(key);
            if (object.isPresent()) {
                return object;
            }
            return isDirectory(key) ? Optional.of(directory(key)) : Optional.empty();
        } catch (SdkException e) {
            throw unavailable("stat " + key, e);
        }
    }

    @Override
    public List<StorageEntry> list(String key) throws IOException {
        reachable.check("list " + key);
        try {
            String dir = dirPrefix(key);
            List<StorageEntry> entries = new ArrayList<>();
            boolean any = false;
            ListObjectsV2Request request = ListObjectsV2Request.builder().bucket(bucket).prefix(dir).delimiter("/")
                    .build();
            for (ListObjectsV2Response page : s3.listObjectsV2Paginator(request)) {
                for (CommonPrefix p : page.commonPrefixes()) {
                    any = true;
                    String name = p.prefix().substring(dir.length(), p.prefix().length() - 1);
                    if (!hidden(name)) {
                        entries.add(directory(child(key, name)));
                    }
                }
                for (S3Object o : page.contents()) {
                    any = true;
                    String name = o.key().substring(dir.length());
                    if (!hidden(name)) {
                        // Listings carry no user metadata: HEAD for our ETag (gone meanwhile: skip it).
                        head(child(key, name)).ifPresent(entries::add);
                    }
                }
            }
            if (!any && !key.isEmpty()) {
                throw new StoreException(StoreException.Kind.NOT_FOUND, "no directory " + key);
            }
            return entries;
        } catch (SdkException e) {
            throw unavailable("list " + key, e);
        }
    }

    @Override
    public InputStream open(String key, long offset, long length) throws IOException {
        reachable.check("read " + key);
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("bad range " + offset + "+" + length);
        }
        try {
            if (length == 0) {
                // An empty range cannot be expressed as a Range header; only check that the object exists.
                if (head(key).isEmpty()) {
                    throw new NoSuchFileException(key);
                }
                return InputStream.nullInputStream();
            }
            String range = "bytes=" + offset + "-" + (offset + length - 1);
            return new ObjectStream(s3.getObject(b -> b.bucket(bucket).key(objectKey(key)).range(range)), key,
                    length);
        } catch (NoSuchKeyException e) {
            throw new NoSuchFileException(key);
        } catch (S3Exception e) {
            if (e.statusCode() == 404 || throughObject(key, e)) {
                throw new NoSuchFileException(key);
            }
            if (e.statusCode() == 416) {
                throw new IOException("range " + offset + "+" + length + " lies outside " + key, e);
            }
            throw unavailable("read " + key, e);
        } catch (SdkException e) {
            throw unavailable("read " + key, e);
        }
    }

    /** One GetObject: the entry from its answer's headers (our ETag and time are user metadata there too). */
    @Override
    public Optional<ObjectRead> read(String key) throws IOException {
        reachable.check("read " + key);
        if (key.isEmpty()) {
            return Optional.empty();
        }
        try {
            ResponseInputStream<GetObjectResponse> response = s3.getObject(b -> b.bucket(bucket).key(objectKey(key)));
            GetObjectResponse r = response.response();
            StorageEntry entry = entry(key, r.metadata(), r.lastModified(), r.eTag(), r.contentLength());
            return Optional.of(new ObjectRead(entry, new ObjectStream(response, key, entry.size())));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (S3Exception e) {
            if (e.statusCode() == 404 || throughObject(key, e)) {
                return Optional.empty(); // nothing, or a directory (S3 has no object at a directory's key)
            }
            throw unavailable("read " + key, e);
        } catch (SdkException e) {
            throw unavailable("read " + key, e);
        }
    }

    @Override
    public LocalCopy localCopy(String key) throws IOException {
        reachable.check("read " + key);
        Path copy = Files.createTempFile(stagingDir, "copy-", ".tmp");
        try (InputStream in = s3.getObject(b -> b.bucket(bucket).key(objectKey(key)))) {
            Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
        } catch (NoSuchKeyException e) {
            Files.deleteIfExists(copy);
            throw new NoSuchFileException(key);
        } catch (S3Exception e) {
            Files.deleteIfExists(copy);
            if (e.statusCode() == 404 || throughObject(key, e)) {
                throw new NoSuchFileException(key);
            }
            throw unavailable("read " + key, e);
        } catch (SdkException e) {
            Files.deleteIfExists(copy);
            throw unavailable("read " + key, e);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(copy);
            throw e;
        }
        return new LocalCopy() {
            @Override
            public Path path() {
                return copy;
            }

            @Override
            public void close() {
                try {
                    Files.deleteIfExists(copy);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot remove the local copy " + copy, e);
                }
            }
        };
    }

    @Override
    public void walk(String key, Consumer<StorageEntry> visitor) throws IOException {
        reachable.check("walk " + key);
        try {
            String dir = dirPrefix(key);
            ListObjectsV2Request request = ListObjectsV2Request.builder().bucket(bucket).prefix(dir).build();
            // Keys come in lexicographic order, so each directory's objects come together: depth first.
            for (ListObjectsV2Response page : s3.listObjectsV2Paginator(request)) {
                for (S3Object o : page.contents()) {
                    String relative = o.key().substring(dir.length());
                    if (!relative.isEmpty() && !hiddenPath(relative)) {
                        head(child(key, relative)).ifPresent(visitor);
                    }
                }
            }
        } catch (SdkException e) {
            throw unavailable("walk " + key, e);
        }
    }

    // ---- writes -----------------------------------------------------------------------------------------------

    @Override
    public Path newStagingFile(String prefix) throws IOException {
        return Files.createTempFile(stagingDir, prefix, ".part");
    }

    @Override
    public StagedBody stage(Path stagingFile) throws IOException {
        if (!Files.isRegularFile(stagingFile)) {
            throw new NoSuchFileException(stagingFile.toString(), null, "no staging file");
        }
        // Nothing to make durable locally: install uploads straight from the file.
        return new Staged(stagingFile);
    }

    private record Staged(Path file) implements StagedBody {
    }

    @Override
    public StorageEntry install(String key, StagedBody body, Consumer<StorageEntry> onVisible) throws IOException {
        Path file = body.file();
        try {
            reachable.check("write " + key); // in the try: the staged body is removed either way
            if (key.isEmpty()) {
                throw new StoreException(StoreException.Kind.CONFLICT, "the root is a directory");
            }
            checkInstallable(key);
            long size = Files.size(file);
            Instant modified = writeClock.next();
            // Same shape as the file store's ETag: size, modification time in nanoseconds, something unique.
            long nanos = TimeUnit.SECONDS.toNanos(modified.getEpochSecond()) + modified.getNano();
            String tag = Long.toHexString(size) + "-" + Long.toHexString(nanos) + "-"
                    + Integer.toHexString(ThreadLocalRandom.current().nextInt());
            Map<String, String> metadata = Map.of(META_ETAG, tag, META_MODIFIED,
                    Long.toString(TimeUnit.NANOSECONDS.toMicros(nanos)));
            if (size > settings.multipartThreshold()) {
                uploadMultipart(key, file, size, metadata);
            } else {
                s3.putObject(b -> b.bucket(bucket).key(objectKey(key)).contentType(CONTENT_TYPE).metadata(metadata),
                        RequestBody.fromFile(file));
            }
            StorageEntry entry = new StorageEntry(key, false, size, modified, quote(tag));
            onVisible.accept(entry);
            return entry;
        } catch (SdkException e) {
            throw unavailable("write " + key, e);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** Refuses keys under an object, and keys that are directories. */
    private void checkInstallable(String key) {
        for (int slash = key.indexOf('/'); slash > 0; slash = key.indexOf('/', slash + 1)) {
            String parent = key.substring(0, slash);
            if (head(parent).isPresent()) {
                throw new StoreException(StoreException.Kind.CONFLICT, "cannot write " + key + ": " + parent
                        + " is an object, not a directory");
            }
        }
        if (isDirectory(key)) {
            throw new StoreException(StoreException.Kind.CONFLICT, "cannot write " + key + ": it is a directory");
        }
    }

    /**
     * Uploads in parts straight from slices of the file; S3 makes the object visible only on Complete. Any failure
     * aborts the upload (best effort: {@link #abortStaleUploads} catches what an unreachable server left).
     */
    private void uploadMultipart(String key, Path file, long size, Map<String, String> metadata) {
        String objectKey = objectKey(key);
        long partSize = Math.max(settings.partSize(), (size + MAX_PARTS - 1) / MAX_PARTS);
        String uploadId = s3.createMultipartUpload(b -> b.bucket(bucket).key(objectKey).contentType(CONTENT_TYPE)
                .metadata(metadata)).uploadId();
        try {
            List<CompletedPart> parts = new ArrayList<>();
            int number = 1;
            for (long offset = 0; offset < size; offset += partSize, number++) {
                long length = Math.min(partSize, size - offset);
                int partNumber = number;
                String etag = s3.uploadPart(b -> b.bucket(bucket).key(objectKey).uploadId(uploadId)
                        .partNumber(partNumber).contentLength(length),
                        RequestBody.fromContentProvider(slice(file, offset, length), length, CONTENT_TYPE)).eTag();
                parts.add(CompletedPart.builder().partNumber(partNumber).eTag(etag).build());
                partUploaded.accept(partNumber);
            }
            s3.completeMultipartUpload(b -> b.bucket(bucket).key(objectKey).uploadId(uploadId)
                    .multipartUpload(CompletedMultipartUpload.builder().parts(parts).build()));
        } catch (RuntimeException | Error e) {
            try {
                s3.abortMultipartUpload(b -> b.bucket(bucket).key(objectKey).uploadId(uploadId));
            } catch (RuntimeException abortFailed) {
                e.addSuppressed(abortFailed);
            }
            throw e;
        }
    }

    /** A re-openable stream over part of the file, so the SDK can retry a part. */
    private static ContentStreamProvider slice(Path file, long offset, long length) {
        return () -> {
            try {
                FileChannel channel = FileChannel.open(file, StandardOpenOption.READ).position(offset);
                return new LimitedInputStream(Channels.newInputStream(channel), length);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    @Override
    public boolean delete(String key) throws IOException {
        reachable.check("delete " + key);
        try {
            if (!key.isEmpty() && head(key).isPresent()) {
                s3.deleteObject(b -> b.bucket(bucket).key(objectKey(key)));
                return true;
            }
            if (isDirectory(key)) {
                throw new StoreException(StoreException.Kind.CONFLICT, (key.isEmpty() ? "the root" : key + "/")
                        + " is not empty; delete what is in it first");
            }
            return false; // an empty directory does not exist in S3
        } catch (SdkException e) {
            throw unavailable("delete " + key, e);
        }
    }

    /**
     * Aborts the multipart uploads under the prefix begun more than {@code olderThan} ago, which a crash or an
     * unreachable server left behind (they are invisible but cost storage).
     *
     * @return how many were aborted
     */
    public int abortStaleUploads(Duration olderThan) throws IOException {
        reachable.check("abort stale uploads");
        String uploadsPrefix = prefix.isEmpty() ? null : prefix + "/";
        int aborted = 0;
        try {
            String keyMarker = null;
            String uploadIdMarker = null;
            ListMultipartUploadsResponse page;
            do {
                String km = keyMarker;
                String um = uploadIdMarker;
                page = s3.listMultipartUploads(b -> b.bucket(bucket).prefix(uploadsPrefix).keyMarker(km)
                        .uploadIdMarker(um));
                // Taken after the answer: S3Proxy reports the listing's own time as every upload's initiation.
                Instant cutoff = Instant.now().minus(olderThan);
                for (MultipartUpload u : page.uploads()) {
                    if (u.initiated() == null || !u.initiated().isAfter(cutoff)) {
                        s3.abortMultipartUpload(b -> b.bucket(bucket).key(u.key()).uploadId(u.uploadId()));
                        aborted++;
                    }
                }
                keyMarker = page.nextKeyMarker();
                uploadIdMarker = page.nextUploadIdMarker();
            } while (Boolean.TRUE.equals(page.isTruncated()));
            return aborted;
        } catch (SdkException e) {
            throw unavailable("abort stale uploads", e);
        }
    }

    // ---- the rest ---------------------------------------------------------------------------------------------

    @Override
    public void checkAvailable() throws IOException {
        reachable.check("reach bucket " + bucket);
        try {
            s3.headBucket(b -> b.bucket(bucket));
        } catch (SdkException e) {
            throw unavailable("reach bucket " + bucket, e);
        }
    }

    @Override
    public String describe() {
        return "s3://" + bucket + (prefix.isEmpty() ? "" : "/" + prefix) + " at " + endpoint();
    }

    @Override
    public void close() {
        reachable.close();
        s3.close();
    }

    void onPartUploaded(IntConsumer hook) {
        this.partUploaded = hook;
    }

    void onRequest(Consumer<String> hook) {
        this.requestSent = hook;
    }

    // ---- helpers ----------------------------------------------------------------------------------------------

    private URI endpoint() {
        return settings.endpoint();
    }

    private String objectKey(String key) {
        if (key.endsWith("/")) {
            key = key.substring(0, key.length() - 1); // keys name directories without it; "a//b" would be another key
        }
        return prefix.isEmpty() ? key : key.isEmpty() ? prefix : prefix + "/" + key;
    }

    /** The key prefix of the objects under directory {@code key}. */
    private String dirPrefix(String key) {
        String k = objectKey(key);
        return k.isEmpty() ? "" : k + "/";
    }

    private static String child(String dir, String name) {
        return dir.isEmpty() ? name : dir + "/" + name;
    }

    private static boolean hidden(String name) {
        return name.isEmpty() || name.startsWith(".");
    }

    private static boolean hiddenPath(String relative) {
        for (String segment : relative.split("/", -1)) {
            if (hidden(segment)) {
                return true;
            }
        }
        return false;
    }

    private Optional<StorageEntry> head(String key) {
        HeadObjectResponse h;
        try {
            h = s3.headObject(b -> b.bucket(bucket).key(objectKey(key)));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (S3Exception e) {
            if (e.statusCode() == 404 || throughObject(key, e)) {
                return Optional.empty();
            }
            throw e;
        }
        return Optional.of(entry(key, h.metadata(), h.lastModified(), h.eTag(), h.contentLength()));
    }

    /** An object's entry from the headers S3 answers a HEAD or a GET with. */
    private static StorageEntry entry(String key, Map<String, String> meta, Instant lastModified, String s3ETag,
                                      long size) {
        String tag = meta.get(META_ETAG);
        String micros = meta.get(META_MODIFIED);
        Instant modified = lastModified == null ? Instant.EPOCH : lastModified;
        if (micros != null) {
            try {
                long m = Long.parseLong(micros);
                modified = Instant.ofEpochSecond(Math.floorDiv(m, 1_000_000L), Math.floorMod(m, 1_000_000L) * 1000);
            } catch (NumberFormatException e) {
                // not ours: keep S3's time
            }
        }
        // An object written by something else: S3's own ETag is the best there is.
        String etag = tag != null ? quote(tag) : s3ETag;
        return new StorageEntry(key, false, size, modified, etag);
    }

    private boolean isDirectory(String key) {
        if (key.isEmpty()) {
            return true;
        }
        try {
            return s3.listObjectsV2(b -> b.bucket(bucket).prefix(dirPrefix(key)).maxKeys(1)).keyCount() > 0;
        } catch (S3Exception e) {
            if (throughObject(key, e)) {
                return false;
            }
            throw e;
        }
    }

    /**
     * Whether a server error for {@code key} comes from a parent being an object. S3 answers 404 for "a.dcm/b"
     * when "a.dcm" is an object, but servers on a file system (S3Proxy's file backends) fail with 500 as the path
     * runs through a file. Only then does this cost the extra HEADs.
     */
    private boolean throughObject(String key, S3Exception e) {
        if (e.statusCode() < 500 || key.indexOf('/') < 0) {
            return false;
        }
        for (int slash = key.indexOf('/'); slash > 0; slash = key.indexOf('/', slash + 1)) {
            String parent = key.substring(0, slash);
            try {
                s3.headObject(b -> b.bucket(bucket).key(objectKey(parent)));
                return true;
            } catch (S3Exception parentError) {
                if (parentError.statusCode() != 404) {
                    return false;
                }
            }
        }
        return false;
    }

    private static StorageEntry directory(String key) {
        return new StorageEntry(key, true, 0, Instant.EPOCH, null);
    }

    private static String quote(String tag) {
        return "\"" + tag + "\"";
    }

    private static boolean isCode(S3Exception e, String... codes) {
        String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
        for (String c : codes) {
            if (c.equals(code)) {
                return true;
            }
        }
        return false;
    }

    private static String describeCode(S3Exception e) {
        String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
        return code == null || code.isEmpty() ? "" : " " + code;
    }

    /** Everything the SDK throws becomes a 503 naming the endpoint: it is never the caller's fault. */
    private StorageUnavailableException unavailable(String what, SdkException e) {
        reachable.failed(e);
        if (e instanceof S3Exception s) {
            return new StorageUnavailableException("object storage at " + endpoint() + " refused to " + what
                    + ": HTTP " + s.statusCode() + describeCode(s) + " " + messageOf(s), e);
        }
        return new StorageUnavailableException("object storage at " + endpoint() + " unreachable: cannot " + what
                + ": " + messageOf(e), e);
    }

    private static String messageOf(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String m = e.getMessage();
        return root != e && root.getMessage() != null && (m == null || !m.contains(root.getMessage()))
                ? m + " (" + root.getMessage() + ")" : String.valueOf(m);
    }

    /**
     * An object's body: read failures name the storage, and closing before the end aborts the connection rather
     * than draining the rest of a possibly large body.
     */
    private final class ObjectStream extends FilterInputStream {
        private final ResponseInputStream<GetObjectResponse> response;
        private final String key;
        private long remaining;

        ObjectStream(ResponseInputStream<GetObjectResponse> response, String key, long length) {
            super(response);
            this.response = response;
            this.key = key;
            this.remaining = length;
        }

        @Override
        public int read() throws IOException {
            try {
                int b = super.read();
                if (b >= 0) {
                    remaining--;
                }
                return b;
            } catch (IOException | SdkException e) {
                throw readFailed(e);
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                int n = super.read(b, off, len);
                if (n > 0) {
                    remaining -= n;
                }
                return n;
            } catch (IOException | SdkException e) {
                throw readFailed(e);
            }
        }

        @Override
        public long skip(long n) throws IOException {
            try {
                long skipped = super.skip(n);
                remaining -= skipped;
                return skipped;
            } catch (IOException | SdkException e) {
                throw readFailed(e);
            }
        }

        @Override
        public void close() throws IOException {
            if (remaining > 0) {
                response.abort();
            }
            super.close();
        }

        private StorageUnavailableException readFailed(Exception e) {
            return new StorageUnavailableException("object storage at " + endpoint() + " unreachable: reading "
                    + key + " failed: " + messageOf(e), e);
        }
    }
}
