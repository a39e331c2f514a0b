package org.medjava.store.ingest;

import com.pixelmed.dicom.SOPClass;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.medjava.codec.ImageFormat;
import org.medjava.store.index.DicomIndex;
import org.medjava.store.index.IndexEntry;
import org.medjava.store.index.IndexException;
import org.medjava.store.repo.ImageRepository;
import org.medjava.store.repo.Preconditions;
import org.medjava.store.repo.StoreException;
import org.medjava.store.repo.StorePath;
import org.medjava.store.repo.StoredFile;

/**
 * Stores DICOM objects that arrive over the network (C-STORE, STOW-RS, retrieves from a remote PACS) under
 * {@link ArchivePath}, through the repository's write path: a staged file, validated (the same checks as an HTTP
 * PUT, pixel data included), forced to disk, renamed into place under the path's lock, indexed. Nothing half-stored is ever
 * visible; a refused object leaves the store as it was. A SOP Instance UID the store already holds is refused or
 * replaced by the {@link DuplicatePolicy}. Thread-safe.
 */
public final class DicomIngest {

    private static final Logger LOG = Logger.getLogger(DicomIngest.class.getName());

    /**
     * Where the pixel data of received objects are checked, alongside the header checks of the association or
     * request thread. The application's class loader is the threads' context loader: the image decoders (ImageIO
     * plugins in the WAR) are looked up through it.
     */
    private static final ExecutorService VALIDATION = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "ingest-validation");
        t.setDaemon(true);
        t.setContextClassLoader(DicomIngest.class.getClassLoader());
        return t;
    });

    private final ImageRepository images;
    private final DicomIndex index;
    private final DuplicatePolicy policy;

    public DicomIngest(ImageRepository images, DicomIndex index, DuplicatePolicy policy) {
        this.images = images;
        this.index = index;
        this.policy = policy;
    }

    public DuplicatePolicy policy() {
        return policy;
    }

    /** A new staging file for a body being received; hand it to {@link #ingest} when complete. */
    public Path newStagingFile() throws IOException {
        return images.newStagingFile("net-");
    }

    /**
     * Stores the complete Part 10 file {@code staged} (from {@link #newStagingFile}); the staged file is consumed
     * whatever happens. The file is read once and parsed once; uncompressed pixel data in the common layouts are
     * checked on that parse, others are decoded (as an HTTP PUT's are) on another thread while the header is checked.
     * Meanwhile the file is being forced to disk; while its directory is being forced to disk after the rename, it is
     * indexed. When this returns, the object is durable and indexed.
     *
     * @throws IngestFailure with the DICOM status and a reason; nothing was stored
     */
    public Ingested ingest(Path staged, Expected expected) throws IngestFailure {
        try {
            ImageRepository.StagedFile stage = images.startSync(staged);
            byte[] bytes = ReceivedDataSet.readBytes(staged, images.maxUploadBytes());
            ReceivedDataSet received = ReceivedDataSet.parse(bytes);
            ReceivedHeader header = received.identity();
            CompletableFuture<Void> pixelsChecked = images.validator().surelyDecodes(received.dataSet(),
                    header.transferSyntaxUid()) ? CompletableFuture.completedFuture(null)
                    : CompletableFuture.runAsync(() -> checkPixels(bytes), VALIDATION);
            expected.check(header);
            if (!SOPClass.isImageStorage(header.sopClassUid())) {
                throw new IngestFailure(IngestFailure.Reason.SOP_CLASS_NOT_SUPPORTED, "SOP class "
                        + header.sopClassUid() + " is not an image storage SOP class; the store keeps images");
            }
            StorePath path = ArchivePath.of(header);
            List<String> existing = index.pathsOf(header.sopInstanceUid());
            if (!existing.isEmpty() && policy == DuplicatePolicy.REJECT) {
                throw duplicate(header.sopInstanceUid(), existing.get(0));
            }
            IndexEntry entry = indexEntry(path, received);
            await(pixelsChecked);
            Preconditions create = policy == DuplicatePolicy.REJECT ? new Preconditions(null, "*") : Preconditions.NONE;
            images.install(path, stage, ImageFormat.DICOM, create, stored -> index(path, entry, stored));
            boolean replaced = !existing.isEmpty();
            if (replaced) {
                removeOtherCopies(header.sopInstanceUid(), existing, path);
            }
            LOG.log(Level.FINE, "stored {0} at {1}{2}", new Object[] {header.sopInstanceUid(), path,
                    replaced ? " (replaced)" : ""});
            return new Ingested(header.sopClassUid(), header.sopInstanceUid(), header.studyInstanceUid(),
                    header.seriesInstanceUid(), path, replaced);
        } catch (StoreException e) {
            throw translate(e);
        } catch (IOException e) {
            throw new IngestFailure(IngestFailure.Reason.OUT_OF_RESOURCES, "cannot write the object: " + e, e);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "storing a received object failed", e);
            throw new IngestFailure(IngestFailure.Reason.PROCESSING_FAILURE, "the store failed: " + e.getMessage(), e);
        } finally {
            try {
                Files.deleteIfExists(staged);
            } catch (IOException e) {
                LOG.log(Level.FINE, "staged file left behind (removed at the next start): " + staged, e);
            }
        }
    }

    /** The checks an HTTP PUT gets: the whole data set parses, its first frame decodes (or cannot be decoded here). */
    private void checkPixels(byte[] bytes) {
        try {
            images.validator().checkDicom(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void await(CompletableFuture<Void> check) throws IOException {
        try {
            check.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof UncheckedIOException u) {
                throw u.getCause();
            }
            throw cause instanceof RuntimeException r ? r : new IllegalStateException(cause);
        }
    }

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

    /** As for any write: the file is the truth, an index that cannot be updated is repaired by a rebuild. */
    private void index(StorePath path, IndexEntry entry, StoredFile stored) {
        if (entry == null) {
            return;
        }
        try {
            index.put(entry, stored.size(), stored.modified().toEpochMilli());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "index not updated for " + path + " (" + e.getMessage()
                    + "); POST /admin/index/rebuild repairs it", e);
        }
    }

    /** Copies of a replaced object that the network put elsewhere (an earlier Patient ID) go; others stay. */
    private void removeOtherCopies(String sopInstanceUid, List<String> existing, StorePath kept) throws IOException {
        for (String copy : existing) {
            if (!copy.equals(kept.relative()) && copy.startsWith(ArchivePath.ROOT + "/")) {
                try {
                    images.delete(StorePath.parse(copy), Preconditions.NONE);
                } catch (StoreException e) {
                    LOG.log(Level.WARNING, "replaced {0}, but its older copy {1} could not be removed: {2}",
                            new Object[] {sopInstanceUid, copy, e.getMessage()});
                }
            }
        }
    }

    private static IngestFailure duplicate(String sopInstanceUid, String where) {
        return new IngestFailure(IngestFailure.Reason.DUPLICATE_SOP_INSTANCE, "duplicate: SOP Instance stored already"
                + " and the duplicate policy is reject (" + sopInstanceUid + " at " + where + ")");
    }

    private static IngestFailure translate(StoreException e) {
        return switch (e.kind()) {
            case PRECONDITION_FAILED -> new IngestFailure(IngestFailure.Reason.DUPLICATE_SOP_INSTANCE,
                    "the SOP Instance arrived twice at once; the duplicate policy is reject", e);
            case TOO_LARGE, UNAVAILABLE -> new IngestFailure(IngestFailure.Reason.OUT_OF_RESOURCES, e.getMessage(), e);
            case UNSUPPORTED_MEDIA_TYPE, UNPROCESSABLE, BAD_REQUEST -> new IngestFailure(
                    IngestFailure.Reason.CANNOT_UNDERSTAND,
                    e.getMessage().replace("the body is", "the data set is"), e);
            default -> new IngestFailure(IngestFailure.Reason.PROCESSING_FAILURE, e.getMessage(), e);
        };
    }
}
