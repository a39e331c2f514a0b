package org.medjava.store.core.audit;

import java.time.Instant;
import java.util.List;

/**
 * One audit event, the content of one DICOM audit message (PS3.15 A.5.1): what happened ({@code id}, optional
 * {@code types}), how ({@code action}), when, with which outcome, who took part and which objects it concerned.
 * Built by {@link AuditEvents}; written by {@link AuditMessage}.
 *
 * @param action             C (create), R (read), U (update), D (delete) or E (execute)
 * @param outcomeDescription why it failed (never patient names); null on success
 * @param door               the store's door it came through (http, dicomweb, dimse, front); null when none or not
 *                           told. Not part of the DICOM message (the objects' descriptions name it where it matters):
 *                           kept for the administrator's queries ({@link AuditRecord})
 */
public record AuditEvent(Coded id, List<Coded> types, char action, Outcome outcome, Instant time,
                         String outcomeDescription, List<Participant> participants, List<ParticipantObject> objects,
                         String door) {

    public AuditEvent {
        types = List.copyOf(types);
        participants = List.copyOf(participants);
        objects = List.copyOf(objects);
        if ("CRUDE".indexOf(action) < 0) {
            throw new IllegalArgumentException("EventActionCode is one of C, R, U, D, E: " + action);
        }
    }

    /** An event whose door is not told. */
    public AuditEvent(Coded id, List<Coded> types, char action, Outcome outcome, Instant time,
                      String outcomeDescription, List<Participant> participants, List<ParticipantObject> objects) {
        this(id, types, action, outcome, time, outcomeDescription, participants, objects, null);
    }

    /** EventOutcomeIndicator. */
    public enum Outcome {
        SUCCESS(0), MINOR_FAILURE(4), SERIOUS_FAILURE(8), MAJOR_FAILURE(12);

        public final int code;

        Outcome(int code) {
            this.code = code;
        }
    }

    /**
     * An ActiveParticipant: a user, an application or a node.
     *
     * @param alternativeUserId e.g. {@code AETITLES=MEDJAVA}; null when none
     * @param address           NetworkAccessPointID (an IP address or a host name); null when unknown
     */
    public record Participant(String userId, String alternativeUserId, boolean requestor, String address,
                              List<Coded> roles) {
        public Participant {
            roles = List.copyOf(roles);
        }

        /** NetworkAccessPointTypeCode: 2 for an IP address, 1 for a machine name. */
        public int addressType() {
            return address != null && address.matches("[0-9.]+|.*:.*") ? 2 : 1;
        }
    }

    /**
     * A ParticipantObjectIdentification: a study, a patient, a stored file, an account, a plugin.
     *
     * @param type        ParticipantObjectTypeCode: 1 person, 2 system object
     * @param role        ParticipantObjectTypeCodeRole: 1 patient, 3 report, 11 security user entity, 13 security
     *                    resource, 4 resource… (0: not given)
     * @param description ParticipantObjectDescription; null when none
     * @param sopClasses  the instances concerned, by SOP class (DICOM's SOPClass element); empty when none
     * @param query       ParticipantObjectQuery: the query as asked (written base64, as the standard wants); null
     *                    when this object is not a query
     */
    public record ParticipantObject(String id, int type, int role, Coded idType, String description,
                                    List<SopClass> sopClasses, byte[] query) {
        public ParticipantObject {
            sopClasses = List.copyOf(sopClasses);
        }

        public ParticipantObject(String id, int type, int role, Coded idType, String description,
                                 List<SopClass> sopClasses) {
            this(id, type, role, idType, description, sopClasses, null);
        }
    }

    /** Instances of one SOP class within a study. */
    public record SopClass(String uid, List<String> instanceUids) {
        public SopClass {
            instanceUids = List.copyOf(instanceUids);
        }
    }
}
