package org.medjava.store.server.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import org.medjava.store.core.cluster.SharedState;

/**
 * The store's keys: 32 random bytes made on the first start, kept in the data directory (mode 600) on one node, in
 * the cluster's shared state on several (every node must accept the sessions of the others, and map UIDs alike).
 */
public enum StoreKeys {
    /** What sessions and share links are signed with. */
    SESSION("session.key", "session", "every browser session ends"),
    /** What de-identifying move destinations derive their secrets from. */
    DEIDENTIFICATION("deid.key", "deid", "de-identifying move destinations then send new UIDs for the same studies");

    static final int LENGTH = 32;
    private static final String NAME = "hmac-key";

    private final String file;
    private final String kind;
    private final String lost;

    StoreKeys(String file, String kind, String lost) {
        this.file = file;
        this.kind = kind;
        this.lost = lost;
    }

    /** The key in the data directory {@code data}, made (readable by its owner only) when there is none. */
    public byte[] local(Path data) throws IOException {
        Path path = data.resolve(file);
        if (!Files.exists(path)) {
            Path temp = path.resolveSibling(file + ".tmp");
            Files.deleteIfExists(temp);
            Files.createFile(temp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.write(temp, random());
            Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE);
        }
        byte[] key = Files.readAllBytes(path);
        if (key.length != LENGTH) {
            throw new IOException(path + " holds " + key.length + " bytes where a key has " + LENGTH
                    + "; delete it to make a new one (" + lost + ")");
        }
        return key;
    }

    /** The cluster's key: the first node to start makes it, the others read it. */
    public byte[] shared(SharedState state) {
        state.putIfAbsent(kind, NAME, random());
        SharedState.Entry entry = state.all(kind).get(NAME);
        if (entry == null || entry.value().length != LENGTH) {
            throw new IllegalStateException("the cluster's " + kind + " key is missing or damaged in the shared"
                    + " database (medjava_state, kind " + kind + ")");
        }
        return entry.value();
    }

    private static byte[] random() {
        byte[] key = new byte[LENGTH];
        new SecureRandom().nextBytes(key);
        return key;
    }
}
