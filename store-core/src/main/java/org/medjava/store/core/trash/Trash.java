package org.medjava.store.core.trash;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.audit.AuditEvents;
import org.medjava.store.core.audit.AuditTrail;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.index.Change;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.StudyQuery;
import org.medjava.store.core.index.StudySummary;
import org.medjava.store.core.index.TrashScope;
import org.medjava.store.core.index.Trashed;
import org.medjava.store.core.index.TrashedFile;
import org.medjava.store.core.metrics.StoreMetrics;
import org.medjava.store.core.repo.Hidden;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.storage.StorageEntry;

/**
 * The one door for deleting studies, series and instances: delayed deletion through a trash. A deletion takes what
 * it names from users at once (out of the index, so no query, retrieve or listing finds it; its files hidden from
 * reads by path) in one short transaction whatever its size, and keeps the files for a grace period during which
 * it can be restored; then the purge removes them in the background, one file at a time under its path's lock,
 * never a file written at the same path since. A guard refuses a deletion of a large share of the store unless it
 * is forced.
 *
 * <p>On several nodes the trash is in the shared database: every node's index doors see a deletion at once, and
 * each node's hidden-file set follows the change feed ({@link #refresh}, every second).
 */
public final class Trash implements Hidden {
    private static final System.Logger LOG = System.getLogger(Trash.class.getName());
    /** Files purged per round of {@link #purgeDue}; the next round takes the rest. */
    private static final int PURGE_BATCH = 500;
    private static final int LIST_LIMIT = 100_000;

    /**
     * @param grace          how long deleted files stay restorable
     * @param guardShare     the share of the store's instances (0..1) above which a deletion must be forced
     * @param guardInstances deletions of fewer instances than this are never held by the guard
     */
    public record Settings(Duration grace, double guardShare, long guardInstances) {
        public Settings {
            if (grace.isNegative() || guardShare < 0 || guardShare > 1 || guardInstances < 0) {
                throw new IllegalArgumentException("grace >= 0, 0 <= guardShare <= 1, guardInstances >= 0");
            }
        }
    }

    /** What a restore or purge of one deletion did, file by file. */
    public record Outcome(String trashId, int restored, int purged, int replaced, int failed) {
    }

    private final DicomIndex index;
    private final ImageRepository images;
    private final Settings settings;
    private final AuditTrail audit;
    private final StoreMetrics metrics;
    private final Clock clock;
    /** Trash changes read per query while catching up with the feed. */
    private static final int FEED_PAGE = 10_000;

    /** The hidden files: path → {size, modified ms}; brought up to date by {@link #refresh}, read without locks. */
    private final Map<String, long[]> marks = new java.util.concurrent.ConcurrentHashMap<>();
    /** The number of the change feed's entry {@link #marks} reflects. */
    private long seen;

    public Trash(DicomIndex index, ImageRepository images, Settings settings, AuditTrail audit, StoreMetrics metrics,
            Clock clock) {
        this.index = index;
        this.images = images;
        this.settings = settings;
        this.audit = audit;
        this.metrics = metrics;
        this.clock = clock;
        this.seen = index.lastChange();
        this.marks.putAll(index.trashMarks());
        images.hide(this);
    }

    public Settings settings() {
        return settings;
    }

    @Override
    public boolean hides(String key, long size, Instant modified) {
        long[] mark = marks.get(key);
        return mark != null && mark[0] == size && mark[1] == modified.toEpochMilli();
    }

    /** How many files are in the trash (as this node last saw it). */
    public int size() {
        return marks.size();
    }

    /**
     * Moves what {@code scope} names into the trash, at {@code caller}'s request.
     *
     * @param force  whether a deletion over the guard goes ahead (the caller checks that an administrator asked)
     * @param reason why, for the trash listing and the audit trail (may be null)
     * @throws StoreException NOT_FOUND when nothing matches, CONFLICT (naming the share and how to force it) when
     *                        the guard holds it
     */
    public Trashed delete(TrashScope scope, String reason, boolean force, Caller caller) {
        long files = index.count(scope);
        if (files == 0) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, "no " + scope + " in the store");
        }
        long total = Math.max(files, index.counts().instances());
        if (!force && files >= settings.guardInstances() && files > settings.guardShare() * total) {
            throw new StoreException(StoreException.Kind.CONFLICT, "deleting " + scope + " would take " + files
                    + " of the store's " + total + " instances (" + Math.round(100.0 * files / total) + "%), more than"
                    + " medjava.delete.guard-share (" + Math.round(100 * settings.guardShare()) + "%) allows at once;"
                    + " an administrator can repeat the request with force=true");
        }
        String patientId = patientOf(scope.studyInstanceUid());
        Instant now = clock.instant();
        Trashed trashed = index.trash(scope, UUID.randomUUID().toString(), caller == null ? null : caller.user(),
                reason, now, now.plus(settings.grace()));
        refresh();
        metrics.trash(Change.DELETED, trashed.instances());
        audit.record(AuditEvents.studyChanged(caller, false, scope.studyInstanceUid(), patientId, scope + ": "
                + trashed.instances() + " instances to the trash " + trashed.trashId() + ", purged after "
                + trashed.purgeAfter() + (reason == null ? "" : " (" + reason + ")"), true, null));
        LOG.log(System.Logger.Level.INFO, "{0}: {1} instances moved to the trash {2}", scope, trashed.instances(),
                trashed.trashId());
        return trashed;
    }

    /**
     * Moves the instances an IOCM rejection note names to the trash, as one deletion (whatever is still there; the
     * guard does not hold a rejection: the sender has decided). {@code noteSopInstanceUid} is the note's own UID,
     * for the reason; {@code caller} is who sent the note.
     */
    public Trashed reject(RejectionNote note, String noteSopInstanceUid, Caller caller) {
        String trashId = UUID.randomUUID().toString();
        Instant now = clock.instant();
        String reason = "IOCM rejection note " + noteSopInstanceUid + ": " + note.title();
        int instances = 0;
        Trashed last = null;
        for (TrashScope scope : note.rejected()) {
            last = index.reject(scope, trashId, caller == null ? null : caller.user(), reason, now,
                    now.plus(settings.grace()));
            instances += last.instances();
        }
        refresh();
        metrics.trash(Change.DELETED, instances);
        TrashScope first = note.rejected().get(0);
        audit.record(AuditEvents.studyChanged(caller, false, first.studyInstanceUid(),
                patientOf(first.studyInstanceUid()), instances + " instances to the trash " + trashId + " by "
                        + reason, true, null));
        LOG.log(System.Logger.Level.INFO, "{0}: {1} of {2} instances moved to the trash {3}", reason, instances,
                note.rejected().size(), trashId);
        return new Trashed(trashId, first, instances, last.purgeAfter());
    }

    /**
     * Keeps the previous version of an instance that a correction rewrote, as a file of the deletion
     * {@code trashId} (level {@link TrashedFile#VERSION}): hidden from reads, restorable and purged like any trashed
     * file. {@code path} is the file (still at the instance's path when the correction moved it, else a copy); an
     * instance indexed there leaves the index. The caller audits the correction as a whole; {@code caller} is named
     * as who deleted the version.
     */
    public TrashedFile keep(String path, String trashId, String studyInstanceUid, String seriesInstanceUid,
            String sopInstanceUid, long size, long modifiedMillis, String reason, Caller caller) {
        Instant now = clock.instant();
        TrashedFile file = new TrashedFile(path, trashId, TrashedFile.VERSION, studyInstanceUid, seriesInstanceUid,
                sopInstanceUid, size, modifiedMillis, now, now.plus(settings.grace()),
                caller == null ? null : caller.user(), reason);
        index.hold(file);
        refresh();
        return file;
    }

    /**
     * Gives one kept file back at once (a correction that failed after keeping it): indexed again if it is still
     * the file kept, else only out of the trash.
     */
    public void giveBack(TrashedFile file) throws IOException {
        images.withPathLock(StorePath.parse(file.path()),
                () -> stillThere(file) ? index.restore(images.storage(), file) : index.purged(file));
        refresh();
    }

    private String patientOf(String studyInstanceUid) {
        List<StudySummary> studies = index.studies(StudyQuery.all().studyInstanceUid(studyInstanceUid));
        return studies.isEmpty() ? null : studies.get(0).patientId();
    }

    /** The deletions in the trash, oldest first: each with its files (see {@link TrashedFile}). */
    public Map<String, List<TrashedFile>> list() {
        return byDeletion(index.trashed(null, LIST_LIMIT));
    }

    /** The files of one deletion. @throws StoreException NOT_FOUND when there is no such deletion in the trash */
    public List<TrashedFile> files(String trashId) {
        List<TrashedFile> files = index.trashed(trashId, LIST_LIMIT);
        if (files.isEmpty()) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, "no deletion " + trashId + " in the trash");
        }
        return files;
    }

    /**
     * Gives back what a deletion took: each file still as it was is indexed again (a "restored" change); one
     * replaced since (a new file at its path) leaves the trash as purged. A previous version a correction kept
     * ({@link TrashedFile#VERSION}) becomes the instance again: the version that replaced it goes to the trash first
     * (a deletion of its own, so that it can be restored in turn), so each SOP Instance is indexed once.
     * {@code caller} is who asked, for the audit trail.
     */
    public Outcome restore(String trashId, Caller caller) {
        List<TrashedFile> files = files(trashId);
        int restored = 0;
        int replaced = 0;
        int failed = 0;
        String superseding = UUID.randomUUID().toString();
        for (TrashedFile f : files) {
            try {
                if (f.level().equals(TrashedFile.VERSION)) {
                    supersede(f, superseding, "replaced by the previous version restored from " + trashId, caller);
                }
                Boolean done = images.withPathLock(StorePath.parse(f.path()), () -> {
                    if (!stillThere(f)) {
                        index.purged(f);
                        return null;
                    }
                    return index.restore(images.storage(), f);
                });
                if (done == null) {
                    replaced++;
                } else if (done) {
                    restored++;
                } else {
                    failed++;
                }
            } catch (IOException | RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "restoring {0} from the trash failed: {1}", f.path(),
                        e.toString());
                failed++;
            }
        }
        refresh();
        metrics.trash(Change.RESTORED, restored);
        TrashedFile first = files.get(0);
        audit.record(AuditEvents.studyChanged(caller, true, first.studyInstanceUid(),
                patientOf(first.studyInstanceUid()), "restored from the trash " + trashId + ": " + restored
                        + " instances" + (replaced > 0 ? ", " + replaced + " replaced since" : "")
                        + (failed > 0 ? ", " + failed + " failed" : ""), failed == 0, failed == 0 ? null
                        : failed + " files could not be restored (see the server log)"));
        return new Outcome(trashId, restored, 0, replaced, failed);
    }

    /** Moves the other files of {@code kept}'s SOP Instance, if it is still there, to the trash {@code trashId}. */
    private void supersede(TrashedFile kept, String trashId, String reason, Caller caller) throws IOException {
        if (!images.withPathLock(StorePath.parse(kept.path()), () -> stillThere(kept))) {
            return;
        }
        for (String other : index.pathsOf(kept.sopInstanceUid())) {
            if (other.equals(kept.path())) {
                continue;
            }
            images.withPathLock(StorePath.parse(other), () -> {
                Optional<StorageEntry> entry = images.storage().stat(other);
                if (entry.isPresent() && !entry.get().directory()) {
                    keep(other, trashId, kept.studyInstanceUid(), kept.seriesInstanceUid(), kept.sopInstanceUid(),
                            entry.get().size(), entry.get().modified().toEpochMilli(), reason, caller);
                }
                return null;
            });
        }
    }

    /** Purges one deletion now, before its grace period ends, at {@code caller}'s request. */
    public Outcome purge(String trashId, Caller caller) {
        return purgeAll(trashId, files(trashId), caller);
    }

    /**
     * Purges the files whose grace period has ended (a round of the background purge; on several nodes each file is
     * purged once, under its path's cluster-wide lock).
     *
     * @return how many files were purged
     */
    public int purgeDue() {
        int total = 0;
        List<TrashedFile> due;
        while (!(due = index.dueForPurge(clock.instant(), PURGE_BATCH)).isEmpty()) {
            int before = total;
            for (Map.Entry<String, List<TrashedFile>> e : byDeletion(due).entrySet()) {
                Outcome o = purgeAll(e.getKey(), e.getValue(), Caller.STORE);
                total += o.purged() + o.replaced();
            }
            if (total == before) {
                break; // nothing could be purged this round (storage down?): the next round tries again
            }
        }
        return total;
    }

    /** Files grouped by their deletion, in the order given. */
    private static Map<String, List<TrashedFile>> byDeletion(List<TrashedFile> files) {
        Map<String, List<TrashedFile>> byDeletion = new LinkedHashMap<>();
        for (TrashedFile f : files) {
            byDeletion.computeIfAbsent(f.trashId(), k -> new java.util.ArrayList<>()).add(f);
        }
        return byDeletion;
    }

    private Outcome purgeAll(String trashId, List<TrashedFile> files, Caller caller) {
        int purged = 0;
        int replaced = 0;
        int failed = 0;
        for (TrashedFile f : files) {
            try {
                Boolean deleted = images.withPathLock(StorePath.parse(f.path()), () -> {
                    boolean same = stillThere(f);
                    if (same) {
                        images.storage().delete(f.path());
                    }
                    return index.purged(f) ? same : null;
                });
                if (Boolean.TRUE.equals(deleted)) {
                    purged++;
                } else if (Boolean.FALSE.equals(deleted)) {
                    replaced++;
                }
            } catch (IOException | RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "purging {0} from the trash failed (tried again later): {1}",
                        f.path(), e.toString());
                failed++;
            }
        }
        refresh();
        metrics.trash(Change.PURGED, purged + replaced);
        if (purged + replaced > 0 || failed > 0) {
            TrashedFile first = files.get(0);
            audit.record(AuditEvents.studyChanged(caller, false, first.studyInstanceUid(), null, "purged from the"
                    + " trash " + trashId + ": " + purged + " files deleted" + (replaced > 0 ? ", " + replaced
                    + " replaced since" : ""), failed == 0, failed == 0 ? null : failed + " files could not be"
                    + " deleted yet (see the server log)"));
        }
        return new Outcome(trashId, 0, purged, replaced, failed);
    }

    /** Whether the storage still holds the file that was trashed (not one written at its path since). */
    private boolean stillThere(TrashedFile f) throws IOException {
        Optional<StorageEntry> entry = images.storage().stat(f.path());
        return entry.isPresent() && !entry.get().directory()
                && f.isFile(entry.get().size(), entry.get().modified().toEpochMilli());
    }

    /**
     * Brings the hidden-file set in step with the trash: applies the trash's entries of the change feed since the
     * last look (this node's and other nodes' deletions, restores and purges), so the work is that of the changes,
     * not of the whole trash; one cheap query when nothing changed.
     */
    public synchronized void refresh() {
        List<Change> changes;
        while (!(changes = index.trashChanges(seen, FEED_PAGE)).isEmpty()) {
            Map<String, Map<String, long[]>> deletions = new java.util.HashMap<>();
            for (Change c : changes) {
                if (c.intoTrash()) {
                    long[] mark = deletions.computeIfAbsent(c.trashId(), this::marksOf).get(c.path());
                    if (mark != null) { // else restored or purged since
                        marks.put(c.path(), mark);
                    }
                } else {
                    marks.remove(c.path());
                }
                seen = c.seq();
            }
        }
    }

    private Map<String, long[]> marksOf(String trashId) {
        Map<String, long[]> files = new java.util.HashMap<>();
        for (TrashedFile f : index.trashed(trashId, Integer.MAX_VALUE)) {
            files.put(f.path(), new long[] {f.size(), f.lastModified()});
        }
        return files;
    }
}
