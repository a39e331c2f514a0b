package org.medjava.store.core.index;

import java.util.Map;
import java.util.Set;

/** Matching keys at the instance level: {@link #KEYWORDS}. */
public final class InstanceQuery extends DicomQuery<InstanceQuery> {
    public static final Set<String> KEYWORDS = Set.of("SOPInstanceUID", "SOPClassUID", "InstanceNumber");

    private InstanceQuery(Map<String, String> keys, boolean fuzzy, int offset, int limit) {
        super(KEYWORDS, keys, fuzzy, offset, limit);
    }

    /** Every instance. */
    public static InstanceQuery all() {
        return new InstanceQuery(Map.of(), false, 0, 0);
    }

    @Override
    InstanceQuery copy(Map<String, String> keys, boolean fuzzy, int offset, int limit) {
        return new InstanceQuery(keys, fuzzy, offset, limit);
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
