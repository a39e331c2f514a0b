package org.medjava.store.core.audit;

/**
 * Where the store's security-relevant events go (PS3.15 A.5 audit messages): logins, writes, deletes, plugin and
 * account changes, DICOM associations and transfers, start and stop. Recording never fails the audited operation
 * and never blocks it for long: an implementation reports its own trouble (once) and carries on.
 */
public interface AuditTrail {

    /** Records nothing: for tests and tools that run parts of the store without a trail. */
    AuditTrail NONE = event -> { };

    void record(AuditEvent event);
}
