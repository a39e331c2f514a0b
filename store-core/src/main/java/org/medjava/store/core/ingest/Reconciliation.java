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
 * index cannot be reached stays in the journal for the next start.
 */
public final class Reconciliation {

    private static final Logger LOG = Logger.getLogger(Reconciliation.class.getName());

    /** What a reconciliation did: intents read, paths indexed again, entries removed, paths left for next time. */
    public record Report(int intents, int indexed, int removed, int failed) {
        public String summary() {
            return "intent journal: " + intents + " interrupted write" + (intents == 1 ? "" : "s") + " reconciled at"
                    + " start: " + indexed + " path" + (indexed == 1 ? "" : "s") + " indexed from the stored object, "
                    + removed + " without an indexable object (entry removed), " + failed
                    + " failed (kept for the next start)";
        }
    }

    private Reconciliation() {
    }

    /** Settles the journal's {@linkplain IntentJournal#leftOver left-over} intents and logs a one-line summary. */
    public static Report run(IntentJournal journal, ImageRepository images, DicomIndex index) throws IOException {
        Map<String, List<IntentJournal.Intent>> byPath = new LinkedHashMap<>();
        for (IntentJournal.Intent intent : journal.leftOver()) {
            byPath.computeIfAbsent(intent.path(), p -> new ArrayList<>()).add(intent);
        }
        int indexed = 0;
        int removed = 0;
        List<IntentJournal.Intent> stillOpen = new ArrayList<>();
        for (Map.Entry<String, List<IntentJournal.Intent>> e : byPath.entrySet()) {
            String path = e.getKey();
            try {
                boolean isIndexed = images.withPathLock(StorePath.parse(path),
                        () -> index.reindex(images.storage(), path));
                if (isIndexed) {
                    indexed++;
                } else {
                    removed++;
                }
            } catch (IOException | RuntimeException failure) {
                LOG.log(Level.WARNING, "cannot reconcile the interrupted write of " + path + " now ("
                        + failure.getMessage() + "); the next start tries again", failure);
                stillOpen.addAll(e.getValue());
            }
        }
        journal.recovered(stillOpen);
        Report report = new Report(journal.leftOver().size(), indexed, removed,
                (int) stillOpen.stream().map(IntentJournal.Intent::path).distinct().count());
        LOG.info(report.summary());
        return report;
    }
}
