package org.medjava.store.core.index;

import java.time.Instant;

/** The outcome of one deletion into the trash: its identifier, how many instances it took, and until when. */
public record Trashed(String trashId, TrashScope scope, int instances, Instant purgeAfter) {
}
