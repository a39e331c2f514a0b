package org.medjava.filter;

/**
 * A filter asked to run on data it cannot serve: 16-bit grey for a filter that filters 8-bit RGB only, or data no
 * filter serves (colour of more than 8 bits per channel, 32-bit, float). The message names the filter, the data and
 * what the filter does serve. Not a defect of the filter: hosts must not mark its plugin failed.
 */
public class UnsupportedDataException extends UnsupportedOperationException {
    private static final long serialVersionUID = 1L;

    private final String filterId;
    private final String data;

    /**
     * @param data what was offered, e.g. "12-bit signed grey", "16-bit RGB colour", "32-bit float grey"
     * @param supported what the filter serves, e.g. "8-bit RGB only"
     */
    public UnsupportedDataException(String filterId, String data, String supported) {
        super(filterId + " cannot filter " + data + " data: " + filterId + " filters " + supported);
        this.filterId = filterId;
        this.data = data;
    }

    /** The refusal of {@code filter} for {@code data}, listing what the filter serves. */
    public static UnsupportedDataException of(Filter filter, String data) {
        return new UnsupportedDataException(filter.descriptor().id(), data, filter.supportsGray16()
                ? "8-bit RGB and 1..16-bit signed or unsigned grey only" : "8-bit RGB only");
    }

    public String filterId() {
        return filterId;
    }

    public String data() {
        return data;
    }
}
