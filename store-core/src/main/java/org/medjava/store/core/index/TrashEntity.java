package org.medjava.store.core.index;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Table;

/**
 * A stored file in the trash: taken out of the index (no query, retrieve or listing sees it) but still in the
 * storage until {@code purgeAfter}, when the purge removes it, unless it is restored first. The file is known by
 * its size and modification time at the moment it was trashed: a file written there since is another file, which
 * neither the trash nor the purge touch.
 */
@Entity
@Table(name = "mj_trash", indexes = {
        @Index(name = "mj_trash_batch_ix", columnList = "trash_id"),
        @Index(name = "mj_trash_purge_ix", columnList = "purge_after_ms")})
class TrashEntity {
    @Id
    @Column(name = "store_path", length = InstanceEntity.PATH_LENGTH)
    String path;

    /** The deletion that put it here: one identifier per request, restored or purged together. */
    @Column(name = "trash_id", length = 40, nullable = false)
    String trashId;

    /** STUDY, SERIES or INSTANCE: what the deletion named. */
    @Column(name = "trash_level", length = 8, nullable = false)
    String level;

    @Column(name = "study_uid", length = ParsedInstance.UI, nullable = false)
    String studyUid;

    @Column(name = "series_uid", length = ParsedInstance.UI, nullable = false)
    String seriesUid;

    @Column(name = "sop_instance_uid", length = ParsedInstance.UI, nullable = false)
    String sopInstanceUid;

    @Column(name = "file_size", nullable = false)
    long fileSize;

    @Column(name = "last_modified_ms", nullable = false)
    long lastModified;

    @Column(name = "trashed_at_ms", nullable = false)
    long trashedAt;

    @Column(name = "purge_after_ms", nullable = false)
    long purgeAfter;

    @Column(name = "trashed_by", length = 128)
    String trashedBy;

    @Column(name = "reason", length = 256)
    String reason;

    protected TrashEntity() {
    }
}
