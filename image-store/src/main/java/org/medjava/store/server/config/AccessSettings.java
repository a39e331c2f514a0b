package org.medjava.store.server.config;

import java.util.Map;
import java.util.Set;
import org.medjava.store.core.ingest.ReceiveLabels;

/**
 * Who sees which studies: access by project, the labels a study gets from its sender, and share links.
 *
 * @param receiveLabels the labels by sender, parsed: {@code SENDER -> labels}
 */
public record AccessSettings(boolean byProject, Map<String, Set<String>> receiveLabels, int shareMaxDays) {

    /**
     * Access by project: a caller who is not an administrator sees only the studies carrying a label named like one
     * of their projects (the OpenID provider's {@code medjava.oidc.projects-claim}, or a local account's own, set with
     * {@code PUT /admin/users/{name}}); a caller without a project sees none, and no count or lookup reveals the
     * others. Studies are labelled by administrators ({@code PUT /index/studies/{uid}/labels/{label}}). Enforced
     * beneath QIDO-RS, WADO-RS, rendering, thumbnails, the index listings, the change feed and the files under
     * {@code /images/}; the doors that do not filter by study yet ({@code /images/} listings, the trash, jobs) are for administrators only while it is on, and the
     * front's direct reads are off.
     */
    static final Key BY_PROJECT = Key.of("medjava.access.by-project", "false");

    /**
     * Labels put on a study as it arrives, by who sent it: {@code SENDER=label|label} pairs, comma-separated, a sender
     * being the calling AE title of a C-STORE (or the PACS a retrieve came from) or the account of a STOW-RS
     * ({@code CARDIO_CT=cardiology, trials-upload=research|trials}). Applies whether or not access by project is on.
     */
    static final Key RECEIVE_LABELS = Key.of("medjava.access.receive-labels");

    /**
     * The longest a share link may stay valid, in days ({@code POST /shares}: one study, read only, without an
     * account, until it expires or is revoked); 0 turns share links off (those made before stop opening).
     */
    static final Key SHARE_MAX_DAYS = Key.of("medjava.share.max-days", "30");

    public static AccessSettings from(SettingsSource source) {
        return new AccessSettings(source.bool(BY_PROJECT), source.parsed(RECEIVE_LABELS, ReceiveLabels::parse, null),
                (int) SettingsSource.within(SHARE_MAX_DAYS, source.integer(SHARE_MAX_DAYS), 0, 3660));
    }

    public AccessSettings {
        receiveLabels = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(receiveLabels));
    }
}
