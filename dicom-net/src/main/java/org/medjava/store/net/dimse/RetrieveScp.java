package org.medjava.store.net.dimse;

import org.medjava.store.core.audit.AuditEvents;
import org.medjava.store.core.audit.AuditTrail;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.audit.ReadAudit;
import org.medjava.store.core.deid.DeidRefused;
import org.medjava.store.core.deid.SendDeidentification;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.storage.LocalCopy;
import org.medjava.store.core.ingest.Part10File;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.SOPClass;
import com.pixelmed.network.DicomNetworkException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.medjava.store.core.index.IndexException;
import org.medjava.store.core.index.InstanceSummary;
import org.medjava.store.core.index.Visibility;
import org.medjava.store.core.query.ArchiveQuery;
import org.medjava.store.core.query.ArchiveSearch;
import org.medjava.store.core.query.QueryLevel;

/**
 * C-MOVE and C-GET SCP: the identifier's unique keys (PatientID, StudyInstanceUID, SeriesInstanceUID or
 * SOPInstanceUID lists, by level) select instances from the index, and the stored files are sent as they are by the
 * {@link StorageSender}: to a configured move destination on a new association, or back on the C-GET association.
 * A move destination that de-identifies gets copies made by the {@link SendDeidentification} under its secret (the
 * same UIDs on every move); an instance the de-identification refuses is not sent and its sub-operation fails. C-GET
 * sends to the caller itself, as stored. A pending response follows every sub-operation; the final one counts
 * completed and failed ones. The instances sent are counted per study by the audit of reads: a read by the caller
 * (C-GET, or a C-MOVE to itself), an export otherwise; a de-identified send is recorded at once as an export per
 * study saying so, with the new Study Instance UID and what was not sent; a retrieve with failed sub-operations is
 * also recorded at once as a transfer that failed.
 */
final class RetrieveScp {

    private static final Logger LOG = Logger.getLogger(RetrieveScp.class.getName());
    /** Refused: out of resources, unable to perform sub-operations (every one failed). */
    private static final int UNABLE_TO_PERFORM = 0xA702;

    private final ArchiveSearch search;
    private final ImageRepository images;
    private final String aeTitle;
    private final Map<String, MoveDestination> destinations;
    private final AuditTrail audit;
    private final ReadAudit reads;
    private final java.util.function.Function<String, Visibility> visibility;

    /** The study and patient of a selected instance, for the audit of reads. */
    private record StudyOf(String studyInstanceUid, String patientId) {
    }

    /** @param visibility the studies a calling AE title may retrieve */
    RetrieveScp(ArchiveSearch search, ImageRepository images, String aeTitle, Map<String, MoveDestination> destinations,
                AuditTrail audit, ReadAudit reads, java.util.function.Function<String, Visibility> visibility) {
        this.search = search;
        this.images = images;
        this.aeTitle = aeTitle;
        this.destinations = destinations;
        this.audit = audit;
        this.reads = reads;
        this.visibility = visibility;
    }

    void handle(Exchange x) throws DicomNetworkException, IOException {
        boolean move = x.request().commandField() == DimseMessages.C_MOVE_RQ;
        MoveDestination destination = move ? destinations.get(x.request().moveDestination()) : null;
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

    private void send(Exchange x, boolean move, MoveDestination to, List<Part10File> files,
                      List<LocalCopy> copies) throws DicomNetworkException, IOException {
        RemoteAe destination = move ? to.ae() : null;
        int unreadable;
        Map<String, String> keys = new HashMap<>();
        Map<String, StudyOf> studies = new HashMap<>();
        try {
            unreadable = select(x, files, copies, keys, studies);
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
        Map<StudyOf, Integer> sent = new LinkedHashMap<>();
        Map<StudyOf, Integer> failedByStudy = new LinkedHashMap<>();
        Map<StudyOf, String> firstError = new HashMap<>(); // of a de-identified send, for its audit
        StorageSender.Listener pending = (file, status, error, counts) -> {
            StudyOf study = studies.get(file.sopInstanceUid());
            if (study != null && (status == DimseStatus.SUCCESS || (status & 0xF000) == 0xB000)) {
                sent.merge(study, 1, Integer::sum);
            } else if (study != null) {
                failedByStudy.merge(study, 1, Integer::sum);
                firstError.putIfAbsent(study, error);
            }
            if (counts.remaining() > 0) {
                try {
                    x.send(x.response(DimseStatus.PENDING).counts(counts.remaining(), counts.completed(),
                            counts.failed(), counts.warning()));
                } catch (DicomNetworkException | IOException e) {
                    LOG.log(Level.FINE, "pending response not sent", e);
                }
            }
        };
        SendDeidentification deid = move && to.deidentifies() ? to.deidentification() : null;
        StorageSender.Counts counts = !move ? StorageSender.sendOn(x.association(), files, pending)
                : StorageSender.send(destination, aeTitle, files, x.callingAe(), x.request().messageId(), pending,
                        deid == null ? StorageSender.Preparation.AS_STORED : new Deidentifying(deid, studies));
        finish(x, counts, unreadable);
        Caller caller = x.caller();
        boolean export = move && !destination.aeTitle().equals(x.callingAe());
        if (deid != null) { // at once and always, as a routing rule's: what left, and as what
            sent.forEach((study, n) -> {
                int failed = failedByStudy.getOrDefault(study, 0);
                audit.record(AuditEvents.exported(caller, DimseServer.DOOR, Instant.now(), destination.aeTitle(),
                        destination.host(), study.studyInstanceUid(), study.patientId(), n + " instances sent"
                                + " de-identified (" + deid.describe() + ") as study "
                                + deid.mapUid(study.studyInstanceUid()) + " to " + destination.aeTitle() + " by "
                                + x.request().name() + " from " + x.callingAe() + (failed == 0 ? ""
                                : "; " + failed + " not sent, the first: " + firstError.get(study)), true, null));
            });
        } else {
            sent.forEach((study, n) -> {
                if (export) {
                    reads.export(caller, DimseServer.DOOR, destination.aeTitle(), destination.host(),
                            study.studyInstanceUid(), study.patientId(), n);
                } else {
                    reads.read(caller, DimseServer.DOOR, study.studyInstanceUid(), study.patientId(), n);
                }
            });
        }
        int failed = counts.failed() + unreadable;
        if (failed > 0) { // what was sent is counted above; the failure is recorded now (PS3.15 Instances Transferred)
            audit.record(AuditEvents.exchanged(caller, false, move ? destination.aeTitle() : x.callingAe(),
                    move ? destination.host() : null, keys.get("StudyInstanceUID"), false, x.request().name()
                            + " from " + x.callingAe() + ": " + counts.completed() + " sent" + (deid == null ? ""
                            : " de-identified") + ", " + failed + " failed"));
        }
    }

    /**
     * Fills {@code files} with the instances the identifier selects, read from local copies of the stored objects
     * (kept in {@code copies} until they are sent), {@code uniqueKeys} with the identifier's unique keys and
     * {@code studies} with the study of each instance by SOP Instance UID; returns how many could not be read.
     */
    private int select(Exchange x, List<Part10File> files, List<LocalCopy> copies, Map<String, String> uniqueKeys,
                       Map<String, StudyOf> studies)
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
        for (InstanceSummary i : search.instances(ArchiveQuery.of(QueryLevel.IMAGE, uniqueKeys)
                .visibleTo(visibility.apply(x.callingAe())))) {
            bySop.putIfAbsent(i.sopInstanceUid(), i.path());
            studies.putIfAbsent(i.sopInstanceUid(), new StudyOf(i.studyInstanceUid(), i.patientId()));
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

    /**
     * De-identified copies in staging files, removed once sent; an instance the de-identification refuses (or that
     * fails to be copied) is not sent at all: its sub-operation fails.
     */
    private final class Deidentifying implements StorageSender.Preparation {
        private final SendDeidentification deid;
        private final Map<String, StudyOf> studies;

        Deidentifying(SendDeidentification deid, Map<String, StudyOf> studies) {
            this.deid = deid;
            this.studies = studies;
        }

        @Override
        public Part10File prepare(Part10File stored) throws StorageSender.NotSendable {
            StudyOf study = studies.get(stored.sopInstanceUid());
            Path copy = null;
            try {
                copy = images.newStagingFile("deid-");
                deid.deidentify(stored.file(), copy, study == null ? null : study.patientId());
                return Part10File.read(copy);
            } catch (DeidRefused e) {
                delete(copy);
                throw new StorageSender.NotSendable(stored.sopInstanceUid() + ": not sent, it cannot be"
                        + " de-identified (" + e.getMessage() + ")");
            } catch (IOException | RuntimeException e) {
                delete(copy);
                throw new StorageSender.NotSendable(stored.sopInstanceUid() + ": not sent, the de-identified copy"
                        + " failed: " + e.getMessage());
            }
        }

        @Override
        public void done(Part10File prepared) {
            delete(prepared.file());
        }

        private static void delete(Path copy) {
            try {
                if (copy != null) {
                    Files.deleteIfExists(copy);
                }
            } catch (IOException e) {
                LOG.log(Level.FINE, "staging file " + copy + " left", e);
            }
        }
    }
}
