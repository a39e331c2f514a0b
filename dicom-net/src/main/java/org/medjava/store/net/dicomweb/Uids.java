package org.medjava.store.net.dicomweb;

import java.util.regex.Pattern;
import org.medjava.store.core.StoreException;

/** Checks the UIDs in DICOMweb paths before they reach a query. */
public final class Uids {
    private static final Pattern UID = Pattern.compile("[0-9]+(\\.[0-9]+)*");

    private Uids() {
    }

    public static String check(String uid, String what) {
        if (uid == null || uid.length() > 64 || !UID.matcher(uid).matches()) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, what + " \"" + uid + "\" is not a UID");
        }
        return uid;
    }
}
