package org.medjava.store.core.audit;

import java.time.Instant;

/**
 * What an administrator asks the audit trail: events about a study or a patient, by a user, of a type, since a time;
 * each null when not asked. Newest first, at most {@code limit}; {@code before} pages on (events numbered below it).
 */
public record AuditQuery(String study, String patient, String user, String type, Instant since, long before,
                         int limit) {

    public static final int MAX_LIMIT = 1000;

    public AuditQuery {
        if (type != null && !AuditRecord.TYPES.contains(type)) {
            throw new IllegalArgumentException("type is one of " + String.join(", ", AuditRecord.TYPES) + ", not "
                    + type);
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit is 1 to " + MAX_LIMIT + ", not " + limit);
        }
    }
}
