package org.medjava.store.core.audit;

/**
 * A coded value of the DICOM audit message schema (PS3.15 A.5.1): {@code csd-code}, {@code codeSystemName},
 * {@code originalText} (the code meaning).
 */
public record Coded(String code, String system, String text) {

    /** A code of DICOM's own code system (PS3.16, "DCM"). */
    public static Coded dcm(String code, String text) {
        return new Coded(code, "DCM", text);
    }

    /** A code of the value sets RFC 3881 defines (e.g. participant object ID types). */
    public static Coded rfc3881(String code, String text) {
        return new Coded(code, "RFC-3881", text);
    }

    // --- EventID (PS3.15 A.5.3)
    public static final Coded APPLICATION_ACTIVITY = dcm("110100", "Application Activity");
    public static final Coded INSTANCES_ACCESSED = dcm("110103", "DICOM Instances Accessed");
    public static final Coded INSTANCES_TRANSFERRED = dcm("110104", "DICOM Instances Transferred");
    public static final Coded STUDY_DELETED = dcm("110105", "DICOM Study Deleted");
    public static final Coded EXPORT = dcm("110106", "Export");
    public static final Coded PATIENT_RECORD = dcm("110110", "Patient Record");
    public static final Coded QUERY = dcm("110112", "Query");
    public static final Coded SECURITY_ALERT = dcm("110113", "Security Alert");
    public static final Coded USER_AUTHENTICATION = dcm("110114", "User Authentication");

    // --- EventTypeCode
    public static final Coded APPLICATION_START = dcm("110120", "Application Start");
    public static final Coded APPLICATION_STOP = dcm("110121", "Application Stop");
    public static final Coded LOGIN = dcm("110122", "Login");
    public static final Coded LOGOUT = dcm("110123", "Logout");
    public static final Coded SOFTWARE_CONFIGURATION = dcm("110131", "Software Configuration");
    public static final Coded OBJECT_SECURITY_ATTRIBUTES_CHANGED = dcm("110135",
            "Object Security Attributes Changed");
    public static final Coded USER_SECURITY_ATTRIBUTES_CHANGED = dcm("110137", "User security Attributes Changed");

    // --- RoleIDCode of active participants
    public static final Coded APPLICATION = dcm("110150", "Application");
    public static final Coded APPLICATION_LAUNCHER = dcm("110151", "Application Launcher");
    public static final Coded DESTINATION = dcm("110152", "Destination Role ID");
    public static final Coded SOURCE = dcm("110153", "Source Role ID");

    // --- ParticipantObjectIDTypeCode
    public static final Coded PATIENT_NUMBER = rfc3881("2", "Patient Number");
    public static final Coded USER_IDENTIFIER = rfc3881("11", "User Identifier");
    public static final Coded URI = rfc3881("12", "URI");
    public static final Coded STUDY_INSTANCE_UID = dcm("110180", "Study Instance UID");
    public static final Coded NODE_ID = dcm("110182", "Node ID");
    public static final Coded SOP_CLASS_UID = dcm("110181", "SOP Class UID");
}
