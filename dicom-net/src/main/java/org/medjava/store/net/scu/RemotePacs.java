package org.medjava.store.net.scu;

import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.storage.LocalCopy;
import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.SOPClass;
import com.pixelmed.dicom.StoredFilePathStrategy;
import com.pixelmed.network.DicomNetworkException;
import com.pixelmed.network.FindSOPClassSCU;
import com.pixelmed.network.GetSOPClassSCU;
import com.pixelmed.network.IdentifierHandler;
import com.pixelmed.network.MoveSOPClassSCU;
import com.pixelmed.network.ReceivedObjectHandler;
import com.pixelmed.network.VerificationSOPClassSCU;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.medjava.store.core.audit.AuditEvents;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.ingest.Part10File;
import org.medjava.store.net.dimse.Initiators;
import org.medjava.store.net.dimse.RemoteAe;
import org.medjava.store.net.dimse.ScpStoreOutcomes;
import org.medjava.store.net.dimse.StorageSender;
import org.medjava.store.core.index.InstanceSummary;
import org.medjava.store.core.ingest.Ingest;
import org.medjava.store.core.ingest.Expected;
import org.medjava.store.core.ingest.IngestFailure;
import org.medjava.store.core.query.ArchiveQuery;
import org.medjava.store.core.query.ArchiveSearch;
import org.medjava.store.core.query.QueryLevel;
import org.medjava.store.core.StoreException;

/**
 * The store as a DICOM SCU toward the configured remote PACS ({@code medjava.dicom.remotes}): C-ECHO; C-FIND (Study
 * Root); retrieval into the store by C-MOVE (the remote sends to the store's own SCP, so it must know the store's AE
 * title) or by C-GET (received on the same association and stored through {@link Ingest}); and C-STORE of the
 * store's instances, sent as stored.
 */
public final class RemotePacs {

    private static final Logger LOG = Logger.getLogger(RemotePacs.class.getName());

    /** An instance a retrieve or send did not bring across, and why (the status in hex when there is one). */
    public record FailedInstance(String sopInstanceUid, String status, String reason) {
    }

    /**
     * What a retrieve did, whatever its final status.
     *
     * @param status           the remote's final status (0 success, B000 some sub-operations failed, C000 ...)
     * @param completed        sub-operations the remote counted as completed (its final response)
     * @param failed           sub-operations that failed: as the remote counted them (less those refused because
     *                         the store holds the instance already), or more when the store refused or never got
     *                         instances it expected from its C-FIND
     * @param warning          sub-operations completed with a warning
     * @param stored           objects the store gained
     * @param alreadyHeld      instances the store held already (its duplicate policy refused the copy, status 0111):
     *                         not failures, though the remote counts them so
     * @param failedInstances  the instances not retrieved, with the reason (the first 1000)
     * @param errors           the first few reasons, in words
     * @param instancesInStore instances of the requested study/series/instance the store holds now
     */
    public record RetrieveResult(String method, int status, int completed, int failed, int warning, int stored,
                                 int alreadyHeld, List<FailedInstance> failedInstances, List<String> errors,
                                 long instancesInStore) {

        /**
         * Every instance asked for arrived or was there already (a remote's failure status is explained when the
         * only failures were copies of instances the store holds).
         */
        public boolean complete() {
            return failed == 0 && failedInstances.isEmpty()
                    && (status == 0 || (status & 0xF000) == 0xB000 || alreadyHeld > 0);
        }
    }

    /** What a send did, whatever its outcome. */
    public record SendResult(int completed, int failed, int warning, List<FailedInstance> failedInstances,
                             List<String> errors) {

        public boolean complete() {
            return failed == 0;
        }
    }

    /** Hears how far a retrieve or send got (instances done of total; total 0 while unknown). */
    @FunctionalInterface
    public interface Progress {
        void update(int done, int total);

        Progress NONE = (done, total) -> { };
    }

    static final int MAX_LISTED = 1000;

    private final Map<String, RemoteAe> remotes;
    private final String aeTitle;
    private final Ingest ingest;
    private final ArchiveSearch search;
    private final ImageRepository images;
    private final Path workDir;

    public RemotePacs(Map<String, RemoteAe> remotes, String aeTitle, Ingest ingest, ArchiveSearch search,
            ImageRepository images, Path workDir) {
        this.remotes = Map.copyOf(remotes);
        this.aeTitle = aeTitle;
        this.ingest = ingest;
        this.search = search;
        this.images = images;
        this.workDir = workDir;
    }

    public Collection<RemoteAe> remotes() {
        return remotes.values();
    }

    public RemoteAe remote(String aeTitle) {
        RemoteAe r = remotes.get(aeTitle);
        if (r == null) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, "no remote PACS " + aeTitle
                    + " (configured: " + remotes.keySet() + ", medjava.dicom.remotes)");
        }
        return r;
    }

    /** C-ECHO; returns the round trip in milliseconds. */
    public long echo(RemoteAe r) {
        long t0 = System.nanoTime();
        try {
            Initiators.Endpoint at = Initiators.endpoint(r);
            new VerificationSOPClassSCU(at.host(), at.port(), r.aeTitle(), aeTitle, false);
        } catch (DicomNetworkException | DicomException | IOException e) {
            throw unreachable(r, "C-ECHO", e);
        }
        return (System.nanoTime() - t0) / 1_000_000;
    }

    /** C-FIND (Study Root) at {@code level}; each match as DICOM keyword → value. */
    public List<Map<String, String>> find(RemoteAe r, QueryLevel level, Map<String, String> matching,
            Collection<String> returnKeys) {
        AttributeList identifier = Identifiers.of(level, matching, returnKeys);
        List<Map<String, String>> matches = new ArrayList<>();
        IdentifierHandler collect = new IdentifierHandler() {
            @Override
            public void doSomethingWithIdentifier(AttributeList match) {
                matches.add(Identifiers.keywords(match));
            }
        };
        try {
            Initiators.Endpoint at = Initiators.endpoint(r);
            new FindSOPClassSCU(at.host(), at.port(), r.aeTitle(), aeTitle,
                    SOPClass.StudyRootQueryRetrieveInformationModelFind, identifier, collect);
        } catch (DicomNetworkException | DicomException | IOException e) {
            throw unreachable(r, "C-FIND", e);
        }
        return matches;
    }

    /**
     * Retrieves a study, series or instance ({@code keys}: StudyInstanceUID and optionally SeriesInstanceUID and
     * SOPInstanceUID) into the store, by C-MOVE to the store's own AE title or by C-GET, at {@code caller}'s request
     * (the audit trail's requestor; what arrives is recorded as coming from the remote).
     */
    public RetrieveResult retrieve(RemoteAe r, Map<String, String> keys, boolean get, Caller caller) {
        return retrieve(r, keys, get, Progress.NONE, caller);
    }

    /** {@link #retrieve(RemoteAe, Map, boolean, Caller)}, telling {@code progress} as the remote's responses come. */
    public RetrieveResult retrieve(RemoteAe r, Map<String, String> keys, boolean get, Progress progress,
                                   Caller caller) {
        RetrieveResult result;
        try {
            result = get ? get(r, keys, progress) : move(r, keys, progress);
        } catch (RuntimeException e) {
            audited(r, true, keys, false, e.getMessage(), caller);
            throw e;
        }
        audited(r, true, keys, result.complete(), result.method() + ": status 0x"
                + Integer.toHexString(result.status()) + ", " + result.stored() + " stored, " + result.alreadyHeld()
                + " already held, " + result.failed() + " failed", caller);
        LOG.log(Level.INFO, "{0} from {1}: status 0x{2}, {3} completed, {4} failed, {5} warning, {6} stored here, "
                + "{7} held already", new Object[] {result.method(), r, Integer.toHexString(result.status()),
                        result.completed(), result.failed(), result.warning(), result.stored(), result.alreadyHeld()});
        return result;
    }

    private static QueryLevel levelOf(Map<String, String> keys) {
        return keys.containsKey("SOPInstanceUID") ? QueryLevel.IMAGE
                : keys.containsKey("SeriesInstanceUID") ? QueryLevel.SERIES : QueryLevel.STUDY;
    }

    /** An instance the remote's C-FIND says it holds. */
    record RemoteInstance(String sopInstanceUid, String sopClassUid, String seriesInstanceUid) {
    }

    /** What the remote holds of {@code keys}, by C-FIND at the image level (what a retrieve should bring). */
    private List<RemoteInstance> remoteInstances(RemoteAe r, Map<String, String> keys) {
        List<RemoteInstance> found = new ArrayList<>();
        for (Map<String, String> m : find(r, QueryLevel.IMAGE, keys, List.of("SOPClassUID", "SOPInstanceUID",
                "SeriesInstanceUID"))) {
            if (m.get("SOPInstanceUID") != null) {
                found.add(new RemoteInstance(m.get("SOPInstanceUID"), m.getOrDefault("SOPClassUID", ""),
                        m.getOrDefault("SeriesInstanceUID", "")));
            }
        }
        return found;
    }

    /** C-MOVE to the store's own AE title; the objects arrive through the store's SCP while this waits. */
    private RetrieveResult move(RemoteAe r, Map<String, String> keys, Progress progress) {
        List<RemoteInstance> expected;
        try {
            expected = remoteInstances(r, keys);
        } catch (StoreException e) { // a remote without image-level C-FIND: the move can still tell its counts
            expected = List.of();
        }
        AttributeList identifier = Identifiers.of(levelOf(keys), keys, List.of());
        long before = inStore(keys);
        Set<String> heldBefore = held(keys);
        RetrieveScu.Outcome o;
        int known = expected.size();
        Set<String> expectedUids = new java.util.HashSet<>();
        expected.forEach(i -> expectedUids.add(i.sopInstanceUid()));
        // the sub-operations arrive on the store's own SCP: hear what it answered the remote
        Map<String, FailedInstance> refused = new java.util.concurrent.ConcurrentHashMap<>();
        try (AutoCloseable listening = ScpStoreOutcomes.listen(r.aeTitle(), (uid, status, comment) -> {
            if (status != 0 && (status & 0xF000) != 0xB000 && (expectedUids.isEmpty() || expectedUids.contains(uid))) {
                refused.putIfAbsent(uid, new FailedInstance(uid, String.format("%04X", status),
                        comment.isBlank() ? "refused by the store" : comment.trim()));
            }
        })) {
            o = RetrieveScu.move(r, aeTitle, SOPClass.StudyRootQueryRetrieveInformationModelMove, aeTitle,
                    identifier, (done, total) -> progress.update(done, Math.max(total, known)));
        } catch (DicomNetworkException | DicomException | IOException e) {
            throw unreachable(r, "C-MOVE", e);
        } catch (Exception e) { // closing the listener throws nothing
            throw new IllegalStateException(e);
        }
        long after = inStore(keys);
        Outcomes outcomes = new Outcomes(null);
        outcomes.heldAlready(expectedUids, heldBefore);
        refused.values().forEach(outcomes::add); // the store's reasons first: the remote's list names only the UID
        outcomes.merge(o);
        Set<String> held = heldOf(expected);
        for (RemoteInstance i : expected) {
            if (!held.contains(i.sopInstanceUid()) && !o.failedSopInstances().contains(i.sopInstanceUid())) {
                outcomes.add(new FailedInstance(i.sopInstanceUid(), null, "not in the store after the C-MOVE"));
            }
        }
        int handled = Math.max(known, o.completed() + o.failed() + o.warning());
        progress.update(handled, handled); // some remotes' final responses carry no counts
        return outcomes.result("C-MOVE", (int) (after - before), after);
    }

    /** The SOP Instance UIDs among {@code instances} the store holds now. */
    private Set<String> heldOf(List<RemoteInstance> instances) {
        Set<String> held = new java.util.HashSet<>();
        for (RemoteInstance i : instances) {
            if (!search.instances(ArchiveQuery.of(QueryLevel.IMAGE, Map.of("SOPInstanceUID", i.sopInstanceUid())))
                    .isEmpty()) {
                held.add(i.sopInstanceUid());
            }
        }
        return held;
    }

    /**
     * C-GET, proposing for every SOP class the remote's C-FIND names each syntax the store keeps; when that is more
     * than one association's 128 contexts, one C-GET per series.
     */
    private RetrieveResult get(RemoteAe r, Map<String, String> keys, Progress progress) {
        List<RemoteInstance> expected = remoteInstances(r, keys);
        if (expected.isEmpty()) {
            return new RetrieveResult("C-GET", 0, 0, 0, 0, 0, 0, List.of(), List.of("the remote has no such instances"),
                    inStore(keys));
        }
        Map<String, List<RemoteInstance>> bySeries = new LinkedHashMap<>();
        for (RemoteInstance i : expected) {
            bySeries.computeIfAbsent(i.seriesInstanceUid(), s -> new ArrayList<>()).add(i);
        }
        List<Map<String, String>> requests = new ArrayList<>();
        if (contextsFor(expected) < RetrieveScu.MAX_CONTEXTS || keys.containsKey("SeriesInstanceUID")) {
            requests.add(keys);
        } else {
            for (String series : bySeries.keySet()) {
                Map<String, String> k = new LinkedHashMap<>(keys);
                k.put("SeriesInstanceUID", series);
                requests.add(k);
            }
        }
        Set<String> heldBefore = held(keys);
        // what the remote sends back on this association is recorded as coming from it
        Receiver receiver = new Receiver(Caller.dicom(r.aeTitle(), r.host()));
        Outcomes outcomes = new Outcomes(null);
        int[] doneBefore = {0};
        try {
            for (Map<String, String> k : requests) {
                List<RemoteInstance> these = k == keys ? expected : bySeries.get(k.get("SeriesInstanceUID"));
                Set<String> classes = new LinkedHashSet<>();
                for (RemoteInstance i : these) {
                    classes.add(i.sopClassUid());
                }
                Set<String> proposed = RetrieveScu.retrievable(classes);
                for (RemoteInstance i : these) {
                    if (!proposed.contains(i.sopClassUid())) {
                        receiver.refused(i.sopInstanceUid(), 0x0122, "the store does not keep SOP class "
                                + i.sopClassUid());
                    }
                }
                proposed = fitting(proposed);
                if (proposed.isEmpty()) {
                    continue;
                }
                int offset = doneBefore[0];
                RetrieveScu.Outcome o = RetrieveScu.get(r, aeTitle,
                        SOPClass.StudyRootQueryRetrieveInformationModelGet,
                        Identifiers.of(levelOf(k), k, List.of()), proposed, receiver,
                        (done, total) -> progress.update(offset + done, expected.size()));
                doneBefore[0] += o.completed() + o.failed() + o.warning();
                outcomes.merge(o);
            }
        } catch (DicomNetworkException | DicomException | IOException e) {
            if (receiver.stored == 0 && receiver.refusals.isEmpty()) {
                throw unreachable(r, "C-GET", e);
            }
            // part of it came: say what, and that the rest did not
            LOG.log(Level.WARNING, "C-GET from " + r + " broke off: " + e);
            outcomes.brokenOff("the association broke off: " + e.getMessage());
        }
        for (Map.Entry<String, FailedInstance> refusal : receiver.refusals.entrySet()) {
            outcomes.add(refusal.getValue());
        }
        for (RemoteInstance i : expected) {
            if (!receiver.received.contains(i.sopInstanceUid())) {
                outcomes.add(new FailedInstance(i.sopInstanceUid(), null, "not received"));
            }
        }
        progress.update(expected.size(), expected.size());
        Set<String> notStoredAnew = new java.util.HashSet<>();
        expected.forEach(i -> notStoredAnew.add(i.sopInstanceUid()));
        notStoredAnew.removeAll(receiver.storedUids); // a copy stored again (the replace policy) is "stored"
        outcomes.heldAlready(notStoredAnew, heldBefore);
        return outcomes.result("C-GET", receiver.stored, inStore(keys));
    }

    private static int contextsFor(List<RemoteInstance> instances) {
        int n = 1;
        for (String c : RetrieveScu.retrievable(instances.stream().map(RemoteInstance::sopClassUid).toList())) {
            n += RetrieveScu.contextsPerClass(c);
        }
        return n;
    }

    /** The SOP classes whose contexts fit one association (a series of very many classes: the first ones). */
    private static Set<String> fitting(Set<String> classes) {
        Set<String> out = new LinkedHashSet<>();
        int n = 1;
        for (String c : classes) {
            int more = RetrieveScu.contextsPerClass(c);
            if (n + more > RetrieveScu.MAX_CONTEXTS) {
                break;
            }
            n += more;
            out.add(c);
        }
        return out;
    }

    /** The remote's counts and the instances that did not come, assembled into a {@link RetrieveResult}. */
    static final class Outcomes {
        /** The status of the store's refusal of a copy of an instance it holds (the duplicate policy reject). */
        static final String ALREADY_HELD = String.format("%04X",
                IngestFailure.Reason.DUPLICATE_SOP_INSTANCE.status);

        int status;
        int completed;
        int failed;
        int warning;
        final Map<String, FailedInstance> failedInstances = new LinkedHashMap<>();
        final List<String> errors = new ArrayList<>();
        /** Instances asked for that the store held before the retrieve (and did not store anew). */
        private final Set<String> held = new java.util.HashSet<>();
        private String finalStatusText = "";

        /** Of {@code asked}, those in {@code heldBefore} are already held, whatever the remote says of them. */
        void heldAlready(Set<String> asked, Set<String> heldBefore) {
            for (String uid : asked) {
                if (heldBefore.contains(uid)) {
                    held.add(uid);
                }
            }
        }

        Outcomes(RetrieveScu.Outcome o) {
            if (o != null) {
                merge(o);
            }
        }

        void merge(RetrieveScu.Outcome o) {
            if (status == 0 || (o.status() & 0xF000) != 0xB000) {
                status = o.status() == 0 && status != 0 ? status : o.status();
            }
            completed += o.completed();
            failed += o.failed();
            warning += o.warning();
            finalStatusText = "the remote reported it failed (final status 0x" + Integer.toHexString(o.status())
                    + (o.errorComment().isEmpty() ? "" : ": " + o.errorComment()) + ")";
            if (o.status() != 0 && !o.errorComment().isEmpty() && errors.size() < 5) {
                errors.add("the remote: " + o.errorComment());
            }
            for (String uid : o.failedSopInstances()) {
                add(new FailedInstance(uid, null, finalStatusText));
            }
        }

        void brokenOff(String why) {
            status = 0xC000;
            errors.add(why);
        }

        /**
         * Adds an instance that did not come, unless it is listed already: the first reason stays, except that a
         * reason with a status (the store's refusal) replaces one without (the remote's bare list).
         */
        void add(FailedInstance f) {
            failedInstances.merge(f.sopInstanceUid(), f, (was, now) -> was.status() == null && now.status() != null
                    ? now : was);
        }

        RetrieveResult result(String method, int stored, long inStore) {
            // a copy the store refused because it holds the instance is no failure, though the remote counts it so
            // (the store refused it, 0111, or held it before the retrieve: a remote that stops at the first failed
            // sub-operation may not even have sent it)
            for (FailedInstance f : failedInstances.values()) {
                if (ALREADY_HELD.equals(f.status())) {
                    this.held.add(f.sopInstanceUid());
                }
            }
            failedInstances.keySet().removeAll(this.held);
            int held = this.held.size();
            // the store's own refusals come first: they name the reason, the remote's list only the status
            int failedCount = Math.max(Math.max(failed - held, 0), failedInstances.size());
            if (failedCount == 0 && held > 0) { // the remote's failure comment was about those copies
                errors.removeIf(e -> e.startsWith("the remote: "));
            }
            if (failedCount > 0 && status == 0) {
                status = 0xB000;
            }
            for (FailedInstance f : failedInstances.values()) {
                if (errors.size() >= 5) {
                    break;
                }
                errors.add(f.sopInstanceUid() + ": " + f.reason());
            }
            return new RetrieveResult(method, status, completed, failedCount, warning, stored, held,
                    List.copyOf(failedInstances.values()).subList(0, Math.min(MAX_LISTED, failedInstances.size())),
                    List.copyOf(errors), inStore);
        }
    }

    /** Stores each object the C-GET delivers through {@link Ingest}; remembers refusals with their reason. */
    private final class Receiver implements RetrieveScu.Sink {
        int stored;
        final Set<String> received = new java.util.HashSet<>();
        final Set<String> storedUids = new java.util.HashSet<>();
        final Map<String, FailedInstance> refusals = new LinkedHashMap<>();
        final Caller from;

        Receiver(Caller from) {
            this.from = from;
        }

        @Override
        public Path newFile() throws IOException {
            return ingest.newStagingFile();
        }

        @Override
        public int received(Path file, String sopClassUid, String sopInstanceUid) {
            received.add(sopInstanceUid);
            try {
                ingest.receive(file, Expected.sop(sopClassUid, sopInstanceUid), from);
                stored++;
                storedUids.add(sopInstanceUid);
                return 0;
            } catch (IngestFailure e) {
                refused(sopInstanceUid, e.status(), e.getMessage());
                return e.status();
            } finally {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    // the staging directory is emptied at the next start
                }
            }
        }

        void refused(String sopInstanceUid, int status, String reason) {
            refusals.putIfAbsent(sopInstanceUid, new FailedInstance(sopInstanceUid, String.format("%04X", status),
                    reason));
        }
    }

    /**
     * C-STORE of the store's instances selected by {@code keys} to the remote, as stored; audited as asked by
     * {@code caller}.
     */
    public SendResult send(RemoteAe r, Map<String, String> keys, Caller caller) {
        return send(r, keys, Progress.NONE, caller);
    }

    /** {@link #send(RemoteAe, Map, Caller)}, telling {@code progress} after each instance. */
    public SendResult send(RemoteAe r, Map<String, String> keys, Progress progress, Caller caller) {
        SendResult result;
        try {
            result = sendSelected(r, keys, progress);
        } catch (RuntimeException e) {
            audited(r, false, keys, false, e.getMessage(), caller);
            throw e;
        }
        audited(r, false, keys, result.failed() == 0, "C-STORE: " + result.completed() + " sent, " + result.failed()
                + " failed, " + result.warning() + " with warnings", caller);
        return result;
    }

    /** One audit record of a retrieve or send (PS3.15 DICOM Instances Transferred), for whoever asked. */
    private void audited(RemoteAe r, boolean retrieve, Map<String, String> keys, boolean success, String what,
                         Caller caller) {
        ingest.auditTrail().record(AuditEvents.exchanged(caller, retrieve, r.aeTitle(),
                r.host(), keys.get("StudyInstanceUID"), success, what));
    }

    private SendResult sendSelected(RemoteAe r, Map<String, String> keys, Progress progress) {
        List<Part10File> files = new ArrayList<>();
        List<FailedInstance> failedInstances = new ArrayList<>();
        Map<String, InstanceSummary> bySop = new LinkedHashMap<>();
        for (InstanceSummary i : search.instances(ArchiveQuery.of(QueryLevel.IMAGE, keys))) {
            bySop.putIfAbsent(i.sopInstanceUid(), i);
        }
        if (bySop.isEmpty()) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, "the store has no instances matching " + keys);
        }
        int total = bySop.size();
        List<LocalCopy> copies = new ArrayList<>();
        StorageSender.Counts c;
        try {
            for (InstanceSummary i : bySop.values()) {
                try {
                    LocalCopy copy = images.localCopy(StorePath.parse(i.path()));
                    copies.add(copy);
                    files.add(Part10File.read(copy.path()));
                } catch (IOException e) {
                    failedInstances.add(new FailedInstance(i.sopInstanceUid(), null, "cannot read the stored "
                            + "object: " + e.getMessage()));
                }
            }
            int unread = failedInstances.size();
            c = StorageSender.send(r, aeTitle, files, null, 0, (f, status, error, counts) -> {
                if (status != 0 && (status & 0xF000) != 0xB000 && failedInstances.size() < MAX_LISTED) {
                    failedInstances.add(new FailedInstance(f.sopInstanceUid(),
                            status < 0 ? null : String.format("%04X", status),
                            error == null || error.isEmpty() ? "status " + String.format("%04X", status) : error));
                }
                progress.update(unread + counts.completed() + counts.failed() + counts.warning(), total);
            });
        } finally {
            copies.forEach(LocalCopy::close);
        }
        List<String> errors = new ArrayList<>();
        for (FailedInstance f : failedInstances) {
            if (errors.size() >= 5) {
                break;
            }
            errors.add(f.sopInstanceUid() + ": " + f.reason());
        }
        return new SendResult(c.completed(), c.failed() + (total - files.size()), c.warning(),
                List.copyOf(failedInstances), errors);
    }

    /** The SOP Instance UIDs of what the store holds of {@code keys}. */
    private Set<String> held(Map<String, String> keys) {
        Set<String> uids = new java.util.HashSet<>();
        for (InstanceSummary i : search.instances(ArchiveQuery.of(QueryLevel.IMAGE, keys))) {
            uids.add(i.sopInstanceUid());
        }
        return uids;
    }

    private long inStore(Map<String, String> keys) {
        return search.instances(ArchiveQuery.of(QueryLevel.IMAGE, keys)).size();
    }

    private static StoreException unreachable(RemoteAe r, String what, Exception e) {
        LOG.log(Level.WARNING, what + " to " + r + " failed: " + e); // the remote's trouble: no stack trace
        return new StoreException(StoreException.Kind.BAD_GATEWAY, what + " to " + r + " failed: " + e.getMessage(),
                e);
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // left for the next start's clean-up
                }
            });
        } catch (IOException e) {
            // nothing there
        }
    }
}
