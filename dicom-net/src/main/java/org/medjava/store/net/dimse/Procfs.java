package org.medjava.store.net.dimse;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * What Linux's /proc says of loopback TCP sockets: which socket (by inode) is bound to a local port and connected to
 * another, and whether this process holds it. For {@link TlsTunnel}, which must know that the connection it relays
 * is the store's own.
 */
final class Procfs {
    private static final List<Path> TABLES = List.of(Path.of("/proc/net/tcp"), Path.of("/proc/net/tcp6"));

    private Procfs() {
    }

    /**
     * The inode of the socket bound to loopback port {@code port} and connected to loopback port {@code peerPort};
     * null when /proc is not there (another system) and "" when no such socket is listed (not seen as this
     * process's).
     */
    static String socketInode(int port, int peerPort) {
        String local = String.format(Locale.ROOT, ":%04X", port);
        String remote = String.format(Locale.ROOT, ":%04X", peerPort);
        boolean readable = false;
        for (Path table : TABLES) {
            List<String> lines;
            try {
                lines = Files.readAllLines(table);
            } catch (IOException e) {
                continue;
            }
            readable = true;
            for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
                String[] f = line.trim().split("\\s+");
                // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
                if (f.length > 9 && f[1].endsWith(local) && f[2].endsWith(remote)) {
                    return f[9];
                }
            }
        }
        return readable ? "" : null;
    }

    /** Whether one of this process's file descriptors is the socket of that inode. */
    static boolean ownsSocket(String inode) {
        if (inode.isEmpty()) {
            return false;
        }
        String target = "socket:[" + inode + "]";
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
            for (Path fd : fds) {
                try {
                    if (Files.readSymbolicLink(fd).toString().equals(target)) {
                        return true;
                    }
                } catch (IOException e) {
                    // closed meanwhile
                }
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }
}
