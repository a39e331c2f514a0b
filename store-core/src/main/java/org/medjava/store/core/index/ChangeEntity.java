package org.medjava.store.core.index;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * One entry of the change feed: an instance indexed, replaced, deleted (trashed or removed), restored or purged.
 * Written in the transaction of the change itself, numbered by the database (an identity column), and appended
 * under a database-wide lock, so that numbers follow commit order on every node. Read through JPA, written with
 * SQL ({@link ChangeLog}): the table is made by {@link ChangeLog#DDL}, the same statement for H2 and PostgreSQL,
 * since EclipseLink's identity DDL for H2 is not H2 2's.
 */
@Entity
@Table(name = "mj_change")
class ChangeEntity {
    @Id
    @Column(name = "seq")
    Long seq;

    @Column(name = "kind", length = 16, nullable = false)
    String kind;

    @Column(name = "at_ms", nullable = false)
    long at;

    @Column(name = "study_uid", length = ParsedInstance.UI)
    String studyUid;

    @Column(name = "series_uid", length = ParsedInstance.UI)
    String seriesUid;

    @Column(name = "sop_instance_uid", length = ParsedInstance.UI)
    String sopInstanceUid;

    @Column(name = "store_path", length = InstanceEntity.PATH_LENGTH)
    String path;

    /** The trash deletion this change belongs to (deleted into, restored or purged from the trash); else null. */
    @Column(name = "trash_id", length = 40)
    String trashId;

    protected ChangeEntity() {
    }
}
