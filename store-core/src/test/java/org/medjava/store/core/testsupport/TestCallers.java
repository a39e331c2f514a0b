package org.medjava.store.core.testsupport;

import org.medjava.store.core.audit.Caller;

/** Who the tests' store operations are done by: the store's doors take their caller explicitly. */
public final class TestCallers {
    /** An account calling over HTTP, as the audit trail names it. */
    public static final Caller USER = Caller.account("tester", "127.0.0.1");

    private TestCallers() {
    }
}
