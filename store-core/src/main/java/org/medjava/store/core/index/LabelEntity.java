package org.medjava.store.core.index;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.util.Objects;

/**
 * One label on one study ({@code mj_label}): what access by project matches ({@link Visibility}). Keyed by the
 * Study Instance UID rather than a reference to the study's row, so that a label set before the study arrives, or
 * kept while it is in the trash, still applies to it.
 */
@Entity
@Table(name = "mj_label")
@IdClass(LabelEntity.Key.class)
class LabelEntity {
    @Id
    @Column(name = "study_uid", length = ParsedInstance.UI)
    String studyUid;

    @Id
    @Column(name = "label", length = Labels.MAX_LENGTH)
    String label;

    protected LabelEntity() {
    }

    LabelEntity(String studyUid, String label) {
        this.studyUid = studyUid;
        this.label = label;
    }

    /** The composite key, as JPA wants it: a class with the same field names. */
    public static class Key implements Serializable {
        private static final long serialVersionUID = 1L;
        String studyUid;
        String label;

        public Key() {
        }

        Key(String studyUid, String label) {
            this.studyUid = studyUid;
            this.label = label;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(studyUid, k.studyUid) && Objects.equals(label, k.label);
        }

        @Override
        public int hashCode() {
            return Objects.hash(studyUid, label);
        }
    }
}
