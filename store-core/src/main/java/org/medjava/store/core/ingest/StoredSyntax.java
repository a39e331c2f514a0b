package org.medjava.store.core.ingest;

import java.util.Locale;

/**
 * In what transfer syntax an object received over the network (C-STORE, STOW-RS, a retrieve) is stored:
 * {@link #RECEIVED}, as sent (the default: the store keeps the sender's bytes, and a file read back is the file
 * received), or {@link #HTJ2K_LOSSLESS}: an uncompressed object is written again as HTJ2K Lossless RPCL, kept only
 * when decoding it gives back every sample (the uncompressed original is then not kept; compressed objects, lossy ones
 * above all, stay as sent). An HTTP {@code PUT /images/...} always stores the bytes it is given.
 */
public enum StoredSyntax {
    RECEIVED, HTJ2K_LOSSLESS;

    public static StoredSyntax parse(String text) {
        for (StoredSyntax s : values()) {
            if (s.id().equals(text.trim().toLowerCase(Locale.ROOT))) {
                return s;
            }
        }
        throw new IllegalArgumentException("stored syntax \"" + text + "\": use received or htj2k-lossless");
    }

    public String id() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
