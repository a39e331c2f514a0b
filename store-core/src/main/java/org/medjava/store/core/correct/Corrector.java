package org.medjava.store.core.correct;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeFactory;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.TagFromName;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntConsumer;
import java.util.stream.Collectors;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.audit.AuditEvents;
import org.medjava.store.core.audit.AuditTrail;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.InstanceSummary;
import org.medjava.store.core.index.SeriesSummary;
import org.medjava.store.core.index.TrashedFile;
import org.medjava.store.core.ingest.ArchivePath;
import org.medjava.store.core.ingest.Expected;
import org.medjava.store.core.ingest.Ingest;
import org.medjava.store.core.ingest.Part10Rewrite;
import org.medjava.store.core.metrics.StoreMetrics;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.model.Preconditions;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.model.StoredFile;
import org.medjava.store.core.storage.LocalCopy;
import org.medjava.store.core.trash.Trash;

/**
 * Corrects the patient and study attributes of a stored study ({@link Correction#ATTRIBUTES}; never a UID, as IHE
 * and dcm4chee correct data): every instance is written again through {@link Part10Rewrite} (pixel data byte for
 * byte) and stored through {@link Ingest#replace}, atomically under its path's lock, indexed as "updated"; the
 * previous version of each goes to the {@link Trash} as a file of one deletion per correction (level
 * {@link TrashedFile#VERSION}), restorable until the grace period ends: the old file itself when the Patient ID
 * changed (the corrected one has another {@link ArchivePath}), else a copy under {@value #KEPT}. An object put at a
 * path of its own (HTTP PUT) stays at that path. The old and new
 * values, who and why are recorded in the audit trail ({@link AuditEvents#corrected}).
 *
 * <p>A study is corrected by one correction at a time on this node (another is refused: 409); an instance written
 * while it is corrected fails the correction (409) and keeps that write. A correction that fails part-way says how
 * far it got: the instances done carry the new values, the others the old, and running it again finishes it.
 */
public final class Corrector {
    /** Where copies of previous versions are kept (when the corrected version takes their path). */
    public static final String KEPT = "corrected";

    /** What a correction of one study did. */
    public record Outcome(String studyInstanceUid, int instances, Map<String, String> oldValues,
                          Map<String, String> newValues, String trashId) {
    }

    private final DicomIndex index;
    private final ImageRepository images;
    private final Ingest ingest;
    private final Trash trash;
    private final StoreMetrics metrics;
    private final AuditTrail audit;
    private final Set<String> busy = ConcurrentHashMap.newKeySet();

    public Corrector(DicomIndex index, ImageRepository images, Ingest ingest, Trash trash, StoreMetrics metrics) {
        this.index = index;
        this.images = images;
        this.ingest = ingest;
        this.trash = trash;
        this.metrics = metrics;
        this.audit = ingest.auditTrail();
    }

    /**
     * The instances of a study that can be corrected now, in series then instance order.
     *
     * @throws StoreException NOT_FOUND for a study the store does not hold, CONFLICT for one in the trash or being
     *                        corrected, TOO_LARGE above {@code maxInstances}
     */
    public List<InstanceSummary> instances(String studyInstanceUid, int maxInstances) {
        if (busy.contains(studyInstanceUid)) {
            throw busy(studyInstanceUid);
        }
        return load(studyInstanceUid, maxInstances);
    }

    private List<InstanceSummary> load(String studyInstanceUid, int maxInstances) {
        List<SeriesSummary> series = index.series(studyInstanceUid);
        if (series.isEmpty()) {
            List<String> deletions = index.deletionsOf(studyInstanceUid);
            if (!deletions.isEmpty()) {
                throw new StoreException(StoreException.Kind.CONFLICT, "study " + studyInstanceUid + " is in the"
                        + " trash (deletion " + deletions.get(0) + "): restore it (POST /trash/" + deletions.get(0)
                        + "/restore) before correcting it");
            }
            throw new StoreException(StoreException.Kind.NOT_FOUND, "the store holds no study " + studyInstanceUid);
        }
        long count = series.stream().mapToLong(SeriesSummary::numberOfSeriesRelatedInstances).sum();
        if (count > maxInstances) {
            throw new StoreException(StoreException.Kind.TOO_LARGE, "study " + studyInstanceUid + " has " + count
                    + " instances, more than the " + maxInstances + " one correction may rewrite; an administrator"
                    + " can raise the limit with the setting medjava.jobs.max-series-instances");
        }
        List<InstanceSummary> instances = new ArrayList<>();
        for (SeriesSummary s : series) {
            instances.addAll(index.instances(s.seriesInstanceUid()));
        }
        return instances;
    }

    private static StoreException busy(String studyInstanceUid) {
        return new StoreException(StoreException.Kind.CONFLICT, "study " + studyInstanceUid + " is being corrected"
                + " already; wait for that correction to end");
    }

    /**
     * Corrects one study: {@code correction}'s values in every instance; {@code progress} hears the number of
     * instances done; {@code caller} is who asked, for the audit trail and the trash.
     *
     * @throws StoreException as {@link #instances}; CONFLICT when an instance was written or deleted meanwhile,
     *                        UNPROCESSABLE or UNAVAILABLE when an instance could not be corrected (the message says
     *                        how many were)
     */
    public Outcome correct(String studyInstanceUid, Correction correction, int maxInstances, IntConsumer progress,
                           Caller caller) {
        if (!busy.add(studyInstanceUid)) {
            throw busy(studyInstanceUid);
        }
        try {
            List<InstanceSummary> instances = load(studyInstanceUid, maxInstances);
            return correct(studyInstanceUid, instances, correction, progress, caller);
        } finally {
            busy.remove(studyInstanceUid);
        }
    }

    private Outcome correct(String study, List<InstanceSummary> instances, Correction correction,
                            IntConsumer progress, Caller caller) {
        String trashId = UUID.randomUUID().toString();
        Map<String, String> oldValues = new LinkedHashMap<>();
        String oldPatientId = instances.get(0).patientId();
        String newPatientId = correction.values().getOrDefault("PatientID", oldPatientId);
        String reason = "corrected" + (correction.reason() == null ? "" : ": " + correction.reason());
        int done = 0;
        for (InstanceSummary i : instances) {
            try {
                correctOne(study, i, correction, oldValues, trashId, reason, caller);
            } catch (IOException | RuntimeException e) {
                metrics.corrected("corrected", done);
                metrics.corrected("failed", instances.size() - done);
                String failure = "failed at instance " + (done + 1) + " of " + instances.size() + " (" + i.path()
                        + "): " + e.getMessage() + "; " + done + " corrected (previous versions in the trash "
                        + trashId + "), the others keep their values: correct the study again to finish";
                audit.record(AuditEvents.corrected(caller, study, oldPatientId,
                        newPatientId, describe(oldValues, correction, trashId), false, failure));
                throw new StoreException(e instanceof StoreException s ? s.kind() : StoreException.Kind.UNAVAILABLE,
                        failure, e);
            }
            progress.accept(++done);
        }
        metrics.corrected("corrected", done);
        audit.record(AuditEvents.corrected(caller, study, oldPatientId, newPatientId,
                describe(oldValues, correction, trashId), true, null));
        return new Outcome(study, done, oldValues, correction.values(), trashId);
    }

    /** "PatientName: "OLD" -> "NEW"; ...; reason ...; previous versions in the trash ...". */
    static String describe(Map<String, String> oldValues, Correction correction, String trashId) {
        String changes = correction.values().entrySet().stream().map(e -> e.getKey() + ": \""
                + oldValues.getOrDefault(e.getKey(), "") + "\" -> \"" + e.getValue() + "\"")
                .collect(Collectors.joining("; "));
        return "corrected " + changes + (correction.reason() == null ? "" : "; reason: " + correction.reason())
                + "; previous versions in the trash " + trashId;
    }

    private void correctOne(String study, InstanceSummary i, Correction correction, Map<String, String> oldValues,
                            String trashId, String reason, Caller caller) throws IOException {
        StorePath path = StorePath.parse(i.path());
        StoredFile before = images.stat(path).orElseThrow(() -> new StoreException(StoreException.Kind.CONFLICT,
                i.path() + " was deleted while the study was being corrected"));
        Path staged = ingest.newStagingFile();
        try (LocalCopy copy = images.localCopy(path)) {
            String[] patientId = {i.patientId()};
            try (OutputStream out = Files.newOutputStream(staged)) {
                Part10Rewrite.rewrite(copy.path(), out, list -> {
                    edit(list, correction.values(), oldValues);
                    patientId[0] = Attribute.getSingleStringValueOrEmptyString(list, TagFromName.PatientID);
                    return list;
                });
            }
            // an object in the archive's layout follows its Patient ID; one put at a path of its own stays there
            StorePath target = i.path().startsWith(ArchivePath.ROOT + "/") ? ArchivePath.of(patientId[0], study,
                    i.seriesInstanceUid(), i.sopInstanceUid()) : path;
            Expected same = new Expected(i.sopClassUid(), i.sopInstanceUid(), study);
            if (target.relative().equals(path.relative())) {
                keepCopy(copy.path(), study, i, trashId, reason, caller);
                ingest.replace(staged, path, same, new Preconditions(before.etag(), null), caller);
            } else {
                TrashedFile kept = images.withPathLock(path, () -> {
                    StoredFile now = images.stat(path).orElse(null);
                    if (now == null || !now.etag().equals(before.etag())) {
                        throw new StoreException(StoreException.Kind.CONFLICT, i.path() + " was written or deleted"
                                + " while the study was being corrected; it was left as that made it");
                    }
                    return trash.keep(i.path(), trashId, study, i.seriesInstanceUid(), i.sopInstanceUid(),
                            now.size(), now.modified().toEpochMilli(), reason, caller);
                });
                try {
                    ingest.replace(staged, target, same, Preconditions.NONE, caller);
                } catch (RuntimeException e) {
                    trash.giveBack(kept); // the previous version is the instance again
                    throw e;
                }
            }
        } finally {
            Files.deleteIfExists(staged);
        }
    }

    /** A copy of the previous version under {@value #KEPT}, in the trash before the corrected version replaces it. */
    private void keepCopy(Path previous, String study, InstanceSummary i, String trashId, String reason,
                          Caller caller) throws IOException {
        StorePath kept = StorePath.parse(KEPT + "/" + trashId + "/" + i.sopInstanceUid() + ".dcm");
        Path staged = images.newStagingFile("kept-");
        Files.copy(previous, staged, StandardCopyOption.REPLACE_EXISTING);
        StoredFile file = images.install(kept, images.stage(staged), Preconditions.NONE, stored -> true).file();
        trash.keep(kept.relative(), trashId, study, i.seriesInstanceUid(), i.sopInstanceUid(), file.size(),
                file.modified().toEpochMilli(), reason, caller);
    }

    /** Puts the new values in {@code list}; the first instance's old values are noted. */
    static void edit(AttributeList list, Map<String, String> values, Map<String, String> oldValues) {
        for (Map.Entry<String, String> v : values.entrySet()) {
            AttributeTag tag = AttributeList.getDictionary().getTagFromName(v.getKey());
            oldValues.putIfAbsent(v.getKey(), Attribute.getSingleStringValueOrEmptyString(list, tag));
            try {
                Attribute a = AttributeFactory.newAttribute(tag);
                a.addValue(v.getValue());
                list.put(a);
            } catch (DicomException e) {
                throw new StoreException(StoreException.Kind.BAD_REQUEST, v.getKey() + " cannot be \""
                        + v.getValue() + "\": " + e.getMessage(), e);
            }
        }
    }
}
