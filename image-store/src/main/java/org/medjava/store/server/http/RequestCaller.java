package org.medjava.store.server.http;

import jakarta.servlet.http.HttpServletRequest;
import org.medjava.store.core.audit.Caller;

/**
 * Who an HTTP request comes from, as the audit trail names them: its account (none when nobody logged in) and its
 * client's address through the trusted proxies ({@link PublicBase#clientAddress}). The access log filter puts it on
 * the request as the request enters ({@link #ATTRIBUTE}); resources hand it to the store's doors as a parameter.
 */
public final class RequestCaller {
    /** The request attribute holding the request's {@link Caller}. */
    public static final String ATTRIBUTE = RequestCaller.class.getName();

    private RequestCaller() {
    }

    /** The caller the access log filter noted on {@code request}; its account and peer address if none did. */
    public static Caller of(HttpServletRequest request) {
        return request.getAttribute(ATTRIBUTE) instanceof Caller caller ? caller
                : Caller.account(request.getRemoteUser(), request.getRemoteAddr());
    }
}
