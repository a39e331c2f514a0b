package org.medjava.store.core.index;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Table;

/**
 * A patient: one per (IssuerOfPatientID, PatientID); patients without a PatientID are told apart by name. The key is
 * computed by {@link ParsedInstance#patientKey()}.
 */
@Entity
@Table(name = "mj_patient", indexes = {
        @Index(name = "mj_patient_id_ix", columnList = "patient_id"),
        @Index(name = "mj_patient_name_ix", columnList = "patient_name"),
        @Index(name = "mj_patient_name_lc_ix", columnList = "patient_name_lc")})
class PatientEntity {
    static final int KEY_LENGTH = 400;

    @Id
    @Column(name = "patient_key", length = KEY_LENGTH)
    String key;

    @Column(name = "patient_id", length = ParsedInstance.LO)
    String patientId;

    @Column(name = "issuer", length = ParsedInstance.LO)
    String issuer;

    @Column(name = "patient_name", length = ParsedInstance.PN)
    String patientName;

    /** PatientName in lower case, for case-insensitive ("fuzzy") matching through an index. */
    @Column(name = "patient_name_lc", length = ParsedInstance.PN)
    String patientNameLower;

    @Column(name = "birth_date", length = 8)
    String birthDate;

    @Column(name = "sex", length = ParsedInstance.CS)
    String sex;

    protected PatientEntity() {
    }

    PatientEntity(String key) {
        this.key = key;
    }
}
