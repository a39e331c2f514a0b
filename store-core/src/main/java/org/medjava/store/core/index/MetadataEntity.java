package org.medjava.store.core.index;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Lob;
import jakarta.persistence.Table;

/**
 * The header of an indexed file as DICOM JSON (up to Pixel Data, bulk data by reference), in a table of its own:
 * a large value (an H2 LOB, ~10 KB a CT slice) that a deletion into the trash leaves in place, so that taking a
 * 5,000-instance study out of the index does not wait for H2 to free 5,000 LOBs (3 s against 0.3 s); the purge
 * removes it with the file. Read only for paths that are indexed. Rows indexed before it existed keep their
 * metadata in {@code mj_instance.metadata_json}.
 */
@Entity
@Table(name = "mj_metadata")
class MetadataEntity {
    @Id
    @Column(name = "store_path", length = InstanceEntity.PATH_LENGTH)
    String path;

    @Lob
    @Column(name = "metadata_json")
    String json;

    protected MetadataEntity() {
    }

    MetadataEntity(String path, String json) {
        this.path = path;
        this.json = json;
    }
}
