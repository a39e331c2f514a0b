package org.medjava.store.core.audit;

import java.util.Optional;

/**
 * Who asks the store to do something, as the audit trail names them: an account (HTTP) or a calling AE title
 * (DICOM), and the network address the request came from. The HTTP filter and the DICOM association bind the
 * caller to the thread that serves them, so store-core records who did what without every method taking it.
 *
 * @param user    the account name or AE title; null when nobody logged in
 * @param address the peer's network address; null when unknown
 * @param aeTitle whether {@code user} is a DICOM AE title
 */
public record Caller(String user, String address, boolean aeTitle) {

    private static final ThreadLocal<Caller> CURRENT = new ThreadLocal<>();

    /** A binding to undo when the request ends ({@code try (var b = Caller.bind(...))}). */
    public interface Binding extends AutoCloseable {
        @Override
        void close();
    }

    public static Caller account(String user, String address) {
        return new Caller(user, address, false);
    }

    public static Caller dicom(String aeTitle, String address) {
        return new Caller(aeTitle, address, true);
    }

    /** The caller the current thread serves. */
    public static Optional<Caller> current() {
        return Optional.ofNullable(CURRENT.get());
    }

    /** Makes {@code caller} the current thread's until the binding is closed (the previous one comes back). */
    public static Binding bind(Caller caller) {
        Caller previous = CURRENT.get();
        CURRENT.set(caller);
        return () -> {
            if (previous == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(previous);
            }
        };
    }

    /** The audit trail's name for this caller: the account, the AE title, or "anonymous". */
    public String userId() {
        return user == null || user.isBlank() ? "anonymous" : user;
    }
}
