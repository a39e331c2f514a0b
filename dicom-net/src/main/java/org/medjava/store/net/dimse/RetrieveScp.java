package org.medjava.store.net.dimse;

import org.medjava.store.core.audit.AuditEvents;
import org.medjava.store.core.audit.AuditTrail;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.repo.StorePath;
import org.medjava.store.core.storage.LocalCopy;
import org.medjava.store.core.ingest.Part10File;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.SOPClass;
import com.pixelmed.network.DicomNetworkException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.medjava.store.core.index.IndexException;
import org.medjava.store.core.index.InstanceSummary;
import org.medjava.store.core.query.ArchiveQuery;
import org.medjava.store.core.query.ArchiveSearch;
import org.medjava.store.core.query.QueryLevel;

/**
 * C-MOVE and C-GET SCP: the identifier's unique keys (PatientID, StudyInstanceUID, SeriesInstanceUID or
 * SOPInstanceUID lists, by level) select instances from the index, and the stored files are sent as they are by the
 * {@link StorageSender}: to a configured move destination on a new association, or back on the C-GET association.
 * A pending response follows every sub-operation; the final one counts completed and failed ones.
 */
final class RetrieveScp {

    private static final Logger LOG = Logger.getLogger(RetrieveScp.class.getName());
    /** Refused: out of resources, unable to perform sub-operations (every one failed). */
    private static final int UNABLE_TO_PERFORM = 0xA702;

    private final ArchiveSearch search;
    private final ImageRepository images;
    private final String aeTitle;
    private final Map<String, RemoteAe> destinations;
    private final AuditTrail audit;

    RetrieveScp(ArchiveSearch search, ImageRepository images, String aeTitle, Map<String, RemoteAe> destinations,
                AuditTrail audit) {
        this.search = search;
        this.images = images;
        this.aeTitle = aeTitle;
        this.destinations = destinations;
        this.audit = audit;
    }

    void handle(Exchange x) throws DicomNetworkException, IOException {
        boolean move = x.request().commandField() == DimseMessages.C_MOVE_RQ;
        RemoteAe destination = move ? destinations.get(x.request().moveDestination()) : null;
        if (move && destination == null) {
            x.send(x.response(DimseStatus.MOVE_DESTINATION_UNKNOWN).errorComment("move destination "
                    + x.request().moveDestination() + " is not configured"));
            return;
        }
        List<Part10File> files = new ArrayList<>();
        List<LocalCopy> copies = new ArrayList<>();
        try {
            send(x, move, destination, files, copies);
        } finally {
            copies.forEach(LocalCopy::close);
        }
    }

    private void send(Exchange x, boolean move, RemoteAe destination, List<Part10File> files, List<LocalCopy> copies)
            throws DicomNetworkException, IOException {
        int unreadable;
        Map<String, String> keys = new HashMap<>();
        try {
            unreadable = select(x, files, copies, keys);
        } catch (QueryIdentifier.Invalid e) {
            x.send(x.response(e.status).errorComment(e.getMessage()).offendingElement(e.offending));
            return;
        } catch (DicomException | IllegalArgumentException e) {
            x.send(x.response(DimseStatus.IDENTIFIER_DOES_NOT_MATCH_SOP_CLASS).errorComment(e.getMessage()));
            return;
        } catch (IndexException e) {
            LOG.log(Level.WARNING, "retrieve from " + x.callingAe() + " failed", e);
            x.send(x.response(DimseStatus.OUT_OF_RESOURCES).errorComment("the index failed: " + e.getMessage()));
            return;
        }
        StorageSender.Listener pending = (file, status, error, counts) -> {
            if (counts.remaining() > 0) {
                try {
                    x.send(x.response(DimseStatus.PENDING).counts(counts.remaining(), counts.completed(),
                            counts.failed(), counts.warning()));
                } catch (DicomNetworkException | IOException e) {
                    LOG.log(Level.FINE, "pending response not sent", e);
                }
            }
        };
        StorageSender.Counts counts = move
                ? StorageSender.send(destination, aeTitle, files, x.callingAe(), x.request().messageId(), pending)
                : StorageSender.sendOn(x.association(), files, pending);
        finish(x, counts, unreadable);
        // Instances leaving the store (PS3.15 DICOM Instances Transferred), for the AE that asked, bound as the caller
        int failed = counts.failed() + unreadable;
        audit.record(AuditEvents.exchanged(Caller.current().orElse(null), false,
                move ? destination.aeTitle() : x.callingAe(), move ? destination.host() : null,
                keys.get("StudyInstanceUID"), failed == 0, x.request().name() + " from " + x.callingAe() + ": "
                        + counts.completed() + " sent, " + failed + " failed"));
    }

    /**
     * Fills {@code files} with the instances the identifier selects, read from local copies of the stored objects
     * (kept in {@code copies} until they are sent), and {@code uniqueKeys} with the identifier's unique keys; returns
     * how many could not be read.
     */
    private int select(Exchange x, List<Part10File> files, List<LocalCopy> copies, Map<String, String> uniqueKeys)
            throws QueryIdentifier.Invalid, DicomException, IOException, DicomNetworkException {
        String sopClass = x.request().sopClassUid();
        boolean patientRoot = SOPClass.isPatientRootCompositeInstanceRetrieveWithMove(sopClass)
                || SOPClass.isPatientRootCompositeInstanceRetrieveWithGet(sopClass);
        QueryIdentifier id = QueryIdentifier.read(x.identifier(), patientRoot);
        for (QueryLevel level : QueryLevel.values()) {
            String value = id.query().keys().get(level.uniqueKey());
            if (level.ordinal() <= id.level().ordinal() && value != null) {
                uniqueKeys.put(level.uniqueKey(), value);
            }
        }
        if (!uniqueKeys.containsKey(id.level().uniqueKey())) {
            throw new QueryIdentifier.Invalid(DimseStatus.IDENTIFIER_DOES_NOT_MATCH_SOP_CLASS, "a retrieve at the "
                    + id.level() + " level needs " + id.level().uniqueKey(), null);
        }
        Map<String, String> bySop = new LinkedHashMap<>();
        for (InstanceSummary i : search.instances(ArchiveQuery.of(QueryLevel.IMAGE, uniqueKeys))) {
            bySop.putIfAbsent(i.sopInstanceUid(), i.path());
        }
        int unreadable = 0;
        for (String path : bySop.values()) {
            try {
                LocalCopy copy = images.localCopy(StorePath.parse(path));
                copies.add(copy);
                files.add(Part10File.read(copy.path()));
            } catch (IOException e) {
                unreadable++; // deleted meanwhile
            }
        }
        return unreadable;
    }

    private static void finish(Exchange x, StorageSender.Counts c, int unreadable) throws DicomNetworkException,
            IOException {
        int failed = c.failed() + unreadable;
        int status = failed == 0 ? DimseStatus.SUCCESS
                : c.completed() + c.warning() > 0 ? DimseStatus.SUB_OPERATIONS_FAILED : UNABLE_TO_PERFORM;
        DimseMessages.Response response = x.response(status).counts(-1, c.completed(), failed, c.warning());
        if (!c.errors().isEmpty()) {
            response.errorComment(c.errors().get(0));
        }
        x.send(response);
        LOG.log(failed == 0 ? Level.FINE : Level.INFO, "{0} from {1}: {2} sent, {3} failed{4}", new Object[] {
                x.request().name(), x.callingAe(), c.completed(), failed,
                c.errors().isEmpty() ? "" : " (" + String.join("; ", c.errors()) + ")"});
    }
}
