package org.medjava.store.core.index;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;

/** A study, keyed by its StudyInstanceUID. */
@Entity
@Table(name = "mj_study", indexes = {
        @Index(name = "mj_study_date_ix", columnList = "study_date"),
        @Index(name = "mj_study_accession_ix", columnList = "accession_number"),
        @Index(name = "mj_study_patient_ix", columnList = "patient_key")})
class StudyEntity {
    @Id
    @Column(name = "study_uid", length = ParsedInstance.UI)
    String uid;

    @ManyToOne(optional = false)
    @JoinColumn(name = "patient_key", nullable = false)
    PatientEntity patient;

    @Column(name = "study_date", length = 8)
    String studyDate;

    @Column(name = "study_time", length = ParsedInstance.TM)
    String studyTime;

    @Column(name = "accession_number", length = ParsedInstance.SH)
    String accessionNumber;

    @Column(name = "study_id", length = ParsedInstance.SH)
    String studyId;

    @Column(name = "description", length = ParsedInstance.LO)
    String description;

    @Column(name = "referring_physician", length = ParsedInstance.PN)
    String referringPhysician;

    /** ModalitiesInStudy: the distinct Modality values of the study's series, backslash-separated, sorted. */
    @Column(name = "modalities", length = 256)
    String modalities;

    protected StudyEntity() {
    }

    StudyEntity(String uid) {
        this.uid = uid;
    }
}
