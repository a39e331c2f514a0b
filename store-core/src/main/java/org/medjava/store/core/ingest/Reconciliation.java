package org.medjava.store.core.ingest;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.model.StorePath;

/**
 * The start-up half of the {@link IntentJournal}: every write a crash left open is settled by making the index entry
 * of its path agree with the object the path holds now — indexed again from it, or removed when there is none or it
 * is not DICOM (roll forward; see {@link IntentJournal} for why). Each path is settled under its lock, so a live
 * writer of the same path (another node of a cluster) finishes first and its write stands. A path whose storage or
 * index cannot be reached stays in the journal as unsettled, and {@link #settle} (run every few seconds) settles it
 * once they are back, like the writes that ended while the index was away.
 */
public final class Reconciliation {

    private static final Logger LOG = Logger.getLogger(Reconciliation.class.getName());

    /** What a reconciliation did: intents read, paths indexed again, entries removed, paths left for next time. */
    public record Report(int intents, int indexed, int removed, int failed) {
        public String summary() {
            return "intent journal: " + intents + " interrupted write" + (intents == 1 ? "" : "s") + " reconciled at"
                    + " start: " + indexed + " path" + (indexed == 1 ? "" : "s") + " indexed from the stored object, "
                    + removed + " without an indexable object (entry removed), " + failed
                    + " failed (settled once the storage and index are back)";
        }
    }

    private Reconciliation() {
    }

    /** Settles the journal's {@linkplain IntentJournal#leftOver left-over} intents and logs a one-line summary. */
    public static Report run(IntentJournal journal, ImageRepository images, DicomIndex index) throws IOException {
        List<IntentJournal.Intent> stillOpen = new ArrayList<>();
        int[] counts = settle(journal.leftOver(), images, index, stillOpen, true);
        journal.recovered(stillOpen);
        Report report = new Report(journal.leftOver().size(), counts[0], counts[1],
                (int) stillOpen.stream().map(IntentJournal.Intent::path).distinct().count());
        LOG.info(report.summary());
        return report;
    }

    /**
     * Settles the journal's {@linkplain IntentJournal#unsettled() unsettled} intents, those of writes that ended
     * while the index was away, and on a cluster the paths another node's write left unsettled (it died, or the
     * database was away when it ended): run every few seconds. Each one the index now agrees with is done. Quiet
     * while the index stays away; says what it settled once it is back.
     */
    public static Report settle(IntentJournal journal, ImageRepository images, DicomIndex index) {
        List<IntentJournal.Intent> unsettled = journal.unsettled();
        List<IntentJournal.Intent> stillOpen = new ArrayList<>();
        int[] counts = settle(unsettled, images, index, stillOpen, false);
        for (IntentJournal.Intent intent : unsettled) {
            if (!stillOpen.contains(intent)) {
                journal.done(intent);
            }
        }
        int failed = (int) stillOpen.stream().map(IntentJournal.Intent::path).distinct().count();
        int others = 0;
        for (StorePath path : images.unsettledPaths()) {
            try { // another node's: taken only when no live writer holds it (its lease has run out)
                java.util.Optional<Boolean> isIndexed = images.settle(path, false,
                        () -> index.reindex(images.storage(), path.relative()));
                if (isIndexed.isPresent()) {
                    counts[isIndexed.get() ? 0 : 1]++;
                    others++;
                }
            } catch (IOException | RuntimeException failure) {
                LOG.log(Level.FINE, "cannot settle the interrupted write of " + path + " now", failure);
                failed++;
            }
        }
        Report report = new Report(unsettled.size() + others, counts[0], counts[1], failed);
        if (counts[0] + counts[1] > 0) {
            LOG.info("intent journal: " + (counts[0] + counts[1]) + " write(s) the index missed (the database was"
                    + " away, or their node died) now settled: " + counts[0] + " indexed, " + counts[1] + " removed, "
                    + failed + " still waiting");
        }
        return report;
    }

    /** Makes the index of each intent's path agree with its object: {indexed, removed}; the failed into stillOpen. */
    private static int[] settle(List<IntentJournal.Intent> intents, ImageRepository images, DicomIndex index,
                                List<IntentJournal.Intent> stillOpen, boolean atStart) {
        Map<String, List<IntentJournal.Intent>> byPath = new LinkedHashMap<>();
        for (IntentJournal.Intent intent : intents) {
            byPath.computeIfAbsent(intent.path(), p -> new ArrayList<>()).add(intent);
        }
        int[] counts = new int[2];
        for (Map.Entry<String, List<IntentJournal.Intent>> e : byPath.entrySet()) {
            String path = e.getKey();
            try {
                boolean isIndexed = images.settle(StorePath.parse(path), true,
                        () -> index.reindex(images.storage(), path)).orElseThrow();
                counts[isIndexed ? 0 : 1]++;
            } catch (IOException | RuntimeException failure) {
                LOG.log(atStart ? Level.WARNING : Level.FINE, "cannot reconcile the interrupted write of " + path
                        + " now (" + failure.getMessage() + "); tried again every few seconds", failure);
                stillOpen.addAll(e.getValue());
            }
        }
        return counts;
    }
}
