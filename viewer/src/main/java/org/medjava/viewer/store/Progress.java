package org.medjava.viewer.store;

/** Where long transfers report how far they got, and learn whether the user cancelled. */
public interface Progress {
    Progress NONE = (done, total) -> { };

    /** @param total -1 when unknown */
    void update(long done, long total);

    default boolean cancelled() {
        return false;
    }
}
