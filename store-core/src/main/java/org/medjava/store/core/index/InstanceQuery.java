package org.medjava.store.core.index;

import java.util.Map;
import java.util.Set;

/** Matching keys at the instance level: {@link #KEYWORDS}. */
public final class InstanceQuery extends DicomQuery<InstanceQuery> {
    public static final Set<String> KEYWORDS = Set.of("SOPInstanceUID", "SOPClassUID", "InstanceNumber");

    private InstanceQuery(Map<String, String> keys, boolean fuzzy, int offset, int limit,
                     Visibility visibility) {
        super(KEYWORDS, keys, fuzzy, offset, limit, visibility);
    }

    /** Every instance. */
    public static InstanceQuery all() {
        return new InstanceQuery(Map.of(), false, 0, 0, Visibility.everything());
    }

    @Override
    InstanceQuery copy(Map<String, String> keys, boolean fuzzy, int offset, int limit,
                   Visibility visibility) {
        return new InstanceQuery(keys, fuzzy, offset, limit, visibility);
    }

    public InstanceQuery sopInstanceUid(String key) {
        return with("SOPInstanceUID", key);
    }

    public InstanceQuery sopClassUid(String key) {
        return with("SOPClassUID", key);
    }

    public InstanceQuery instanceNumber(String key) {
        return with("InstanceNumber", key);
    }
}
