package org.medjava.store.core.model;

import org.medjava.store.core.StoreException;
/**
 * The conditional headers of a write (RFC 9110 §13): {@code If-Match} (a list of entity tags or "*") and
 * {@code If-None-Match: *} (create only).
 */
public record Preconditions(String ifMatch, String ifNoneMatch) {

    public static final Preconditions NONE = new Preconditions(null, null);

    /** @throws StoreException PRECONDITION_FAILED when the current state does not satisfy the headers */
    public void check(StorePath path, StoredFile current) {
        if (ifMatch != null && !ifMatch.isBlank()) {
            if (current == null) {
                throw new StoreException(StoreException.Kind.PRECONDITION_FAILED, "If-Match: " + path
                        + " does not exist");
            }
            if (!matches(ifMatch, current.etag())) {
                throw new StoreException(StoreException.Kind.PRECONDITION_FAILED, "If-Match: " + path
                        + " has changed (its ETag is now " + current.etag() + "); fetch it again and retry");
            }
        }
        if (ifNoneMatch != null && !ifNoneMatch.isBlank() && current != null
                && (ifNoneMatch.trim().equals("*") || matches(ifNoneMatch, current.etag()))) {
            throw new StoreException(StoreException.Kind.PRECONDITION_FAILED, "If-None-Match: " + path
                    + " already exists");
        }
    }

    /** Strong comparison against a comma-separated list of entity tags, or "*". */
    public static boolean matches(String header, String etag) {
        for (String tag : header.split(",")) {
            String t = tag.trim();
            if (t.equals("*") || t.equals(etag)) {
                return true;
            }
        }
        return false;
    }
}
