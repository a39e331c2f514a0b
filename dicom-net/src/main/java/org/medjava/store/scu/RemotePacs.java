package org.medjava.store.scu;

import org.medjava.store.repo.ImageRepository;
import org.medjava.store.repo.StorePath;
import org.medjava.store.storage.LocalCopy;
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
import org.medjava.store.audit.AuditEvents;
import org.medjava.store.audit.Caller;
import org.medjava.store.ingest.Part10File;
import org.medjava.store.dimse.RemoteAe;
import org.medjava.store.dimse.StorageSender;
import org.medjava.store.index.InstanceSummary;
import org.medjava.store.ingest.Ingest;
import org.medjava.store.ingest.Expected;
import org.medjava.store.ingest.IngestFailure;
import org.medjava.store.query.ArchiveQuery;
import org.medjava.store.query.ArchiveSearch;
import org.medjava.store.query.QueryLevel;
import org.medjava.store.StoreException;

/**
 * The store as a DICOM SCU toward the configured remote PACS ({@code medjava.dicom.remotes}): C-ECHO; C-FIND (Study
 * Root); retrieval into the store by C-MOVE (the remote sends to the store's own SCP, so it must know the store's AE
 * title) or by C-GET (received on the same association and stored through {@link Ingest}); and C-STORE of the
 * store's instances, sent as stored.
 */
public final class RemotePacs {

    private static final Logger LOG = Logger.getLogger(RemotePacs.class.getName());

    /**
     * What a retrieve did.
     *
     * @param status           the remote's final status (0 success)
     * @param stored           objects the store gained
     * @param failed           objects that could not be retrieved or stored; -1 for a failed C-MOVE (whose SCU
     *                         reports only the status)
     * @param instancesInStore instances of the requested study/series/instance the store holds now
     */
    public record RetrieveResult(String method, int status, int stored, int failed, List<String> errors,
                                 long instancesInStore) {
    }

    /** What a send did. */
    public record SendResult(int completed, int failed, int warning, List<String> errors) {
    }

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
            new VerificationSOPClassSCU(r.host(), r.port(), r.aeTitle(), aeTitle, false);
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
            new FindSOPClassSCU(r.host(), r.port(), r.aeTitle(), aeTitle,
                    SOPClass.StudyRootQueryRetrieveInformationModelFind, identifier, collect);
        } catch (DicomNetworkException | DicomException | IOException e) {
            throw unreachable(r, "C-FIND", e);
        }
        return matches;
    }

    /**
     * Retrieves a study, series or instance ({@code keys}: StudyInstanceUID and optionally SeriesInstanceUID and
     * SOPInstanceUID) into the store, by C-MOVE to the store's own AE title or by C-GET.
     */
    public RetrieveResult retrieve(RemoteAe r, Map<String, String> keys, boolean get) {
        QueryLevel level = keys.containsKey("SOPInstanceUID") ? QueryLevel.IMAGE
                : keys.containsKey("SeriesInstanceUID") ? QueryLevel.SERIES : QueryLevel.STUDY;
        AttributeList identifier = Identifiers.of(level, keys, List.of());
        RetrieveResult result;
        try {
            result = get ? get(r, level, keys, identifier) : move(r, identifier);
        } catch (RuntimeException e) {
            audited(r, true, keys, false, e.getMessage());
            throw e;
        }
        audited(r, true, keys, result.status() == 0, result.method() + ": status 0x"
                + Integer.toHexString(result.status()) + ", " + result.stored() + " stored, " + result.failed()
                + " failed");
        LOG.log(Level.INFO, "{0} from {1}: status 0x{2}, {3} stored here, {4} failed", new Object[] {
                result.method(), r, Integer.toHexString(result.status()), result.stored(), result.failed()});
        return result;
    }

    /** C-MOVE to the store's own AE title; the objects arrive through the store's SCP while this waits. */
    private RetrieveResult move(RemoteAe r, AttributeList identifier) {
        long before = inStore(identifier);
        try {
            MoveSOPClassSCU move = new MoveSOPClassSCU(r.host(), r.port(), r.aeTitle(), aeTitle, aeTitle,
                    SOPClass.StudyRootQueryRetrieveInformationModelMove, identifier);
            int status = move.getStatus();
            long after = inStore(identifier);
            // PixelMed's SCU reports the final status only: "stored" counts what is new in the store
            return new RetrieveResult("C-MOVE", status, (int) (after - before), status == 0 ? 0 : -1,
                    status == 0 ? List.of() : List.of("the remote answered status 0x" + Integer.toHexString(status)),
                    after);
        } catch (DicomNetworkException | DicomException | IOException e) {
            throw unreachable(r, "C-MOVE", e);
        }
    }

    private RetrieveResult get(RemoteAe r, QueryLevel level, Map<String, String> keys, AttributeList identifier) {
        Set<String> sopClasses = sopClassesAt(r, keys);
        if (sopClasses.isEmpty()) {
            return new RetrieveResult("C-GET", 0, 0, 0, List.of("the remote has no such instances"),
                    inStore(identifier));
        }
        Path folder;
        try {
            folder = Files.createDirectories(workDir).resolve("get-" + System.nanoTime());
            Files.createDirectories(folder);
        } catch (IOException e) {
            throw new StoreException(StoreException.Kind.UNAVAILABLE, "cannot receive: " + e.getMessage(), e);
        }
        Receiver receiver = new Receiver();
        // what the remote sends back on this association is recorded as coming from it
        try (Caller.Binding bound = Caller.bind(Caller.dicom(r.aeTitle(), r.host()))) {
            new GetSOPClassSCU(r.host(), r.port(), r.aeTitle(), aeTitle,
                    SOPClass.StudyRootQueryRetrieveInformationModelGet, identifier, new IdentifierHandler(),
                    folder.toFile(), StoredFilePathStrategy.BYSOPINSTANCEUIDINSINGLEFOLDER, receiver, sopClasses,
                    true, true, true);
        } catch (DicomNetworkException | DicomException | IOException e) {
            throw unreachable(r, "C-GET", e);
        } finally {
            deleteTree(folder);
        }
        return new RetrieveResult("C-GET", receiver.failed == 0 ? 0 : 0xB000, receiver.stored, receiver.failed,
                receiver.errors, inStore(identifier));
    }

    /** The SOP classes of what a C-GET will bring, from a C-FIND at the image level (they must be proposed). */
    private Set<String> sopClassesAt(RemoteAe r, Map<String, String> keys) {
        Set<String> classes = new LinkedHashSet<>();
        for (Map<String, String> m : find(r, QueryLevel.IMAGE, keys, List.of("SOPClassUID", "SOPInstanceUID",
                "SeriesInstanceUID"))) {
            String c = m.get("SOPClassUID");
            if (c != null && SOPClass.isImageStorage(c)) {
                classes.add(c);
            }
        }
        return classes;
    }

    /** Stores each object the C-GET delivers. */
    private final class Receiver extends ReceivedObjectHandler {
        int stored;
        int failed;
        final List<String> errors = new ArrayList<>();

        @Override
        public void sendReceivedObjectIndication(String fileName, String transferSyntax, String callingAe) {
            try {
                Path staged = ingest.newStagingFile();
                Files.move(Path.of(fileName), staged, StandardCopyOption.REPLACE_EXISTING);
                ingest.receive(staged, Expected.NOTHING);
                stored++;
            } catch (IngestFailure e) {
                fail(e.getMessage());
            } catch (IOException e) {
                fail("cannot keep a received object: " + e.getMessage());
            }
        }

        private void fail(String error) {
            failed++;
            if (errors.size() < 5) {
                errors.add(error);
            }
        }
    }

    /** C-STORE of the store's instances selected by {@code keys} to the remote, as stored; audited. */
    public SendResult send(RemoteAe r, Map<String, String> keys) {
        SendResult result;
        try {
            result = sendSelected(r, keys);
        } catch (RuntimeException e) {
            audited(r, false, keys, false, e.getMessage());
            throw e;
        }
        audited(r, false, keys, result.failed() == 0, "C-STORE: " + result.completed() + " sent, " + result.failed()
                + " failed, " + result.warning() + " with warnings");
        return result;
    }

    /** One audit record of a retrieve or send (PS3.15 DICOM Instances Transferred), for whoever asked. */
    private void audited(RemoteAe r, boolean retrieve, Map<String, String> keys, boolean success, String what) {
        ingest.auditTrail().record(AuditEvents.exchanged(Caller.current().orElse(null), retrieve, r.aeTitle(),
                r.host(), keys.get("StudyInstanceUID"), success, what));
    }

    private SendResult sendSelected(RemoteAe r, Map<String, String> keys) {
        List<Part10File> files = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        Map<String, InstanceSummary> bySop = new LinkedHashMap<>();
        for (InstanceSummary i : search.instances(ArchiveQuery.of(QueryLevel.IMAGE, keys))) {
            bySop.putIfAbsent(i.sopInstanceUid(), i);
        }
        if (bySop.isEmpty()) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, "the store has no instances matching " + keys);
        }
        List<LocalCopy> copies = new ArrayList<>();
        StorageSender.Counts c;
        try {
            for (InstanceSummary i : bySop.values()) {
                try {
                    LocalCopy copy = images.localCopy(StorePath.parse(i.path()));
                    copies.add(copy);
                    files.add(Part10File.read(copy.path()));
                } catch (IOException e) {
                    errors.add(i.path() + ": " + e.getMessage());
                }
            }
            c = StorageSender.send(r, aeTitle, files, null, 0, (f, s, e, counts) -> { });
        } finally {
            copies.forEach(LocalCopy::close);
        }
        errors.addAll(c.errors());
        return new SendResult(c.completed(), c.failed() + (bySop.size() - files.size()), c.warning(), errors);
    }

    private long inStore(AttributeList identifier) {
        Map<String, String> keys = new LinkedHashMap<>();
        for (String k : List.of("StudyInstanceUID", "SeriesInstanceUID", "SOPInstanceUID")) {
            String v = Attribute.getSingleStringValueOrEmptyString(identifier,
                    com.pixelmed.dicom.DicomDictionary.StandardDictionary.getTagFromName(k)).trim();
            if (!v.isEmpty()) {
                keys.put(k, v);
            }
        }
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
