package org.medjava.filter;

/** A filter parameter that breaks its rule. The message names the filter, the parameter, the value and the rule. */
public class InvalidParameterException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public InvalidParameterException(String message) {
        super(message);
    }
}
