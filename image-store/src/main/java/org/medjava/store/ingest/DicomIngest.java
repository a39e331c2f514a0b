package org.medjava.store.ingest;

import com.pixelmed.dicom.SOPClass;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.medjava.store.index.DicomIndex;
import org.medjava.store.index.InstanceQuery;
import org.medjava.store.index.InstanceSummary;
import org.medjava.store.repo.ImageRepository;
import org.medjava.store.repo.Preconditions;
import org.medjava.store.repo.StoreException;
import org.medjava.store.repo.StorePath;

/**
 * Stores DICOM objects that arrive over the network (C-STORE, STOW-RS, retrieves from a remote PACS) under
 * {@link ArchivePath}, through the repository's own write path: a staged file, validated (the same checks as an
 * HTTP PUT, pixel data included), renamed into place under the path's lock, indexed. Nothing half-stored is ever
 * visible; a refused object leaves the store as it was. A SOP Instance UID the store already holds is refused or
 * replaced by the {@link DuplicatePolicy}. Thread-safe.
 */
public final class DicomIngest {

    private static final Logger LOG = Logger.getLogger(DicomIngest.class.getName());
    private static final String DICOM_TYPE = "application/dicom";

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
     * whatever happens.
     *
     * @throws IngestFailure with the DICOM status and a reason; nothing was stored
     */
    public Ingested ingest(Path staged, Expected expected) throws IngestFailure {
        try {
            ReceivedHeader header = ReceivedHeader.read(staged);
            expected.check(header);
            if (!SOPClass.isImageStorage(header.sopClassUid())) {
                throw new IngestFailure(IngestFailure.Reason.SOP_CLASS_NOT_SUPPORTED, "SOP class "
                        + header.sopClassUid() + " is not an image storage SOP class; the store keeps images");
            }
            StorePath path = ArchivePath.of(header);
            List<InstanceSummary> existing = storedCopies(header.sopInstanceUid());
            if (!existing.isEmpty() && policy == DuplicatePolicy.REJECT) {
                throw duplicate(header.sopInstanceUid(), existing.get(0).path());
            }
            Preconditions create = policy == DuplicatePolicy.REJECT ? new Preconditions(null, "*") : Preconditions.NONE;
            images.putStaged(path, staged, DICOM_TYPE, create);
            boolean replaced = !existing.isEmpty();
            if (replaced) {
                removeOtherCopies(existing, path);
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

    private List<InstanceSummary> storedCopies(String sopInstanceUid) {
        return index.instances(null, InstanceQuery.all().sopInstanceUid(sopInstanceUid));
    }

    /** Copies of a replaced object that the network put elsewhere (an earlier Patient ID) go; others stay. */
    private void removeOtherCopies(List<InstanceSummary> existing, StorePath kept) throws IOException {
        for (InstanceSummary copy : existing) {
            if (!copy.path().equals(kept.relative()) && copy.path().startsWith(ArchivePath.ROOT + "/")) {
                try {
                    images.delete(StorePath.parse(copy.path()), Preconditions.NONE);
                } catch (StoreException e) {
                    LOG.log(Level.WARNING, "replaced {0}, but its older copy {1} could not be removed: {2}",
                            new Object[] {copy.sopInstanceUid(), copy.path(), e.getMessage()});
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
