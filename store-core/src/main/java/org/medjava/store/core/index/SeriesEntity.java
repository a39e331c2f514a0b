package org.medjava.store.core.index;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;

/** A series, keyed by its SeriesInstanceUID. */
@Entity
@Table(name = "mj_series", indexes = {
        @Index(name = "mj_series_modality_ix", columnList = "modality"),
        @Index(name = "mj_series_study_ix", columnList = "study_uid")})
class SeriesEntity {
    @Id
    @Column(name = "series_uid", length = ParsedInstance.UI)
    String uid;

    @ManyToOne(optional = false)
    @JoinColumn(name = "study_uid", nullable = false)
    StudyEntity study;

    @Column(name = "modality", length = ParsedInstance.CS)
    String modality;

    @Column(name = "series_number")
    Integer seriesNumber;

    @Column(name = "description", length = ParsedInstance.LO)
    String description;

    @Column(name = "body_part", length = ParsedInstance.CS)
    String bodyPart;

    @Column(name = "series_date", length = 8)
    String seriesDate;

    /**
     * NumberOfSeriesRelatedInstances, kept by the writes ({@link InstanceCounts}); null when not counted yet. Never
     * set here after the series is persisted: the writes change it in SQL.
     */
    @Column(name = "instance_count")
    Long instanceCount;

    protected SeriesEntity() {
    }

    SeriesEntity(String uid) {
        this.uid = uid;
        this.instanceCount = 0L;
    }
}
