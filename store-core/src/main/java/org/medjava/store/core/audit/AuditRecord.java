package org.medjava.store.core.audit;

import jakarta.json.bind.annotation.JsonbProperty;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.time.Instant;
import org.medjava.store.core.audit.AuditEvent.Participant;
import org.medjava.store.core.audit.AuditEvent.ParticipantObject;

/**
 * An audit event as the administrator's queries find it ({@code GET /audit/events}): what, when, who from where,
 * through which door, about which study and patient. Derived from the {@link AuditEvent} (the DICOM message stays
 * the evidence, in audit.log and syslog); {@code seq} is the database's number, 0 before it is stored.
 *
 * @param type        read, query, export, write, login or admin ({@link #typeOf})
 * @param eventId     the DICOM EventID code (e.g. 110103)
 * @param outcome     EventOutcomeIndicator: 0 success, 4, 8, 12 failures
 * @param user        the requestor (an account, an AE title, "anonymous"), or the store's own id
 * @param description the study's description (e.g. how many instances were read) or why it failed
 */
@JsonbPropertyOrder({"seq", "time", "type", "eventId", "action", "outcome", "user", "address", "door",
        "StudyInstanceUID", "PatientID", "description"})
public record AuditRecord(
        @JsonbProperty("seq") long seq,
        @JsonbProperty("time") Instant time,
        @JsonbProperty("type") String type,
        @JsonbProperty("eventId") String eventId,
        @JsonbProperty("action") String action,
        @JsonbProperty("outcome") int outcome,
        @JsonbProperty("user") String user,
        @JsonbProperty("address") String address,
        @JsonbProperty("door") String door,
        @JsonbProperty("StudyInstanceUID") String studyInstanceUid,
        @JsonbProperty("PatientID") String patientId,
        @JsonbProperty("description") String description) {

    /** The kinds an administrator filters by. */
    public static final java.util.List<String> TYPES = java.util.List.of("read", "query", "export", "write", "login",
            "admin");

    /** What an event is for the administrator's queries. */
    public static String typeOf(AuditEvent e) {
        String id = e.id().code();
        if (id.equals(Coded.USER_AUTHENTICATION.code())) {
            return "login";
        } else if (id.equals(Coded.QUERY.code())) {
            return "query";
        } else if (id.equals(Coded.EXPORT.code())
                || id.equals(Coded.INSTANCES_TRANSFERRED.code()) && e.action() == 'R') {
            return "export";
        } else if (id.equals(Coded.INSTANCES_ACCESSED.code()) && e.action() == 'R') {
            return "read";
        } else if (id.equals(Coded.INSTANCES_ACCESSED.code()) || id.equals(Coded.INSTANCES_TRANSFERRED.code())
                || id.equals(Coded.STUDY_DELETED.code())) {
            return "write";
        }
        return "admin";
    }

    /** The record of {@code e}, naming the store itself by {@code self} (its AuditSourceID). */
    public static AuditRecord of(AuditEvent e, String self) {
        Participant who = e.participants().stream().filter(Participant::requestor).findFirst()
                .orElse(e.participants().isEmpty() ? null : e.participants().get(0));
        String study = null;
        String patient = null;
        String description = null;
        for (ParticipantObject o : e.objects()) {
            if (study == null && o.idType().equals(Coded.STUDY_INSTANCE_UID)) {
                study = o.id();
                description = o.description();
            } else if (patient == null && o.idType().equals(Coded.PATIENT_NUMBER)) {
                patient = o.id();
            } else if (description == null && o.query() != null) {
                description = o.description();
            }
        }
        if (e.outcomeDescription() != null) {
            description = e.outcomeDescription();
        } else if (description == null && !e.objects().isEmpty()) {
            description = e.objects().get(0).id();
        }
        String user = who == null ? self : who.userId() == null ? self : who.userId();
        return new AuditRecord(0, e.time(), typeOf(e), e.id().code(), String.valueOf(e.action()), e.outcome().code,
                user, who == null ? null : who.address(), e.door(), study, patient, description);
    }
}
