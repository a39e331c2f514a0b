package org.medjava.store.core.index;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.Lob;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;

/**
 * One indexed file, keyed by its store path (the same SOP Instance UID may sit at two paths). Times are epoch
 * milliseconds (portable across databases and JPA versions).
 */
@Entity
@Table(name = "mj_instance", indexes = {
        @Index(name = "mj_instance_dir_ix", columnList = "directory"),
        @Index(name = "mj_instance_series_ix", columnList = "series_uid"),
        @Index(name = "mj_instance_sop_ix", columnList = "sop_instance_uid")})
class InstanceEntity {
    static final int PATH_LENGTH = org.medjava.store.core.model.StorePath.MAX_LENGTH;

    @Id
    @Column(name = "store_path", length = PATH_LENGTH)
    String path;

    /** The path's parent directory ("" at the top), for the directory listing. */
    @Column(name = "directory", length = PATH_LENGTH, nullable = false)
    String directory;

    @ManyToOne(optional = false)
    @JoinColumn(name = "series_uid", nullable = false)
    SeriesEntity series;

    @Column(name = "sop_instance_uid", length = ParsedInstance.UI, nullable = false)
    String sopInstanceUid;

    @Column(name = "sop_class_uid", length = ParsedInstance.UI)
    String sopClassUid;

    @Column(name = "instance_number")
    Integer instanceNumber;

    @Column(name = "transfer_syntax_uid", length = ParsedInstance.UI)
    String transferSyntaxUid;

    /** Who sent it by DICOM: its file meta information's Source AE Title (a C-STORE's calling AE title). */
    @Column(name = "source_ae", length = ParsedInstance.AE)
    String sourceAe;

    @Column(name = "num_rows")
    Integer rows;

    @Column(name = "num_columns")
    Integer columns;

    @Column(name = "number_of_frames")
    Integer numberOfFrames;

    @Column(name = "bits_allocated")
    Integer bitsAllocated;

    @Column(name = "photometric", length = ParsedInstance.CS)
    String photometricInterpretation;

    @Column(name = "file_size", nullable = false)
    long fileSize;

    @Column(name = "last_modified_ms", nullable = false)
    long lastModified;

    @Column(name = "indexed_at_ms", nullable = false)
    long indexedAt;

    /**
     * The header as DICOM JSON of rows indexed before {@link MetadataEntity} held it (null for newer rows and for rows
     * indexed before metadata was kept at all).
     */
    @Lob
    @Column(name = "metadata_json")
    String metadataJson;

    protected InstanceEntity() {
    }

    InstanceEntity(String path) {
        this.path = path;
    }
}
