package org.medjava.store.server.security;

import java.io.IOException;
import java.util.Map;

/**
 * Where {@link UserStore} keeps its accounts ({@code name -> "role:PBKDF2 hash"}, with {@code ":projects"} for an
 * account that has some): a properties file on one node ({@link AccountFile}), the cluster's shared state on several
 * ({@link SharedAccounts}).
 */
public interface AccountBook {

    Map<String, String> load() throws IOException;

    /** Creates or replaces one account (the whole book is written for a file: accounts are few). */
    void put(String name, String entry, Map<String, String> all) throws IOException;

    /**
     * Creates an account unless one of that name exists in the book.
     *
     * @param all every account with this one, as the book will hold them
     * @return whether it was created
     */
    boolean putIfAbsent(String name, String entry, Map<String, String> all) throws IOException;

    void remove(String name, Map<String, String> all) throws IOException;

    /** Calls {@code reload} whenever another node changed the accounts. */
    default void onChange(Runnable reload) {
    }
}
