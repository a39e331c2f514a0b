package org.medjava.viewer.store;

import java.util.List;

/** A store directory: its path under /images/ (ending with '/', "" at the top) and its entries. */
public record Listing(String path, List<Entry> entries) {

    /**
     * One entry. {@code dicom} is the index's one-line summary of a DICOM file (modality, date, size), "" otherwise.
     */
    public record Entry(String name, boolean directory, long size, String contentType, String dicom) {
    }

    public Listing {
        entries = List.copyOf(entries);
    }
}
