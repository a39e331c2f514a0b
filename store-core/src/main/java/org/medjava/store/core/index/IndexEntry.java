package org.medjava.store.core.index;

import com.pixelmed.dicom.AttributeList;

/**
 * What the index will keep of one DICOM object, taken from a data set that was parsed already (the network ingest
 * parses each object once, for validation, its path and the index): the values of the index's columns and the header
 * as DICOM JSON. Made outside any lock; {@link DicomIndex#put(IndexEntry, long, long)} writes it.
 */
public final class IndexEntry {

    final String path;
    final ParsedInstance parsed;

    private IndexEntry(String path, ParsedInstance parsed) {
        this.path = path;
        this.parsed = parsed;
    }

    /**
     * @param storePath where the object is or will be stored, e.g. {@code dicom/P1/1.2/1.2.3/1.2.3.4.dcm}
     * @param dataSet   the parsed object (file meta information included; attributes from Pixel Data on are ignored)
     * @throws IndexException when it lacks a study, series or SOP Instance UID, or one is too long
     * @throws IllegalArgumentException when {@code storePath} is not a valid store path
     */
    public static IndexEntry of(String storePath, AttributeList dataSet) {
        String path = StorePaths.file(storePath);
        return new IndexEntry(path, ParsedInstance.of(path, dataSet));
    }

    public String path() {
        return path;
    }
}
