package org.medjava.viewer.store;

/** A single sign-on that did not complete; the message is for the user (what happened, what to do). */
public final class SignInFailed extends Exception {
    private static final long serialVersionUID = 1L;

    public SignInFailed(String message) {
        super(message);
    }

    public SignInFailed(String message, Throwable cause) {
        super(message, cause);
    }
}
