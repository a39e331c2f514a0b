package org.medjava.store.server.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import org.medjava.store.core.cluster.SharedState;

/**
 * The key sessions are signed with: 32 random bytes made on the first start, kept in the data directory (mode 600)
 * on one node, in the cluster's shared state on several (every node must accept the sessions of the others).
 */
public final class SessionKeys {

    static final int LENGTH = 32;
    private static final String KIND = "session";
    private static final String NAME = "hmac-key";

    private SessionKeys() {
    }

    /** The key in {@code file}, made (readable by its owner only) when there is none. */
    public static byte[] local(Path file) throws IOException {
        if (!Files.exists(file)) {
            Path temp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.deleteIfExists(temp);
            Files.createFile(temp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.write(temp, random());
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
        }
        byte[] key = Files.readAllBytes(file);
        if (key.length != LENGTH) {
            throw new IOException(file + " holds " + key.length + " bytes where a session key has " + LENGTH
                    + "; delete it to make a new one (every browser session ends)");
        }
        return key;
    }

    /** The cluster's key: the first node to start makes it, the others read it. */
    public static byte[] shared(SharedState state) {
        state.putIfAbsent(KIND, NAME, random());
        SharedState.Entry entry = state.all(KIND).get(NAME);
        if (entry == null || entry.value().length != LENGTH) {
            throw new IllegalStateException("the cluster's session key is missing or damaged in the shared"
                    + " database (medjava_state, kind " + KIND + ")");
        }
        return entry.value();
    }

    private static byte[] random() {
        byte[] key = new byte[LENGTH];
        new SecureRandom().nextBytes(key);
        return key;
    }
}
