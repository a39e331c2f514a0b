package org.medjava.store.core.ingest;

import java.util.Locale;

/**
 * What happens when an object arrives over the network (C-STORE, STOW-RS, a retrieve) whose SOP Instance UID the
 * store already holds: {@link #REJECT} it (the stored object stays, the sender gets "duplicate SOP instance"), or
 * {@link #REPLACE} the stored object (the old file stays in place until the new one is complete and valid, then is
 * swapped atomically).
 */
public enum DuplicatePolicy {
    REJECT, REPLACE;

    public static DuplicatePolicy parse(String text) {
        for (DuplicatePolicy p : values()) {
            if (p.name().equalsIgnoreCase(text.trim())) {
                return p;
            }
        }
        throw new IllegalArgumentException("duplicate policy \"" + text + "\": use reject or replace");
    }

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
