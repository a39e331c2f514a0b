package org.medjava.store.core.jobs;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import javax.json.Json;
import javax.json.JsonArrayBuilder;
import javax.json.JsonObjectBuilder;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.audit.AuditEvents;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.deid.DeidOption;
import org.medjava.store.core.deid.DeidOptions;
import org.medjava.store.core.deid.DeidRefused;
import org.medjava.store.core.deid.DeidResult;
import org.medjava.store.core.deid.Deidentifier;
import org.medjava.store.core.deid.UidMap;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.InstanceSummary;
import org.medjava.store.core.index.SeriesSummary;
import org.medjava.store.core.ingest.Expected;
import org.medjava.store.core.ingest.Ingest;
import org.medjava.store.core.ingest.IngestFailure;
import org.medjava.store.core.ingest.Ingested;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.model.Preconditions;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.storage.LocalCopy;

/**
 * Writes a de-identified copy of a study (or of one of its series) into the store as a new study: every instance
 * through the {@link Deidentifier} (PS3.15 Annex E Basic Profile and the options asked), all with one {@link UidMap}
 * so that the new study's UIDs and references stay consistent, each result stored through {@link Ingest#receive}.
 * The source is not changed. Parameters: {@code StudyInstanceUID}; optionally {@code SeriesInstanceUID},
 * {@code options} (names of {@link #OPTION_NAMES}, comma-separated), {@code dateShiftDays} (implies
 * {@code retain-longitudinal-modified-dates}), {@code patientName} and {@code patientId} (the pseudonym the new study
 * carries; "ANONYMOUS" and a generated {@code ANON-…} by default). Progress is instances done.
 *
 * <p><b>The UID secret is drawn by each run and forgotten when it ends</b>: it is not a parameter, since parameters
 * are kept in the job record that {@code GET /jobs} shows and the cluster's database holds, and a client that chose it
 * could predict the new UIDs or make them those of another study; it is not in the result either, as nothing can give
 * it back to a job, and with it anyone reading the job record could map every original UID to its new one. The link
 * from the source to the new study is kept where it belongs: the job record and the audit trail. Hence a second run
 * (a repeated request, or a job taken over from a dead node) makes another new study; a cut-off attempt's instances
 * are left in theirs.
 *
 * <p><b>Checked at submission</b> ({@link #validate}): parameters and option names (400; {@code retain-uids} is
 * refused, as the copy would take the source's UIDs), the study and series (404), their size (413 above
 * {@code maxInstances}, the setting {@value DeriveSeriesJob#MAX_INSTANCES_SETTING}).
 *
 * <p><b>Per instance</b>: one the engine refuses ({@link DeidRefused}), or that the ingest door refuses as data, is
 * not stored and is listed in the result with the reason; one whose pixels may show burned-in text
 * ({@link DeidResult#pixelsNeedReview}) is stored and listed as needing review (flagged, not hidden). When the store
 * fails, or the job is cancelled or lost, the instances this run wrote are removed before it ends, and its result
 * says so. A finished or failed run with something written is recorded in the audit trail
 * ({@link AuditEvents#deidentified}).
 */
public final class DeidentifyJob implements JobKind {

    public static final String KIND = "deidentify";
    public static final String DEFAULT_PATIENT_NAME = DeidOptions.PSEUDONYM_NAME;
    /** The options by their parameter names. */
    public static final Map<String, DeidOption> OPTION_NAMES = DeidOption.BY_NAME;
    /** A hundred years either way. */
    static final int MAX_SHIFT_DAYS = 36_600;
    private static final List<String> PARAMS = List.of("StudyInstanceUID", "SeriesInstanceUID", "options",
            "dateShiftDays", "patientName", "patientId");
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Logger LOG = Logger.getLogger(DeidentifyJob.class.getName());

    private final DicomIndex index;
    private final ImageRepository images;
    private final Ingest ingest;
    private final int maxInstances;

    public DeidentifyJob(DicomIndex index, ImageRepository images, Ingest ingest, int maxInstances) {
        this.index = index;
        this.images = images;
        this.ingest = ingest;
        this.maxInstances = maxInstances;
    }

    /** What the parameters ask for. */
    private record Plan(String study, String series, DeidOptions options, String patientName, String patientId,
                        String optionNames) {
    }

    @Override
    public void validate(Map<String, String> params) {
        Plan plan = plan(params);
        sources(plan);
    }

    @Override
    public String run(Map<String, String> params, Progress progress, Caller owner) {
        Plan plan = plan(params);
        List<InstanceSummary> sources = sources(plan); // it may have changed since the submission
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        UidMap uids = new UidMap(secret);
        Arrays.fill(secret, (byte) 0);
        String patientId = plan.patientId() != null ? plan.patientId()
                : "ANON-" + HexFormat.of().withUpperCase().formatHex(randomBytes(5));
        Deidentifier engine = new Deidentifier(plan.options().withPseudonym(plan.patientName(), patientId), uids);
        String newStudy = uids.map(plan.study());
        String sourcePatientId = sources.get(0).patientId();
        Outcome outcome = new Outcome(owner);
        int total = sources.size();
        try {
            progress.update(0, total);
        } catch (JobQueue.Cancelled e) {
            throw new JobQueue.Cancelled("cancelled after 0 of " + total + "; nothing had been written");
        }
        for (InstanceSummary source : sources) {
            try {
                deidentify(engine, source, outcome);
            } catch (RuntimeException | IOException e) {
                String undone = undo(outcome.written, owner);
                audit(plan, sourcePatientId, newStudy, outcome, false, "failed; " + undone);
                throw new StoreException(e instanceof StoreException s ? s.kind() : StoreException.Kind.UNPROCESSABLE,
                        "failed at instance " + (outcome.done() + 1) + " of " + total + " (" + source.path() + "): "
                                + e.getMessage() + "; " + undone, e);
            }
            try {
                progress.update(outcome.done(), total);
            } catch (JobQueue.Cancelled e) {
                String undone = undo(outcome.written, owner);
                audit(plan, sourcePatientId, newStudy, outcome, false, "cancelled; " + undone);
                throw new JobQueue.Cancelled("cancelled after " + outcome.done() + " of " + total + "; " + undone);
            } catch (JobQueue.Lost e) {
                LOG.warning(e.getMessage() + "; " + undo(outcome.written, owner));
                throw e;
            }
        }
        if (!outcome.written.isEmpty()) {
            audit(plan, sourcePatientId, newStudy, outcome, true, null);
        }
        return result(plan, newStudy, patientId, total, outcome);
    }

    /** What a run did so far, for whom. */
    private static final class Outcome {
        final Caller owner;
        final List<Ingested> written = new ArrayList<>();
        final JsonArrayBuilder refusals = Json.createArrayBuilder();
        final JsonArrayBuilder review = Json.createArrayBuilder();
        int refused;
        int needsReview;

        Outcome(Caller owner) {
            this.owner = owner;
        }
        final Set<String> series = new LinkedHashSet<>();

        int done() {
            return written.size() + refused;
        }
    }

    /** De-identifies and stores one instance, or notes why it was refused. */
    private void deidentify(Deidentifier engine, InstanceSummary source, Outcome outcome) throws IOException {
        Path staged = ingest.newStagingFile();
        DeidResult result;
        try (LocalCopy copy = images.localCopy(StorePath.parse(source.path()));
             OutputStream out = Files.newOutputStream(staged)) {
            result = engine.deidentify(copy.path(), out);
        } catch (DeidRefused e) {
            Files.deleteIfExists(staged);
            refuse(outcome, source, e.attribute(), e.getMessage());
            return;
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(staged);
            throw e;
        }
        Ingested stored;
        try {
            stored = ingest.receive(staged, Expected.NOTHING, outcome.owner);
        } catch (IngestFailure e) {
            if (e.reason() == IngestFailure.Reason.OUT_OF_RESOURCES
                    || e.reason() == IngestFailure.Reason.PROCESSING_FAILURE) {
                throw new StoreException(StoreException.Kind.UNAVAILABLE, "the de-identified object was not stored: "
                        + e.getMessage(), e);
            }
            refuse(outcome, source, null, "the store refused the de-identified object: " + e.getMessage());
            return;
        }
        outcome.written.add(stored);
        outcome.series.add(stored.seriesInstanceUid());
        if (result.pixelsNeedReview()) {
            outcome.needsReview++;
            outcome.review.add(Json.createObjectBuilder()
                    .add("SOPInstanceUID", stored.sopInstanceUid())
                    .add("path", stored.path().relative())
                    .add("Modality", result.modality())
                    .add("BurnedInAnnotation", result.burnedIn().name()));
        }
    }

    private static void refuse(Outcome outcome, InstanceSummary source, String attribute, String reason) {
        outcome.refused++;
        JsonObjectBuilder r = Json.createObjectBuilder().add("SOPInstanceUID", source.sopInstanceUid());
        if (attribute != null) {
            r.add("attribute", attribute);
        }
        outcome.refusals.add(r.add("reason", reason));
    }

    /** The plan the parameters describe; 400 for unknown parameters, option names and bad values. */
    private static Plan plan(Map<String, String> params) {
        for (String key : params.keySet()) {
            if (key.equalsIgnoreCase("secret")) {
                throw bad(KIND + " takes no secret: each run draws its own, which is never stored or shown (a chosen"
                        + " one would make the new UIDs predictable)");
            }
            if (!PARAMS.contains(key)) {
                throw bad(KIND + " takes no parameter \"" + key + "\"; it takes " + String.join(", ", PARAMS));
            }
        }
        String study = uid(params, "StudyInstanceUID", true);
        String series = uid(params, "SeriesInstanceUID", false);
        Set<DeidOption> chosen = new LinkedHashSet<>();
        for (String name : params.getOrDefault("options", "").split(",")) {
            String n = name.strip().toLowerCase(Locale.ROOT);
            if (n.isEmpty()) {
                continue;
            }
            DeidOption option = OPTION_NAMES.get(n);
            if (option == null) {
                throw bad("no de-identification option \"" + name.strip() + "\"; options: "
                        + String.join(", ", OPTION_NAMES.keySet()));
            }
            if (option == DeidOption.RETAIN_UIDS) {
                throw bad("retain-uids cannot be used by " + KIND + ": the copy is stored beside its source, so it"
                        + " needs new UIDs");
            }
            chosen.add(option);
        }
        DeidOptions options;
        try {
            options = DeidOptions.basic().with(chosen.toArray(DeidOption[]::new));
            String shift = params.get("dateShiftDays");
            if (shift != null && !shift.isBlank()) {
                options = options.withDateShift(days(shift));
            }
        } catch (IllegalArgumentException e) { // Full Dates with Modified Dates
            throw bad(e.getMessage());
        }
        String name = text(params, "patientName", DEFAULT_PATIENT_NAME);
        String id = text(params, "patientId", null);
        return new Plan(study, series, options, name, id, options.options().stream()
                .map(o -> o.name().toLowerCase(Locale.ROOT).replace('_', '-')).collect(Collectors.joining(",")));
    }

    private static int days(String shift) {
        int days;
        try {
            days = Integer.parseInt(shift.strip());
        } catch (NumberFormatException e) {
            throw bad("dateShiftDays is a whole number of days (negative: earlier), not \"" + shift + "\"");
        }
        if (days < -MAX_SHIFT_DAYS || days > MAX_SHIFT_DAYS) {
            throw bad("dateShiftDays is at most " + MAX_SHIFT_DAYS + " days either way, not " + days);
        }
        return days;
    }

    private static String uid(Map<String, String> params, String key, boolean required) {
        String value = params.get(key);
        if (value == null || value.isBlank()) {
            if (required) {
                throw bad(KIND + " needs " + key);
            }
            return null;
        }
        String v = value.strip();
        if (v.length() > 64 || !v.matches("[0-9]+(\\.[0-9]+)*")) {
            throw bad(key + " is not a UID: " + value);
        }
        return v;
    }

    /** A pseudonym: 1 to 64 printable characters without a backslash (LO, PN); {@code otherwise} when absent. */
    private static String text(Map<String, String> params, String key, String otherwise) {
        String value = params.get(key);
        if (value == null || value.isBlank()) {
            return otherwise;
        }
        String v = value.strip();
        if (v.length() > 64 || v.contains("\\") || !v.chars().allMatch(c -> c >= 0x20 && c < 0x7F)) {
            throw bad(key + " is 1 to 64 printable ASCII characters without a backslash, not \"" + value + "\"");
        }
        return v;
    }

    /** The instances to de-identify, in series then instance order (404 for none, 413 for too many). */
    private List<InstanceSummary> sources(Plan plan) {
        List<SeriesSummary> series = index.series(plan.study());
        if (series.isEmpty()) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, "the store holds no study " + plan.study());
        }
        if (plan.series() != null) {
            series = series.stream().filter(s -> s.seriesInstanceUid().equals(plan.series())).toList();
            if (series.isEmpty()) {
                throw new StoreException(StoreException.Kind.NOT_FOUND, "study " + plan.study()
                        + " has no series " + plan.series());
            }
        }
        long count = series.stream().mapToLong(SeriesSummary::numberOfSeriesRelatedInstances).sum();
        if (count > maxInstances) {
            throw tooMany(plan, count);
        }
        List<InstanceSummary> instances = new ArrayList<>();
        for (SeriesSummary s : series) {
            instances.addAll(index.instances(s.seriesInstanceUid()));
        }
        if (instances.size() > maxInstances) {
            throw tooMany(plan, instances.size());
        }
        if (instances.isEmpty()) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, "the store holds no instances of study "
                    + plan.study());
        }
        for (InstanceSummary i : instances) {
            if (plan.patientId() != null && plan.patientId().equals(i.patientId())
                    || !plan.patientName().equals(DEFAULT_PATIENT_NAME) && plan.patientName().equals(i.patientName())) {
                throw bad("the pseudonym would be the patient's own Patient ID or name: choose another");
            }
        }
        return instances;
    }

    private StoreException tooMany(Plan plan, long count) {
        return new StoreException(StoreException.Kind.TOO_LARGE, (plan.series() == null ? "study " + plan.study()
                : "series " + plan.series()) + " has " + count + " instances, more than the " + maxInstances
                + " one " + KIND + " job may copy; an administrator can raise the limit with the setting "
                + DeriveSeriesJob.MAX_INSTANCES_SETTING + " (environment MEDJAVA_JOBS_MAX_SERIES_INSTANCES)");
    }

    /** Removes what this run wrote; says what was removed and what was left. */
    private String undo(List<Ingested> written, Caller owner) {
        if (written.isEmpty()) {
            return "nothing had been written";
        }
        List<String> left = new ArrayList<>();
        for (Ingested w : written) {
            try {
                ingest.delete(w.path(), Preconditions.NONE, owner);
            } catch (StoreException e) {
                if (e.kind() != StoreException.Kind.NOT_FOUND) {
                    LOG.log(Level.WARNING, "de-identified instance " + w.path().relative() + " could not be removed",
                            e);
                    left.add(w.path().relative() + " (" + e.getMessage() + ")");
                }
            }
        }
        String study = written.get(0).studyInstanceUid();
        return left.isEmpty() ? "the " + written.size() + " de-identified instances written were removed"
                : (written.size() - left.size()) + " of the " + written.size() + " de-identified instances written"
                + " were removed; left in study " + study + ": " + String.join(", ", left);
    }

    private void audit(Plan plan, String sourcePatientId, String newStudy, Outcome outcome, boolean success,
                       String failure) {
        if (outcome.written.isEmpty() && success) {
            return;
        }
        String description = KIND + " job: " + outcome.written.size() + " instances stored, " + outcome.refused
                + " refused" + (plan.series() == null ? "" : ", of series " + plan.series()) + "; options: basic"
                + (plan.optionNames().isEmpty() ? "" : "," + plan.optionNames());
        ingest.auditTrail().record(AuditEvents.deidentified(outcome.owner, plan.study(),
                sourcePatientId, newStudy, description, success, failure));
    }

    private static String result(Plan plan, String newStudy, String patientId, int total, Outcome outcome) {
        JsonObjectBuilder json = Json.createObjectBuilder()
                .add("StudyInstanceUID", newStudy)
                .add("sourceStudyInstanceUID", plan.study())
                .add("PatientID", patientId)
                .add("PatientName", plan.patientName())
                .add("options", plan.optionNames())
                .add("instances", total)
                .add("stored", outcome.written.size())
                .add("refused", outcome.refused)
                .add("needsReview", outcome.needsReview)
                .add("series", outcome.series.size());
        if (!outcome.written.isEmpty()) {
            String path = outcome.written.get(0).path().relative();
            String study = path.substring(0, path.lastIndexOf('/'));
            json.add("directory", study.substring(0, study.lastIndexOf('/') + 1));
        }
        return json.add("refusals", outcome.refusals).add("review", outcome.review).build().toString();
    }

    private static byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        RANDOM.nextBytes(b);
        return b;
    }

    private static StoreException bad(String message) {
        return new StoreException(StoreException.Kind.BAD_REQUEST, message);
    }
}
