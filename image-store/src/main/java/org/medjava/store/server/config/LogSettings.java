package org.medjava.store.server.config;

import java.time.Duration;
import java.util.Optional;

/** The server and access logs' rotation, and the audit trail: its rotation, syslog, site and read auditing. */
public record LogSettings(long logMaxBytes, int logFiles, long auditMaxBytes, int auditFiles,
                          Optional<String> auditSyslog, Optional<String> auditSite, boolean auditReads,
                          Duration auditReadWindow) {

    /** medjava.log and access.log are rotated when the next line would take them past this size, in bytes. */
    static final Key LOG_MAX_BYTES = Key.of("medjava.log.max-bytes", "10485760");

    /** Rotated copies kept of medjava.log and of access.log ({@code .1} the newest; older ones deleted). */
    static final Key LOG_FILES = Key.of("medjava.log.files", "10");

    /** audit.log is rotated when the next line would take it past this size, in bytes. */
    static final Key AUDIT_MAX_BYTES = Key.of("medjava.audit.max-bytes", "10485760");

    /** Rotated copies kept of audit.log: more than of the other logs, it is evidence. */
    static final Key AUDIT_FILES = Key.of("medjava.audit.files", "50");

    /**
     * Also send each audit message to this syslog collector (an audit record repository): {@code udp://host:port} (one
     * datagram per message, RFC 5426) or {@code tcp://host:port} (octet-counted frames, RFC 6587; no TLS: use a local
     * relay such as rsyslog). Unset: audit.log only.
     */
    static final Key AUDIT_SYSLOG = Key.of("medjava.audit.syslog");

    /** The AuditEnterpriseSiteID of the audit messages (the hospital or department); none when unset. */
    static final Key AUDIT_SITE = Key.of("medjava.audit.site");

    /**
     * Audit every read, query and export of studies (DICOM Instances Accessed, Query, Export): by HTTP, DICOMweb,
     * DIMSE and the front, searchable by administrators at {@code GET /audit/events}. Off: writes and logins only.
     */
    static final Key AUDIT_READS = Key.of("medjava.audit.reads", "true");

    /**
     * The reads of one study by one caller through one door within this many seconds are one audit event, with
     * their counts (so the read path never writes the trail itself); an administrator's search closes the window
     * at once.
     */
    static final Key AUDIT_READ_WINDOW = Key.of("medjava.audit.read-window-seconds", "60");

    public static LogSettings from(SettingsSource source) {
        return new LogSettings(size(source, LOG_MAX_BYTES), files(source, LOG_FILES), size(source, AUDIT_MAX_BYTES),
                files(source, AUDIT_FILES), trimmed(source, AUDIT_SYSLOG), trimmed(source, AUDIT_SITE),
                source.bool(AUDIT_READS), Duration.ofSeconds(seconds(source, AUDIT_READ_WINDOW)));
    }

    private static long size(SettingsSource source, Key key) {
        long value = source.whole(key);
        if (value < 1) {
            throw new SettingException(key, value, "write a size in bytes, e.g. 10485760");
        }
        return value;
    }

    private static int files(SettingsSource source, Key key) {
        int value = source.integer(key);
        if (value < 0) {
            throw new SettingException(key, value, "write how many rotated files to keep (0 or more)");
        }
        return value;
    }

    private static int seconds(SettingsSource source, Key key) {
        int value = source.integer(key);
        if (value < 1) {
            throw new SettingException(key, value, "write a number of seconds, 1 or more (" + key.defaultValue()
                    + " by default)");
        }
        return value;
    }

    private static Optional<String> trimmed(SettingsSource source, Key key) {
        return source.text(key).filter(s -> !s.isBlank()).map(String::trim);
    }
}
