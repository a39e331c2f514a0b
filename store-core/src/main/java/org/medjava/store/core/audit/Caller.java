package org.medjava.store.core.audit;

/**
 * Who asks the store to do something, as the audit trail names them: an account (HTTP) or a calling AE title
 * (DICOM), and the network address the request came from. The store's doors take it as a parameter, passed from
 * where the request is known: a resource from its HTTP request, a DIMSE service from its association, a job from
 * its owner, the store's own background work {@link #STORE}. (No thread-bound "current caller": work handed to
 * another thread would lose it, and a door that audits says so in its signature.)
 *
 * @param user    the account name or AE title; null when nobody logged in
 * @param address the peer's network address; null when unknown
 * @param aeTitle whether {@code user} is a DICOM AE title
 */
public record Caller(String user, String address, boolean aeTitle) {

    public static Caller account(String user, String address) {
        return new Caller(user, address, false);
    }

    public static Caller dicom(String aeTitle, String address) {
        return new Caller(aeTitle, address, true);
    }

    /**
     * The store itself: its own background work (recovery, retention's deletions, the trash's purge, start-up
     * seeding, a job nobody submitted). Study changes, corrections and exchanges name the store as their requestor;
     * other events name no account ("anonymous"), as for a request nobody logged in to.
     */
    public static final Caller STORE = new Caller(null, null, false);

    /** Whether this is {@link #STORE}, the store acting on its own (no account, no AE title, no address). */
    public boolean isStore() {
        return user == null && address == null && !aeTitle;
    }

    /** The audit trail's name for this caller: the account, the AE title, or "anonymous". */
    public String userId() {
        return user == null || user.isBlank() ? "anonymous" : user;
    }
}
