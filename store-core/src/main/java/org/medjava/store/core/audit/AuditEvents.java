package org.medjava.store.core.audit;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import org.medjava.store.core.audit.AuditEvent.Outcome;
import org.medjava.store.core.audit.AuditEvent.Participant;
import org.medjava.store.core.audit.AuditEvent.ParticipantObject;
import org.medjava.store.core.audit.AuditEvent.SopClass;

/**
 * The store's audit events, one factory per kind (PS3.15 A.5.3). A participant whose {@code userId} is null is the
 * store itself: {@link AuditMessage} names it from the {@link AuditSource}.
 */
public final class AuditEvents {

    private AuditEvents() {
    }

    /** A login (account and password, a session, an accepted DICOM association) or a refused one. */
    public static AuditEvent login(Caller caller, boolean success, String failure) {
        return new AuditEvent(Coded.USER_AUTHENTICATION, List.of(Coded.LOGIN), 'E', outcome(success), Instant.now(),
                success ? null : failure, List.of(requestor(caller), self(Coded.APPLICATION)), List.of());
    }

    public static AuditEvent logout(Caller caller) {
        return new AuditEvent(Coded.USER_AUTHENTICATION, List.of(Coded.LOGOUT), 'E', Outcome.SUCCESS, Instant.now(),
                null, List.of(requestor(caller), self(Coded.APPLICATION)), List.of());
    }

    /** An object stored (created, or {@code replaced}) by a caller: HTTP PUT, STOW-RS, C-STORE, a retrieve. */
    public static AuditEvent stored(Caller caller, StoredObject object, boolean replaced) {
        return transferredIn(caller, object, replaced ? 'U' : 'C', Outcome.SUCCESS, null);
    }

    /** An object the store refused ({@code serious}: the store failed, not the object). */
    public static AuditEvent storeRefused(Caller caller, StoredObject object, boolean serious, String reason) {
        return transferredIn(caller, object, 'C', serious ? Outcome.SERIOUS_FAILURE : Outcome.MINOR_FAILURE, reason);
    }

    private static AuditEvent transferredIn(Caller caller, StoredObject object, char action, Outcome outcome,
                                            String reason) {
        List<Participant> participants = List.of(withRoles(requestor(caller), Coded.SOURCE), self(Coded.DESTINATION));
        return new AuditEvent(Coded.INSTANCES_TRANSFERRED, List.of(), action, outcome, Instant.now(), reason,
                participants, objects(object));
    }

    /** An object deleted by a caller (or a refused delete). */
    public static AuditEvent deleted(Caller caller, StoredObject object, boolean success, String failure) {
        return new AuditEvent(Coded.INSTANCES_ACCESSED, List.of(), 'D', outcome(success), Instant.now(),
                success ? null : failure, List.of(requestor(caller), self(Coded.APPLICATION)), objects(object));
    }

    /**
     * A study, or a series or instance of it, taken from users (moved into the trash, or purged from it: action D,
     * DICOM Study Deleted) or given back (restored: action C, DICOM Instances Accessed); {@code caller} is null for
     * the store's own purge. {@code description} says what and how many, e.g. "series 1.2.3: 12 instances to the
     * trash 5f0c…, purged after 2026-12-09T10:00Z".
     */
    public static AuditEvent studyChanged(Caller caller, boolean restored, String studyInstanceUid, String patientId,
                                          String description, boolean success, String failure) {
        List<ParticipantObject> objects = new ArrayList<>();
        objects.add(new ParticipantObject(studyInstanceUid, 2, 3, Coded.STUDY_INSTANCE_UID, description, List.of()));
        if (patientId != null && !patientId.isEmpty()) {
            objects.add(new ParticipantObject(patientId, 1, 1, Coded.PATIENT_NUMBER, null, List.of()));
        }
        List<Participant> participants = byStore(caller) ? List.of(self(Coded.APPLICATION, true))
                : List.of(requestor(caller), self(Coded.APPLICATION));
        return new AuditEvent(restored ? Coded.INSTANCES_ACCESSED : Coded.STUDY_DELETED, List.of(),
                restored ? 'C' : 'D', outcome(success), Instant.now(), success ? null : failure, participants,
                objects);
    }

    /**
     * A study's patient or study attributes corrected (DICOM Patient Record, action U, PS3.15 A.5.3.9): the study, the
     * Patient ID it had and the one it has now (the same when only other attributes changed), and {@code description}
     * (each attribute's old and new value, the reason, where the previous versions are kept). {@code caller} is who
     * asked; a correction that failed part-way is recorded with {@code failure} (how far it got).
     */
    public static AuditEvent corrected(Caller caller, String studyInstanceUid, String oldPatientId,
                                       String newPatientId, String description, boolean success, String failure) {
        List<ParticipantObject> objects = new ArrayList<>();
        for (String id : new LinkedHashSet<>(java.util.Arrays.asList(oldPatientId, newPatientId))) {
            if (id != null && !id.isEmpty()) {
                objects.add(new ParticipantObject(id, 1, 1, Coded.PATIENT_NUMBER, null, List.of()));
            }
        }
        objects.add(new ParticipantObject(studyInstanceUid, 2, 3, Coded.STUDY_INSTANCE_UID, description, List.of()));
        List<Participant> participants = byStore(caller) ? List.of(self(Coded.APPLICATION, true))
                : List.of(requestor(caller), self(Coded.APPLICATION));
        return new AuditEvent(Coded.PATIENT_RECORD, List.of(), 'U', outcome(success), Instant.now(),
                success ? null : failure, participants, objects);
    }

    /**
     * Instances moved between the store and a remote AE at the store's initiative: {@code retrieve} (C-MOVE or
     * C-GET into the store) or send (C-STORE from it); {@code caller} is who asked, when known.
     */
    public static AuditEvent exchanged(Caller caller, boolean retrieve, String remoteAe, String remoteHost,
                                       String studyInstanceUid, boolean success, String description) {
        List<Participant> participants = new ArrayList<>();
        participants.add(self(retrieve ? Coded.DESTINATION : Coded.SOURCE, byStore(caller)));
        participants.add(new Participant(remoteAe, "AETITLES=" + remoteAe, false, remoteHost,
                List.of(retrieve ? Coded.SOURCE : Coded.DESTINATION)));
        if (!byStore(caller)) {
            participants.add(requestor(caller));
        }
        List<ParticipantObject> objects = studyInstanceUid == null ? List.of()
                : List.of(new ParticipantObject(studyInstanceUid, 2, 3, Coded.STUDY_INSTANCE_UID, null, List.of()));
        return new AuditEvent(Coded.INSTANCES_TRANSFERRED, List.of(), retrieve ? 'C' : 'R', outcome(success),
                Instant.now(), description, participants, objects);
    }

    /**
     * A de-identified copy of a study made in the store (DICOM Instances Accessed, action C: instances created from
     * the patient's): the source study and its Patient ID, the new study, and {@code description} (how many instances,
     * the options). Not Data Export (110106): that event names the media or system the data leave to, and the copy
     * stays in the store. {@code caller} is who asked (null: the store itself); a failed or cancelled job is recorded
     * with {@code failure} (what it removed).
     */
    public static AuditEvent deidentified(Caller caller, String sourceStudyUid, String sourcePatientId,
                                          String newStudyUid, String description, boolean success, String failure) {
        List<ParticipantObject> objects = new ArrayList<>();
        objects.add(new ParticipantObject(sourceStudyUid, 2, 3, Coded.STUDY_INSTANCE_UID,
                "source of the de-identified study " + newStudyUid, List.of()));
        if (sourcePatientId != null && !sourcePatientId.isEmpty()) {
            objects.add(new ParticipantObject(sourcePatientId, 1, 1, Coded.PATIENT_NUMBER, null, List.of()));
        }
        objects.add(new ParticipantObject(newStudyUid, 2, 3, Coded.STUDY_INSTANCE_UID, description, List.of()));
        List<Participant> participants = byStore(caller) ? List.of(self(Coded.APPLICATION, true))
                : List.of(requestor(caller), self(Coded.APPLICATION));
        return new AuditEvent(Coded.INSTANCES_ACCESSED, List.of(), 'C', outcome(success), Instant.now(),
                success ? null : failure, participants, objects);
    }

    /**
     * Instances of one study read by a caller through {@code door} (DICOM Instances Accessed, action R): one event
     * for all the reads of one window ({@link ReadAudit}), {@code description} saying how many and when, the study
     * and its patient as participant objects.
     */
    public static AuditEvent accessed(Caller caller, String door, Instant time, String studyInstanceUid,
                                      String patientId, String description) {
        return new AuditEvent(Coded.INSTANCES_ACCESSED, List.of(), 'R', Outcome.SUCCESS, time, null,
                List.of(requestor(caller), self(Coded.APPLICATION)), study(studyInstanceUid, patientId, description),
                door);
    }

    /**
     * A query a caller asked through {@code door} (DICOM Query, action E, PS3.15 A.5.3.12): the query as asked
     * ({@code query}, the C-FIND identifier or the QIDO-RS query string) in the ParticipantObjectQuery of an object
     * naming what was searched ({@code sopClassUid}: the C-FIND SOP class, or the QIDO-RS path as a URI), and the
     * study and patient the query names, when it names them.
     */
    public static AuditEvent queried(Caller caller, String door, Instant time, String sopClassUid, boolean uri,
                                     byte[] query, String studyInstanceUid, String patientId, String description) {
        List<ParticipantObject> objects = new ArrayList<>();
        objects.add(new ParticipantObject(sopClassUid, 2, 3, uri ? Coded.URI : Coded.SOP_CLASS_UID, description,
                List.of(), query));
        if (studyInstanceUid != null && !studyInstanceUid.isEmpty()) {
            objects.add(new ParticipantObject(studyInstanceUid, 2, 3, Coded.STUDY_INSTANCE_UID, null, List.of()));
        }
        if (patientId != null && !patientId.isEmpty()) {
            objects.add(new ParticipantObject(patientId, 1, 1, Coded.PATIENT_NUMBER, null, List.of()));
        }
        return new AuditEvent(Coded.QUERY, List.of(), 'E', Outcome.SUCCESS, time, null,
                List.of(requestor(caller), self(Coded.APPLICATION)), objects, door);
    }

    /**
     * Instances of one study sent out of the store at a caller's request to another system (Export, action R,
     * PS3.15 A.5.3.6): {@code destination} (e.g. an AE title the instances were moved to) is the destination
     * participant, the store the source.
     */
    public static AuditEvent exported(Caller caller, String door, Instant time, String destination,
                                      String destinationAddress, String studyInstanceUid, String patientId,
                                      String description, boolean success, String failure) {
        List<Participant> participants = new ArrayList<>();
        participants.add(requestor(caller));
        participants.add(self(Coded.SOURCE));
        participants.add(new Participant(destination, "AETITLES=" + destination, false, destinationAddress,
                List.of(Coded.DESTINATION)));
        return new AuditEvent(Coded.EXPORT, List.of(), 'R', outcome(success), time, success ? null : failure,
                participants, study(studyInstanceUid, patientId, description), door);
    }

    /** A read refused (401, 403): who asked for what, and why not. */
    public static AuditEvent readRefused(Caller caller, String door, String what, String reason) {
        return new AuditEvent(Coded.INSTANCES_ACCESSED, List.of(), 'R', Outcome.MINOR_FAILURE, Instant.now(), reason,
                List.of(requestor(caller), self(Coded.APPLICATION)),
                List.of(new ParticipantObject(what, 2, 3, Coded.URI, null, List.of())), door);
    }

    private static List<ParticipantObject> study(String studyInstanceUid, String patientId, String description) {
        List<ParticipantObject> objects = new ArrayList<>();
        objects.add(new ParticipantObject(studyInstanceUid, 2, 3, Coded.STUDY_INSTANCE_UID, description, List.of()));
        if (patientId != null && !patientId.isEmpty()) {
            objects.add(new ParticipantObject(patientId, 1, 1, Coded.PATIENT_NUMBER, null, List.of()));
        }
        return objects;
    }

    /** A plugin installed, replaced, suspended, resumed or removed ({@code change}), or such a change refused. */
    public static AuditEvent pluginChanged(Caller caller, String pluginId, String change, boolean success,
                                           String failure) {
        char action = change.equals("install") ? 'C' : change.equals("remove") ? 'D' : 'U';
        ParticipantObject plugin = new ParticipantObject("filters/" + pluginId + ".jar", 2, 4, Coded.URI, change,
                List.of());
        return new AuditEvent(Coded.SECURITY_ALERT, List.of(Coded.SOFTWARE_CONFIGURATION), action, outcome(success),
                Instant.now(), success ? null : failure, List.of(requestor(caller), self(Coded.APPLICATION)),
                List.of(plugin));
    }

    /**
     * An account created, changed (password, role or projects) or removed ({@code change}: create, update, remove);
     * the description says the account as it is now: {@code "update, role reader, projects cardiology neuro"}.
     *
     * @param role     null for a removal
     * @param projects the account's projects (access by project); null for a removal
     */
    public static AuditEvent accountChanged(Caller caller, String account, String change, String role,
                                            java.util.Collection<String> projects) {
        char action = change.equals("create") ? 'C' : change.equals("remove") ? 'D' : 'U';
        String description = role == null ? change : change + ", role " + role;
        if (projects != null) {
            description += projects.isEmpty() ? ", no project" : ", projects " + String.join(" ", projects);
        }
        ParticipantObject user = new ParticipantObject(account, 1, 11, Coded.USER_IDENTIFIER, description,
                List.of());
        return new AuditEvent(Coded.SECURITY_ALERT, List.of(Coded.USER_SECURITY_ATTRIBUTES_CHANGED), action,
                Outcome.SUCCESS, Instant.now(), null, List.of(requestor(caller), self(Coded.APPLICATION)),
                List.of(user));
    }

    /**
     * A share link made for one study or revoked ({@code change}: create, revoke): who may read the study changed,
     * so a Security Alert (Object Security Attributes Changed), the study and its patient as participant objects.
     */
    public static AuditEvent shareChanged(Caller caller, String change, String studyInstanceUid, String patientId,
                                          String description) {
        return new AuditEvent(Coded.SECURITY_ALERT, List.of(Coded.OBJECT_SECURITY_ATTRIBUTES_CHANGED),
                change.equals("create") ? 'C' : 'U', Outcome.SUCCESS, Instant.now(), null,
                List.of(requestor(caller), self(Coded.APPLICATION)), study(studyInstanceUid, patientId, description));
    }

    /** The store started or stopped; {@code launcher} is the operating-system account that runs it. */
    public static AuditEvent application(boolean start, String launcher) {
        Participant who = new Participant(launcher, null, true, null, List.of(Coded.APPLICATION_LAUNCHER));
        return new AuditEvent(Coded.APPLICATION_ACTIVITY, List.of(start ? Coded.APPLICATION_START
                : Coded.APPLICATION_STOP), 'E', Outcome.SUCCESS, Instant.now(), null,
                List.of(self(Coded.APPLICATION, false), who), List.of());
    }

    // ---------------------------------------------------------------------------------------------- participants

    private static Outcome outcome(boolean success) {
        return success ? Outcome.SUCCESS : Outcome.MINOR_FAILURE;
    }

    /** Whether the store itself asked ({@link Caller#STORE}, or nobody known). */
    private static boolean byStore(Caller caller) {
        return caller == null || caller.isStore();
    }

    private static Participant requestor(Caller caller) {
        Caller c = !byStore(caller) ? caller : Caller.account(null, null);
        return new Participant(c.userId(), c.aeTitle() ? "AETITLES=" + c.user() : null, true, c.address(),
                List.of());
    }

    private static Participant withRoles(Participant p, Coded role) {
        return new Participant(p.userId(), p.alternativeUserId(), p.requestor(), p.address(), List.of(role));
    }

    private static Participant self(Coded role) {
        return self(role, false);
    }

    private static Participant self(Coded role, boolean requestor) {
        return new Participant(null, null, requestor, null, List.of(role));
    }

    private static List<ParticipantObject> objects(StoredObject o) {
        List<ParticipantObject> objects = new ArrayList<>();
        if (o.dicom()) {
            List<SopClass> classes = o.sopClassUid() == null ? List.of()
                    : List.of(new SopClass(o.sopClassUid(), o.sopInstanceUid() == null ? List.of()
                            : List.of(o.sopInstanceUid())));
            objects.add(new ParticipantObject(o.studyInstanceUid(), 2, 3, Coded.STUDY_INSTANCE_UID, o.path(),
                    classes));
            if (o.patientId() != null && !o.patientId().isEmpty()) {
                objects.add(new ParticipantObject(o.patientId(), 1, 1, Coded.PATIENT_NUMBER, null, List.of()));
            }
        } else if (o.path() != null) {
            objects.add(new ParticipantObject(o.path(), 2, 3, Coded.URI, null, List.of()));
        }
        return objects;
    }
}
