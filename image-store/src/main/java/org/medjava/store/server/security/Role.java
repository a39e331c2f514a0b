package org.medjava.store.server.security;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/** The store's roles. Each includes the ones below it: an admin may upload, an uploader may read. */
public enum Role {
    READER, UPLOADER, ADMIN;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The role names a user with this role holds (the container maps them one to one to groups). */
    public Set<String> groups() {
        Set<String> names = new java.util.TreeSet<>();
        for (Role r : EnumSet.range(READER, this)) {
            names.add(r.id());
        }
        return names;
    }

    public static Role parse(String text) {
        for (Role r : values()) {
            if (r.id().equals(text.trim().toLowerCase(Locale.ROOT))) {
                return r;
            }
        }
        throw new IllegalArgumentException("unknown role \"" + text + "\"; roles are reader, uploader, admin");
    }
}
