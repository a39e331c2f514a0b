package org.medjava.store.core.jobs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.json.Json;
import javax.json.JsonArrayBuilder;
import javax.json.JsonObjectBuilder;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.correct.Correction;
import org.medjava.store.core.correct.Corrector;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.PatientQuery;
import org.medjava.store.core.index.PatientSummary;
import org.medjava.store.core.index.StudyQuery;
import org.medjava.store.core.index.StudySummary;

/**
 * Corrections as jobs, as every other rewrite of stored studies is (a study of thousands of instances takes a while;
 * its progress, owner and outcome are in the job record on every node). Two kinds, one engine ({@link Corrector}):
 * <ul>
 * <li>{@value #KIND}: {@code StudyInstanceUID}, the new values by keyword ({@link Correction#ATTRIBUTES}) and
 *     optionally {@code reason};</li>
 * <li>{@value #MERGE}: every study of the patient {@code sourcePatientID} (optionally {@code sourceIssuerOfPatientID})
 *     given the identity of the patient {@code PatientID} (optionally {@code IssuerOfPatientID}): the target's
 *     PatientName, PatientBirthDate and PatientSex as the store holds them unless given; optionally {@code reason}.</li>
 * </ul>
 * Checked at submission: 400 for a parameter or value, 404 for an unknown study or patient, 409 for a study in the
 * trash or being corrected, 413 above {@code medjava.jobs.max-series-instances}. Once it writes, a correction is not
 * cancelled part-way (that would leave a study half corrected): it finishes, and its result says a cancel was asked.
 */
public final class CorrectJob implements JobKind {
    public static final String KIND = "correct";
    public static final String MERGE = "merge-patients";

    private final boolean merge;
    private final DicomIndex index;
    private final Corrector corrector;
    private final int maxInstances;

    public CorrectJob(boolean merge, DicomIndex index, Corrector corrector, int maxInstances) {
        this.merge = merge;
        this.index = index;
        this.corrector = corrector;
        this.maxInstances = maxInstances;
    }

    private String kind() {
        return merge ? MERGE : KIND;
    }

    /** The studies to correct and how. */
    private record Plan(List<String> studies, Correction correction) {
    }

    @Override
    public void validate(Map<String, String> params) {
        Plan plan = plan(params);
        for (String study : plan.studies()) {
            corrector.instances(study, maxInstances);
        }
    }

    @Override
    public String run(Map<String, String> params, Progress progress, Caller owner) {
        Plan plan = plan(params);
        int total = 0;
        for (String study : plan.studies()) {
            total += corrector.instances(study, maxInstances).size();
        }
        int all = total;
        try {
            progress.update(0, all);
        } catch (JobQueue.Cancelled e) {
            throw new JobQueue.Cancelled("cancelled before it started; nothing was changed");
        }
        boolean[] cancelAsked = {false};
        JsonArrayBuilder studies = Json.createArrayBuilder();
        int instances = 0;
        for (String study : plan.studies()) {
            int before = instances;
            Corrector.Outcome o = corrector.correct(study, plan.correction(), maxInstances, done -> {
                try {
                    progress.update(Math.min(before + done, all), all);
                } catch (JobQueue.Cancelled e) {
                    cancelAsked[0] = true;
                }
            }, owner);
            instances += o.instances();
            JsonObjectBuilder old = Json.createObjectBuilder();
            o.oldValues().forEach(old::add);
            studies.add(Json.createObjectBuilder().add("StudyInstanceUID", o.studyInstanceUid())
                    .add("instances", o.instances()).add("old", old).add("trashId", o.trashId()));
        }
        JsonObjectBuilder values = Json.createObjectBuilder();
        plan.correction().values().forEach(values::add);
        return Json.createObjectBuilder().add("corrected", instances).add("new", values).add("studies", studies)
                .add("cancelIgnored", cancelAsked[0]).build().toString();
    }

    private Plan plan(Map<String, String> params) {
        String reason = params.get("reason");
        Map<String, String> values = new LinkedHashMap<>(params);
        values.remove("reason");
        if (!merge) {
            String study = values.remove("StudyInstanceUID");
            if (study == null || !study.strip().matches("[0-9]+(\\.[0-9]+)*") || study.strip().length() > 64) {
                throw bad(KIND + " needs StudyInstanceUID (a UID), not " + study);
            }
            return new Plan(List.of(study.strip()), Correction.of(values, reason));
        }
        String source = values.remove("sourcePatientID");
        String sourceIssuer = values.remove("sourceIssuerOfPatientID");
        for (String key : values.keySet()) {
            if (!Correction.PATIENT.contains(key)) {
                throw bad(MERGE + " takes sourcePatientID, sourceIssuerOfPatientID, reason and the target's "
                        + String.join(", ", Correction.PATIENT) + "; not \"" + key + "\"");
            }
        }
        if (source == null || source.isBlank() || values.get("PatientID") == null) {
            throw bad(MERGE + " needs sourcePatientID (whose studies move) and PatientID (the patient they join)");
        }
        if (source.strip().equals(values.get("PatientID").strip())
                && java.util.Objects.equals(sourceIssuer, values.get("IssuerOfPatientID"))) {
            throw bad(MERGE + ": sourcePatientID and PatientID name the same patient");
        }
        target(values);
        Correction correction = Correction.of(values, reason);
        List<String> studies = new ArrayList<>();
        for (StudySummary s : index.studies(StudyQuery.all().patientId(source.strip()))) {
            if (s.patientId().equals(source.strip())
                    && (sourceIssuer == null || sourceIssuer.equals(s.issuerOfPatientId()))) {
                studies.add(s.studyInstanceUid());
            }
        }
        if (studies.isEmpty()) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, "the store holds no study of patient " + source);
        }
        return new Plan(studies, correction);
    }

    /** The target patient's name, birth date and sex from the index, where the request does not give them. */
    private void target(Map<String, String> values) {
        String id = values.get("PatientID").strip();
        String issuer = values.get("IssuerOfPatientID");
        for (PatientSummary p : index.patients(PatientQuery.all().patientId(id))) {
            if (p.patientId().equals(id) && (issuer == null || issuer.equals(p.issuerOfPatientId()))) {
                putIfPresent(values, "IssuerOfPatientID", p.issuerOfPatientId());
                putIfPresent(values, "PatientName", p.patientName());
                putIfPresent(values, "PatientBirthDate", p.patientBirthDate());
                putIfPresent(values, "PatientSex", p.patientSex());
                return;
            }
        }
    }

    private static void putIfPresent(Map<String, String> values, String key, String value) {
        if (value != null && !value.isBlank()) {
            values.putIfAbsent(key, value);
        }
    }

    private StoreException bad(String message) {
        return new StoreException(StoreException.Kind.BAD_REQUEST, message);
    }
}
