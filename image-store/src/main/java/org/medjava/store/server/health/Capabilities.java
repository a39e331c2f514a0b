package org.medjava.store.server.health;

import java.io.IOException;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.repo.ImageRepository;

/**
 * What a node can serve now, by which of its two dependencies answer: the objects' storage (reads and writes of
 * objects) and the index database (queries, metadata; writes need both). A node with either is ready, and says what
 * it serves: a load balancer keeps it, so reads go on while the database is away and queries while the storage is;
 * what needs the missing one is answered 503 with Retry-After. Neither: not ready.
 */
record Capabilities(boolean storage, String storageError, boolean index, String indexError) {

    static Capabilities probe(ImageRepository images, DicomIndex index) {
        String storageError = null;
        try {
            images.storage().checkAvailable();
        } catch (IOException | RuntimeException e) {
            storageError = String.valueOf(e.getMessage());
        }
        String indexError = null;
        try {
            index.ping();
        } catch (RuntimeException e) {
            indexError = String.valueOf(e.getMessage());
        }
        return new Capabilities(storageError == null, storageError, indexError == null, indexError);
    }

    /** Ready: at least one of the two answers. */
    boolean serving() {
        return storage || index;
    }

    /** In a sentence, for the checks' data. */
    String serves() {
        if (storage && index) {
            return "everything";
        }
        if (storage) {
            return "objects by path (reads); queries, metadata and writes answered 503 until the database is back";
        }
        if (index) {
            return "queries and metadata; objects and writes answered 503 until the storage is back";
        }
        return "nothing: neither the storage nor the database answers";
    }
}
