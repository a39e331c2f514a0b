package org.medjava.store.core.audit;

import java.io.IOException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The store's audit trail: each event as one line of XML in {@code audit.log} (rotated) and, when configured, sent
 * to syslog. Writing never fails the audited operation: a file that cannot be written is reported once (until it
 * can be again) and the operation carries on.
 */
public final class AuditLog implements AuditTrail, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(AuditLog.class.getName());

    private final AuditSource source;
    private final RotatingFile file;
    private final SyslogSender syslog;
    private volatile boolean fileTroubled;

    /** @param syslog null when audit messages go to the file only */
    public AuditLog(AuditSource source, RotatingFile file, SyslogSender syslog) {
        this.source = source;
        this.file = file;
        this.syslog = syslog;
    }

    public AuditSource source() {
        return source;
    }

    @Override
    public void record(AuditEvent event) {
        String xml;
        try {
            xml = AuditMessage.toXml(event, source);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "an audit message could not be written: " + e, e); // a bug: worth its trace
            return;
        }
        try {
            file.writeLine(xml);
            if (fileTroubled) {
                fileTroubled = false;
                LOG.info("the audit log " + file.path() + " is written again");
            }
        } catch (IOException | RuntimeException e) {
            if (!fileTroubled) {
                fileTroubled = true;
                LOG.warning("cannot write the audit log " + file.path() + " (" + e.getMessage()
                        + "); the store carries on, audit records are lost until it can");
            }
        }
        if (syslog != null) {
            syslog.send(xml, event.outcome() != AuditEvent.Outcome.SUCCESS, event.time());
        }
    }

    @Override
    public void close() {
        if (syslog != null) {
            syslog.close();
        }
        try {
            file.close();
        } catch (IOException e) {
            LOG.fine("closing the audit log: " + e.getMessage());
        }
    }
}
