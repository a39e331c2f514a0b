package org.medjava.filter;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.StringJoiner;

/**
 * Validated parameter values for one filter, every parameter present (defaults filled in). Made only by
 * {@link FilterDescriptor#params(Map)}, so a filter never sees a value that breaks its rule.
 */
public final class FilterParams {
    private final String filterId;
    private final Map<String, Object> values;

    FilterParams(String filterId, Map<String, Object> values) {
        this.filterId = filterId;
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    public String filterId() {
        return filterId;
    }

    public int getInt(String name) {
        return (Integer) get(name);
    }

    public Extent getExtent(String name) {
        return (Extent) get(name);
    }

    public String getChoice(String name) {
        return (String) get(name);
    }

    public boolean getBoolean(String name) {
        return (Boolean) get(name);
    }

    private Object get(String name) {
        Object value = values.get(name);
        if (value == null) {
            throw new NoSuchElementException(filterId + " has no parameter " + name);
        }
        return value;
    }

    /** Parameter name to canonical text, in declaration order. */
    public Map<String, String> asText() {
        Map<String, String> text = new LinkedHashMap<>();
        values.forEach((k, v) -> text.put(k, v.toString()));
        return text;
    }

    /** {@code "n=3 p=75"}: the canonical form used in logs, timing records and CSV files. */
    @Override
    public String toString() {
        StringJoiner joiner = new StringJoiner(" ");
        values.forEach((k, v) -> joiner.add(k + "=" + v));
        return joiner.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FilterParams && ((FilterParams) o).filterId.equals(filterId)
                && ((FilterParams) o).values.equals(values);
    }

    @Override
    public int hashCode() {
        return filterId.hashCode() * 31 + values.hashCode();
    }
}
