package org.medjava.store.core.index;

import java.time.Instant;

/**
 * A share link ({@code mj_share}): one study, read only, for whoever holds the link, until it expires or is revoked.
 * What the link itself carries (its id and a signature) is the store's business; this is the record it is checked
 * against on every request.
 *
 * @param id        random, URL-safe, the key
 * @param studyUid  the one study it opens
 * @param createdBy the user who made it
 * @param created   when
 * @param expires   when it stops opening anything
 * @param revoked   when it was revoked, or null
 * @param revokedBy who revoked it, or null
 * @param note      what the maker said it is for (may be empty)
 * @param opens     how many times the link was opened
 * @param lastOpen  when it was last opened, or null
 */
public record Share(String id, String studyUid, String createdBy, Instant created, Instant expires, Instant revoked,
                    String revokedBy, String note, long opens, Instant lastOpen) {

    /** Whether it opens the study at {@code now}: not revoked, not expired. */
    public boolean live(Instant now) {
        return revoked == null && now.isBefore(expires);
    }
}
