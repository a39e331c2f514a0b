package org.medjava.store.core.deid;

import java.util.Locale;
import java.util.Set;

/**
 * What the action C ("clean") does to a text value: a cleaned value, or null when the value cannot be cleaned (the
 * instance is then refused, {@link DeidRefused}). The engine has no language model: its default
 * ({@link #refusingIdentifiers}) keeps a descriptor unless it contains one of the instance's own identifying values.
 */
@FunctionalInterface
public interface DescriptorCleaner {

    /**
     * @param tag         the attribute, as (GGGG,EEEE)
     * @param value       one of its values
     * @param identifiers the identifying values of the same instance (the original values of the text attributes the
     *                    profile removes or replaces, names split into their components), upper case, 3 characters
     *                    or more
     * @return the cleaned value, or null when it cannot be cleaned
     */
    String clean(String tag, String value, Set<String> identifiers);

    /** Keeps a value that holds none of the identifiers (compared in upper case); refuses the others. */
    static DescriptorCleaner refusingIdentifiers() {
        return (tag, value, identifiers) -> {
            String v = value.toUpperCase(Locale.ROOT);
            for (String id : identifiers) {
                if (v.contains(id)) {
                    return null;
                }
            }
            return value;
        };
    }
}
