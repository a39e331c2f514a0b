package org.medjava.store.core.ingest;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.TagFromName;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.medjava.codec.ImageFormat;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.audit.AuditEvents;
import org.medjava.store.core.audit.AuditTrail;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.audit.StoredObject;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.IndexEntry;
import org.medjava.store.core.index.IndexException;
import org.medjava.store.core.metrics.StoreMetrics;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.model.Preconditions;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.model.StoredFile;
import org.medjava.store.core.repo.UploadValidator;
import org.medjava.store.core.storage.StagedBody;
import org.medjava.store.core.transcode.LosslessRecompression;
import org.medjava.store.core.transcode.NotTranscodable;

/**
 * The one door through which objects enter (and leave) the store: HTTP PUT of any image ({@link #put}), DICOM from
 * the network — C-STORE, STOW-RS, retrieves from a remote PACS — ({@link #receive}), and DELETE ({@link #delete}).
 * Every way in takes the same steps: the body is staged, parsed once, validated (the same checks for every door,
 * pixel data included), installed by the {@link ImageRepository} under the path's lock and, while that lock is held,
 * indexed. Nothing half-stored is ever visible; a refused object leaves the store as it was.
 *
 * <p>The files are the truth, and an acknowledged write is always indexed: when the index cannot be updated once the
 * object has changed, the write is answered 503 (not confirmed), its intent stays open, and {@link #settle} (run
 * every few seconds) indexes the object once the index is back. Thread-safe.
 *
 * <p>Crashes: every change of a stored object (install or delete) is recorded in the node's {@link IntentJournal},
 * forced to disk, before the object changes, and marked done once the index agrees. A crash in between leaves the
 * intent open, and the next start's {@link Reconciliation} indexes the path from the object it holds then, so the
 * object and its index row agree after any crash: an acknowledged write is there with its row, an unacknowledged
 * one is there whole with its row or not at all.
 *
 * <p>Every write and delete, done or refused, is recorded in the {@link AuditTrail} with the {@link Caller} the
 * current thread serves.
 */
public final class Ingest {

    private static final Logger LOG = Logger.getLogger(Ingest.class.getName());

    /** The longest a backup's pause holds a write when the store configures none (medjava.backup.max-pause-seconds). */
    private static final java.time.Duration DEFAULT_PAUSE = java.time.Duration.ofSeconds(30);

    private final ImageRepository images;
    private final DicomIndex index;
    private final UploadValidator validator;
    private final DuplicatePolicy policy;
    private final WriteBarrier barrier;
    private final StoreMetrics metrics;
    private final AuditTrail audit;
    private final IntentJournal journal;
    private final Executor validation;
    private final StoredSyntax storedSyntax;
    private volatile Seam seam = DirectorySeam.fromSystemProperty();

    /**
     * Where a test stops a write between the steps of a change: as a crash would (by throwing an Error), or holding
     * it while the test kills the node or stops a dependency ({@link DirectorySeam}).
     */
    interface Seam {
        enum Point {
            /** The intent is on disk; the object is unchanged (in a cluster: no write lease taken yet). */
            JOURNALED,
            /** The object is installed or deleted; the index is not updated yet. */
            OBJECT_CHANGED,
            /** The index agrees with the object; the intent is not marked done yet. */
            INDEXED,
            /** The change is complete (intent done, lease ended); the caller has not been answered yet. */
            ANSWERING
        }

        /** @param path the store path being written */
        void at(Point point, String path);
    }

    private Ingest(Builder b) {
        this.images = b.images;
        this.index = b.index;
        this.validator = b.validator;
        this.policy = b.policy;
        this.barrier = b.barrier != null ? b.barrier : new WriteBarrier(DEFAULT_PAUSE);
        this.metrics = b.metrics;
        this.audit = b.audit;
        this.journal = b.journal;
        this.validation = b.validation != null ? b.validation : validationThreads();
        this.storedSyntax = b.storedSyntax;
    }

    /** An ingest door over {@code images} and {@code index}; what else it reports to is the builder's to say. */
    public static Builder builder(ImageRepository images, DicomIndex index, UploadValidator validator,
            DuplicatePolicy policy) {
        return new Builder(images, index, validator, policy);
    }

    /**
     * The threads the pixel data of received DICOM are checked on, alongside the header checks of the request
     * thread: daemons whose context class loader is the application's, through which the image decoders (ImageIO
     * plugins in the WAR) are looked up. The composition root makes one and shuts it down; without it, each door
     * makes its own (idle threads end after a minute).
     */
    public static ExecutorService validationThreads() {
        return Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "ingest-validation");
            t.setDaemon(true);
            t.setContextClassLoader(Ingest.class.getClassLoader());
            return t;
        });
    }

    /** What an ingest door is given besides its repository, index, validator and duplicate policy. */
    public static final class Builder {
        private final ImageRepository images;
        private final DicomIndex index;
        private final UploadValidator validator;
        private final DuplicatePolicy policy;
        private WriteBarrier barrier;
        private StoreMetrics metrics = StoreMetrics.NONE;
        private AuditTrail audit = AuditTrail.NONE;
        private IntentJournal journal = IntentJournal.NONE;
        private Executor validation;
        private StoredSyntax storedSyntax = StoredSyntax.RECEIVED;

        private Builder(ImageRepository images, DicomIndex index, UploadValidator validator, DuplicatePolicy policy) {
            this.images = images;
            this.index = index;
            this.validator = validator;
            this.policy = policy;
        }

        /** What every install and delete passes, so that a backup can pause them for its snapshot. */
        public Builder barrier(WriteBarrier barrier) {
            this.barrier = barrier;
            return this;
        }

        /** Where what enters (objects, bytes) and what is refused is counted. */
        public Builder metrics(StoreMetrics metrics) {
            this.metrics = metrics;
            return this;
        }

        /** Where every write and delete, done or refused, is recorded with its caller. */
        public Builder audit(AuditTrail audit) {
            this.audit = audit;
            return this;
        }

        /** Where every change of a stored object is recorded before it happens (see {@link Reconciliation}). */
        public Builder journal(IntentJournal journal) {
            this.journal = journal;
            return this;
        }

        /** The threads pixel data are checked on ({@link #validationThreads()}), owned by the caller. */
        public Builder validation(Executor validation) {
            this.validation = validation;
            return this;
        }

        /** In what syntax objects received over the network are stored ({@link StoredSyntax}). */
        public Builder storedSyntax(StoredSyntax storedSyntax) {
            this.storedSyntax = storedSyntax;
            return this;
        }

        public Ingest build() {
            return new Ingest(this);
        }
    }

    /** The intent journal of this node's writes. */
    public IntentJournal journal() {
        return journal;
    }

    void seam(Seam seam) {
        this.seam = seam;
    }

    /** The pause a backup takes for its snapshot of the objects and the index (see {@link WriteBarrier}). */
    public WriteBarrier barrier() {
        return barrier;
    }

    /** Where the store's parts report what happens (the network services report their outcomes there too). */
    public StoreMetrics metrics() {
        return metrics;
    }

    /** Where this door records what passes it; the network services record theirs there too. */
    public AuditTrail auditTrail() {
        return audit;
    }

    public DuplicatePolicy policy() {
        return policy;
    }

    public long maxBytes() {
        return images.maxUploadBytes();
    }

    // ------------------------------------------------------------------------------------------------ HTTP PUT

    /**
     * Creates or replaces the file at {@code path} with a request body: DICOM (Part 10), GIF, PNG or JPEG by its
     * content, agreeing with its declared type and name, and decoding. DICOM is indexed at that path; anything else
     * put over an indexed path takes it out of the index.
     *
     * @param declaredLength the Content-Length, or -1 when the body is chunked
     * @param declaredType   the Content-Type, or null
     * @param caller         who stores it, for the audit trail
     * @throws StoreException TOO_LARGE, BAD_REQUEST, CONFLICT, PRECONDITION_FAILED, UNSUPPORTED_MEDIA_TYPE,
     *                        UNPROCESSABLE or UNAVAILABLE as the case may be; the stored file is unchanged
     */
    public ImageRepository.PutResult put(StorePath path, InputStream body, long declaredLength, String declaredType,
                                         Preconditions preconditions, Caller caller) throws IOException {
        StoredObject[] what = {StoredObject.file(path.relative())};
        try {
            ImageRepository.PutResult result = write(path, body, declaredLength, declaredType, preconditions, what);
            metrics.ingested(StoreMetrics.PUT, result.file().size());
            audit.record(AuditEvents.stored(caller, what[0], !result.created()));
            return result;
        } catch (StoreException e) {
            metrics.ingestRefused(StoreMetrics.PUT, e.kind().name().toLowerCase(java.util.Locale.ROOT));
            audit.record(AuditEvents.storeRefused(caller, what[0], e.kind().status >= 500, e.getMessage()));
            throw e;
        } catch (IOException | RuntimeException e) {
            metrics.ingestRefused(StoreMetrics.PUT, "failure");
            audit.record(AuditEvents.storeRefused(caller, what[0], true, String.valueOf(e.getMessage())));
            throw e;
        }
    }

    private ImageRepository.PutResult write(StorePath path, InputStream body, long declaredLength,
                                            String declaredType, Preconditions preconditions, StoredObject[] what)
            throws IOException {
        if (path.isRoot() || path.directory()) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "PUT needs a file path; \"" + path.relative()
                    + "\" ends with / (directories are created with the files in them)");
        }
        if (!preconditions.equals(Preconditions.NONE)) {
            preconditions.check(path, images.stat(path).orElse(null)); // fail early, before reading a large body
        }
        // a DICOM image too large ever to render is refused from its header, before the rest of it is received
        StagedBody staged = images.receive(new HeadCheck(body, DicomRules.HEAD,
                head -> DicomRules.renderableFromHead(head, declaredLength, validator)), declaredLength);
        try {
            ImageFormat format = validator.identify(path, staged.file(), declaredType);
            if (format != ImageFormat.DICOM) {
                validator.checkImage(format, staged.file());
                try (WriteBarrier.Pass pass = barrier.pass()) {
                    return install(path, staged, preconditions, null, stored -> unindex(path));
                }
            }
            ReceivedDataSet received = parse(staged.file());
            what[0] = described(path, received);
            try { // the rules every door applies (DicomRules), so HTTP and the network agree on the same bytes
                received.identity();
                if (!validator.surelyDecodes(received.dataSet(), transferSyntax(received))) {
                    DicomRules.pixels(received, validator);
                }
            } catch (IngestFailure e) {
                throw DicomRules.asHttp(e);
            }
            IndexEntry entry = indexEntry(path, received);
            try (WriteBarrier.Pass pass = barrier.pass()) {
                return install(path, staged, preconditions, what[0].sopInstanceUid(),
                        stored -> index(path, entry, stored, null));
            }
        } finally {
            Files.deleteIfExists(staged.file());
        }
    }

    private ReceivedDataSet parse(Path file) throws IOException {
        try {
            return ReceivedDataSet.read(file, images.maxUploadBytes(), validator);
        } catch (IngestFailure e) {
            throw DicomRules.asHttp(e);
        }
    }

    /** What the audit trail names of a DICOM object: its UIDs and Patient ID, where the header has them. */
    private static StoredObject described(StorePath path, ReceivedDataSet received) {
        try {
            ReceivedHeader h = received.identity();
            return new StoredObject(path.relative(), h.studyInstanceUid(), h.sopClassUid(), h.sopInstanceUid(),
                    h.patientId());
        } catch (IngestFailure e) {
            return StoredObject.file(path.relative());
        }
    }

    private static String transferSyntax(ReceivedDataSet received) {
        return com.pixelmed.dicom.Attribute.getSingleStringValueOrEmptyString(received.dataSet(),
                com.pixelmed.dicom.TagFromName.TransferSyntaxUID).trim();
    }

    // ------------------------------------------------------------------------------------------------ DELETE

    /**
     * Deletes a file (and takes it out of the index), or an empty directory, at {@code caller}'s request.
     *
     * @throws StoreException NOT_FOUND, CONFLICT (a directory that is not empty), PRECONDITION_FAILED, UNAVAILABLE
     */
    public void delete(StorePath path, Preconditions preconditions, Caller caller) {
        StoredObject[] what = {StoredObject.file(path.relative())};
        try (WriteBarrier.Pass pass = barrier.pass()) {
            IntentJournal.Intent intent = begin(IntentJournal.Op.DELETE, path, null);
            boolean[] changed = {false};
            boolean[] agreed = {true};
            try {
                images.delete(path, preconditions, deleted -> {
                    changed[0] = true;
                    seam.at(Seam.Point.OBJECT_CHANGED, path.relative());
                    if (!deleted.directory()) {
                        what[0] = indexed(deleted.path());
                        agreed[0] = unindex(deleted.path());
                    }
                    seam.at(Seam.Point.INDEXED, path.relative());
                    return agreed[0];
                });
            } catch (RuntimeException e) {
                if (!changed[0]) {
                    journal.done(intent); // refused before anything changed
                }
                throw e;
            }
            if (changed[0]) {
                settledOrRefused(intent, agreed[0], path, "deleted");
            } else {
                journal.done(intent);
            }
            seam.at(Seam.Point.ANSWERING, path.relative());
        } catch (RuntimeException e) {
            audit.record(AuditEvents.deleted(caller, what[0], false, String.valueOf(e.getMessage())));
            throw e;
        }
        audit.record(AuditEvents.deleted(caller, what[0], true, null));
    }

    /** The audit trail's description of a stored file, from the index (just a path when it is not DICOM). */
    private StoredObject indexed(StorePath path) {
        try {
            return index.instance(path.relative()).map(i -> new StoredObject(path.relative(), i.studyInstanceUid(),
                    i.sopClassUid(), i.sopInstanceUid(), i.patientId())).orElse(StoredObject.file(path.relative()));
        } catch (RuntimeException e) { // the index is down: the delete goes on, the record names the path
            return StoredObject.file(path.relative());
        }
    }

    // ------------------------------------------------------------------------------------------------ the network

    /** A new staging file for a body being received; hand it to {@link #receive} when complete. */
    public Path newStagingFile() throws IOException {
        return images.newStagingFile("net-");
    }

    /**
     * Stores the complete Part 10 file {@code staged} (from {@link #newStagingFile}) under its {@link ArchivePath};
     * the staged file is consumed whatever happens. The file is read once and parsed once; uncompressed pixel data in
     * the common layouts are checked on that parse, others are decoded (as an HTTP PUT's are) on another thread
     * while the header is checked. A SOP Instance UID the store holds already is refused or replaced by the
     * {@link DuplicatePolicy}. When this returns, the object is durable and indexed.
     *
     * @param caller who sent it (an AE title, an account, a job's owner): the audit trail's requestor and what the
     *               {@link AfterReceive} hooks see
     * @throws IngestFailure with the DICOM status and a reason; nothing was stored
     */
    public Ingested receive(Path staged, Expected expected, Caller caller) throws IngestFailure {
        StoredObject[] what = {new StoredObject(null, null, null, null, null)};
        try {
            Ingested done = store(staged, expected, what, caller);
            audit.record(AuditEvents.stored(caller, what[0], done.replaced()));
            return done;
        } catch (IngestFailure e) {
            audit.record(AuditEvents.storeRefused(caller, what[0], serious(e), e.getMessage()));
            throw e;
        }
    }

    private static boolean serious(IngestFailure e) {
        return e.reason() == IngestFailure.Reason.PROCESSING_FAILURE
                || e.reason() == IngestFailure.Reason.OUT_OF_RESOURCES;
    }

    /**
     * Stores a corrected version of a stored object (its UIDs the same, other attribute values) from the complete
     * Part 10 file {@code staged}, consumed whatever happens: checked as a received object is, installed at
     * {@code at} under {@code preconditions} whatever the duplicate policy, and indexed as "updated". The
     * version it replaces is the caller's to keep (see {@code Trash#keep}); no after-receive hook runs, as nothing
     * new arrived.
     *
     * @param preconditions the replaced version's entity tag when it is at the same path, so that a write since
     *                      fails the correction instead of being lost
     * @throws StoreException CONFLICT when the object at the path changed since, UNPROCESSABLE when the corrected
     *                        object is refused, UNAVAILABLE when the store fails; nothing was changed
     */
    public Ingested replace(Path staged, StorePath at, Expected expected, Preconditions preconditions,
                            Caller caller) {
        StoredObject[] what = {new StoredObject(at.relative(), null, null, null, null)};
        try {
            Ingested done = file(staged, expected, what, new Replacing(at, preconditions), caller);
            audit.record(AuditEvents.stored(caller, what[0], true));
            return done;
        } catch (IngestFailure e) {
            audit.record(AuditEvents.storeRefused(caller, what[0], serious(e), e.getMessage()));
            throw new StoreException(serious(e) ? StoreException.Kind.UNAVAILABLE : StoreException.Kind.UNPROCESSABLE,
                    "the corrected object was not stored: " + e.getMessage(), e);
        } catch (StoreException e) {
            audit.record(AuditEvents.storeRefused(caller, what[0], e.kind().status >= 500, e.getMessage()));
            if (e.kind() == StoreException.Kind.PRECONDITION_FAILED) {
                throw new StoreException(StoreException.Kind.CONFLICT, what[0].path() + " was written while it was"
                        + " being corrected; it was left as that write made it", e);
            }
            throw e;
        }
    }

    /** Stores the object and counts what entered or why it was refused. */
    private Ingested store(Path staged, Expected expected, StoredObject[] what, Caller caller)
            throws IngestFailure {
        try {
            long size = Files.size(staged);
            Ingested stored = file(staged, expected, what, null, caller);
            metrics.ingested(StoreMetrics.RECEIVE, size);
            return stored;
        } catch (IngestFailure e) {
            metrics.ingestRefused(StoreMetrics.RECEIVE, e.reason().name().toLowerCase(java.util.Locale.ROOT));
            throw e;
        } catch (IOException e) {
            metrics.ingestRefused(StoreMetrics.RECEIVE, IngestFailure.Reason.OUT_OF_RESOURCES.name()
                    .toLowerCase(java.util.Locale.ROOT));
            throw new IngestFailure(IngestFailure.Reason.OUT_OF_RESOURCES, "cannot read the received object: " + e,
                    e);
        }
    }

    /**
     * Stores the object; {@code what[0]} says what it is as soon as its header is read (for the audit trail).
     *
     * @param replacing null for an object received; else where and under what preconditions a correction is stored
     *                  (see {@link #replace}), whose store failures are thrown as they are
     */
    private Ingested file(Path staged, Expected expected, StoredObject[] what, Replacing replacing, Caller caller)
            throws IngestFailure {
        Path recompressed = null;
        try {
            // staged at once (a local file's fsync runs while it is parsed) unless it may be stored recompressed
            boolean mayRecompress = replacing == null && storedSyntax == StoredSyntax.HTJ2K_LOSSLESS;
            StagedBody stage = mayRecompress ? null : images.stage(staged);
            ReceivedDataSet received = ReceivedDataSet.read(staged, images.maxUploadBytes(), validator);
            ReceivedHeader header = received.identity();
            what[0] = new StoredObject(null, header.studyInstanceUid(), header.sopClassUid(),
                    header.sopInstanceUid(), header.patientId());
            CompletableFuture<IngestFailure> pixelsChecked = validator.surelyDecodes(received.dataSet(),
                    header.transferSyntaxUid()) ? CompletableFuture.completedFuture(null)
                    : CompletableFuture.supplyAsync(() -> pixelProblem(received), validation);
            expected.check(header);
            StorePath path = replacing != null ? replacing.at() : ArchivePath.of(header);
            what[0] = new StoredObject(path.relative(), header.studyInstanceUid(), header.sopClassUid(),
                    header.sopInstanceUid(), header.patientId());
            List<String> existing = index.pathsOf(header.sopInstanceUid());
            if (replacing == null && !existing.isEmpty() && policy == DuplicatePolicy.REJECT) {
                throw duplicate(header.sopInstanceUid());
            }
            IndexEntry sentEntry = indexEntry(path, received);
            IngestFailure pixelProblem = await(pixelsChecked);
            if (pixelProblem != null) {
                throw pixelProblem;
            }
            if (mayRecompress) {
                recompressed = recompressed(staged, received, header);
                stage = images.stage(recompressed != null ? recompressed : staged);
            }
            ReceivedDataSet kept = recompressed == null ? received
                    : ReceivedDataSet.read(recompressed, images.maxUploadBytes(), validator);
            IndexEntry entry = recompressed == null ? sentEntry : indexEntry(path, kept);
            Preconditions create = replacing != null ? replacing.preconditions()
                    : policy == DuplicatePolicy.REJECT ? new Preconditions(null, "*") : Preconditions.NONE;
            String change = replacing == null ? null : org.medjava.store.core.index.Change.UPDATED;
            try (WriteBarrier.Pass pass = barrier.pass()) {
                install(path, stage, create, header.sopInstanceUid(), stored -> index(path, entry, stored, change));
            }
            boolean replaced = replacing != null || !existing.isEmpty();
            if (replacing == null) {
                if (replaced) {
                    removeOtherCopies(header.sopInstanceUid(), existing, path, caller);
                }
                afterReceive(header, path, kept, caller);
            }
            LOG.log(Level.FINE, "stored {0} at {1}{2}", new Object[] {header.sopInstanceUid(), path,
                    replaced ? " (replaced)" : ""});
            return new Ingested(header.sopClassUid(), header.sopInstanceUid(), header.studyInstanceUid(),
                    header.seriesInstanceUid(), path, replaced);
        } catch (StoreException e) {
            if (replacing != null) {
                throw e;
            }
            throw translate(e);
        } catch (IOException e) {
            throw new IngestFailure(IngestFailure.Reason.OUT_OF_RESOURCES, "cannot write the object: " + e, e);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "storing a received object failed", e);
            throw new IngestFailure(IngestFailure.Reason.PROCESSING_FAILURE, "the store failed: " + e.getMessage(), e);
        } finally {
            for (Path left : recompressed == null ? List.of(staged) : List.of(staged, recompressed)) {
                try {
                    Files.deleteIfExists(left);
                } catch (IOException e) {
                    LOG.log(Level.FINE, "staged file left behind (removed at the next start): " + left, e);
                }
            }
        }
    }

    /**
     * The received object written again in HTJ2K Lossless ({@link LosslessRecompression}) into a new staging file,
     * or null when it is stored as received: compressed already, too large, or not written exactly (no pixel data, a
     * layout the encoder does not take, a sample that did not come back).
     */
    private Path recompressed(Path staged, ReceivedDataSet received, ReceivedHeader header) throws IOException {
        String from = header.transferSyntaxUid();
        if (!LosslessRecompression.applies(from, Files.size(staged))
                || received.dataSet().get(TagFromName.PixelData) == null) {
            return null;
        }
        Path out = images.newStagingFile("htj2k-");
        try {
            String sourceAe = Attribute.getSingleStringValueOrEmptyString(received.dataSet(),
                    TagFromName.SourceApplicationEntityTitle).trim();
            LosslessRecompression.toHtj2k(staged, from, out, sourceAe.isEmpty() ? null : sourceAe);
            metrics.recompressed("htj2k");
            return out;
        } catch (NotTranscodable e) {
            Files.deleteIfExists(out);
            metrics.recompressed("kept-as-received");
            LOG.log(Level.FINE, "{0} stored as received: {1}", new Object[] {header.sopInstanceUid(),
                    e.getMessage()});
            return null;
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(out);
            throw e;
        }
    }

    /** Where a corrected object goes and what its path must hold then. */
    private record Replacing(StorePath at, Preconditions preconditions) {
    }

    /** What is done with an object once it is stored from the network (e.g. an IOCM rejection note applied). */
    @FunctionalInterface
    public interface AfterReceive {
        /** @param from who sent it (the caller {@link #receive} was given) */
        void received(Ingested stored, com.pixelmed.dicom.AttributeList dataSet, Caller from);
    }

    private final List<AfterReceive> afterReceive = new java.util.concurrent.CopyOnWriteArrayList<>();

    /**
     * Runs {@code hook} after each object stored from the network, after the hooks added before it; a hook's failure
     * is logged, the object stays and the next hook runs.
     */
    public void afterReceive(AfterReceive hook) {
        afterReceive.add(hook);
    }

    private void afterReceive(ReceivedHeader header, StorePath path, ReceivedDataSet received, Caller from) {
        for (AfterReceive hook : afterReceive) {
            try {
                hook.received(new Ingested(header.sopClassUid(), header.sopInstanceUid(), header.studyInstanceUid(),
                        header.seriesInstanceUid(), path, false), received.dataSet(), from);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "after storing " + header.sopInstanceUid() + ": " + e.getMessage(), e);
            }
        }
    }

    /** The pixel rule an HTTP PUT gets ({@link DicomRules#pixels}): its refusal, or null when the pixels pass. */
    private IngestFailure pixelProblem(ReceivedDataSet received) {
        try {
            DicomRules.pixels(received, validator);
            return null;
        } catch (IngestFailure e) {
            return e;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static <T> T await(CompletableFuture<T> check) throws IOException {
        try {
            return check.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof UncheckedIOException u) {
                throw u.getCause();
            }
            throw cause instanceof RuntimeException r ? r : new IllegalStateException(cause);
        }
    }

    /** Copies of a replaced object that the network put elsewhere (an earlier Patient ID) go; others stay. */
    private void removeOtherCopies(String sopInstanceUid, List<String> existing, StorePath kept, Caller caller) {
        for (String copy : existing) {
            if (!copy.equals(kept.relative()) && copy.startsWith(ArchivePath.ROOT + "/")) {
                try {
                    delete(StorePath.parse(copy), Preconditions.NONE, caller);
                } catch (StoreException e) {
                    LOG.log(Level.WARNING, "replaced {0}, but its older copy {1} could not be removed: {2}",
                            new Object[] {sopInstanceUid, copy, e.getMessage()});
                }
            }
        }
    }

    /**
     * The refusal names the instance, not where it is stored: a path may hold a Patient ID, and under access by
     * project the sender may not see the study that holds it.
     */
    private static IngestFailure duplicate(String sopInstanceUid) {
        return new IngestFailure(IngestFailure.Reason.DUPLICATE_SOP_INSTANCE, "duplicate: SOP Instance stored already"
                + " and the duplicate policy is reject (" + sopInstanceUid + ")");
    }

    private static IngestFailure translate(StoreException e) {
        return switch (e.kind()) {
            case PRECONDITION_FAILED -> new IngestFailure(IngestFailure.Reason.DUPLICATE_SOP_INSTANCE,
                    "the SOP Instance arrived twice at once; the duplicate policy is reject", e);
            case TOO_LARGE, UNAVAILABLE, INSUFFICIENT_STORAGE -> new IngestFailure(IngestFailure.Reason.OUT_OF_RESOURCES, e.getMessage(), e);
            case UNSUPPORTED_MEDIA_TYPE, UNPROCESSABLE, BAD_REQUEST -> new IngestFailure(
                    IngestFailure.Reason.CANNOT_UNDERSTAND,
                    e.getMessage().replace("the body is", "the data set is"), e);
            default -> new IngestFailure(IngestFailure.Reason.PROCESSING_FAILURE, e.getMessage(), e);
        };
    }

    // ------------------------------------------------------------------------------------------------ the index

    /** The index entry, or null when the header cannot be indexed (then the object is stored all the same). */
    private static IndexEntry indexEntry(StorePath path, ReceivedDataSet received) {
        try {
            return IndexEntry.of(path.relative(), received.dataSet());
        } catch (IndexException e) {
            LOG.log(Level.WARNING, "{0} is stored but cannot be indexed ({1}); POST /admin/index/rebuild retries",
                    new Object[] {path, e.getMessage()});
            return null;
        }
    }

    /** Runs under the path's lock, once the new file is visible: the index follows the files in order. */
    /** @return whether the index agrees with the installed object (else its intent stays open) */
    private boolean index(StorePath path, IndexEntry entry, StoredFile stored, String changeKind) {
        if (entry == null) {
            return unindex(path); // what was indexed at this path before is gone
        }
        try {
            index.put(entry, stored.size(), stored.modified().toEpochMilli(), changeKind);
            return true;
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "index not updated for " + path + " (" + e.getMessage()
                    + "); the write is refused 503, and indexed within seconds of the index being back", e);
            return false;
        }
    }

    private boolean unindex(StorePath path) {
        try {
            index.remove(path.relative());
            return true;
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "index not updated for " + path + " (" + e.getMessage()
                    + "); the write is refused 503, and indexed within seconds of the index being back", e);
            return false;
        }
    }

    // ------------------------------------------------------------------------------------------------ the journal

    /**
     * Installs a checked body with its index update as one journaled change: the intent is on disk before the
     * object changes, and marked done once {@code indexer} made the index agree with it. When the install fails
     * before the object changed, the intent is done too; when it fails after, it stays open for reconciliation.
     */
    private ImageRepository.PutResult install(StorePath path, StagedBody staged, Preconditions preconditions,
                                              String sopInstanceUid, java.util.function.Predicate<StoredFile> indexer)
            throws IOException {
        IntentJournal.Intent intent = begin(IntentJournal.Op.PUT, path, sopInstanceUid);
        boolean[] changed = {false};
        boolean[] agreed = {false};
        ImageRepository.PutResult result;
        try {
            result = images.install(path, staged, preconditions, stored -> {
                changed[0] = true;
                seam.at(Seam.Point.OBJECT_CHANGED, path.relative());
                agreed[0] = indexer.test(stored);
                seam.at(Seam.Point.INDEXED, path.relative());
                return agreed[0];
            });
        } catch (IOException | RuntimeException e) {
            if (!changed[0]) {
                journal.done(intent);
            }
            throw e;
        }
        if (changed[0]) {
            settledOrRefused(intent, agreed[0], path, "stored");
        } else {
            journal.done(intent);
        }
        seam.at(Seam.Point.ANSWERING, path.relative());
        return result;
    }

    /**
     * Ends a journaled change whose object changed: done when the index agrees with it; otherwise the intent stays
     * open, {@linkplain IntentJournal#unsettled unsettled}, for {@link #settle} to index within seconds of the index
     * being back, and the write is not acknowledged (an acknowledged write is always found by a query).
     */
    private void settledOrRefused(IntentJournal.Intent intent, boolean agreed, StorePath path, String what) {
        if (agreed) {
            journal.done(intent);
            return;
        }
        journal.unsettled(intent);
        throw new StoreException(StoreException.Kind.UNAVAILABLE, path.relative() + " was " + what + ", but the"
                + " index database could not record it, so the write is not confirmed: the store brings the index in"
                + " step by itself within seconds of the database being back; sending it again is safe");
    }

    /**
     * Settles the writes that ended while the index was away (and those a crash left that could not be settled at
     * start): each path's index entry is made to agree with its object. Run every few seconds by the store.
     */
    public Reconciliation.Report settle() {
        return Reconciliation.settle(journal, images, index);
    }

    private IntentJournal.Intent begin(IntentJournal.Op op, StorePath path, String sopInstanceUid) {
        IntentJournal.Intent intent;
        try {
            intent = journal.begin(op, path.relative(), sopInstanceUid);
        } catch (IOException e) {
            throw new StoreException(StoreException.Kind.UNAVAILABLE, "cannot record the write in the intent"
                    + " journal (" + e.getMessage() + "); nothing was changed, try again later", e);
        }
        seam.at(Seam.Point.JOURNALED, path.relative());
        return intent;
    }
}
