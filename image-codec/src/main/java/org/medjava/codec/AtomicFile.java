package org.medjava.codec;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.Locale;

/**
 * {@link ImageCodec#writeAtomically}: a temp file beside the target, forced to disk and renamed over it. The temp file
 * is created as any new file is (mode 0666 less the umask, like the file a tool writes: not
 * {@code Files.createTempFile}'s 0600), so the result is readable as the user's umask says. A file-system refusal
 * names the file asked for and the reason, not the temp file.
 */
final class AtomicFile {
    private static final SecureRandom RANDOM = new SecureRandom();

    private AtomicFile() {
    }

    static void write(Path file, ImageCodec.Body body) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Path temp = null;
        try {
            temp = createTemp(dir, file);
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                BufferedOutputStream out = new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 16);
                body.writeTo(out);
                out.flush();
                channel.force(true);
            }
            try {
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (FileSystemException e) {
            throw cannotWrite(file, dir, e);
        } finally {
            if (temp != null) {
                Files.deleteIfExists(temp);
            }
        }
    }

    /** A new empty file beside {@code file}, with no attributes given: the mode is the umask's. */
    private static Path createTemp(Path dir, Path file) throws IOException {
        while (true) {
            Path candidate = dir.resolve("." + file.getFileName() + "." + Long.toUnsignedString(RANDOM.nextLong(), 36)
                    + ".part");
            try {
                return Files.createFile(candidate);
            } catch (FileAlreadyExistsException e) {
                // taken: another name
            }
        }
    }

    /** "cannot write out.png: permission denied in /x", "...: no such directory /x/y", "...: read-only file system". */
    static IOException cannotWrite(Path file, Path dir, FileSystemException e) {
        String reason;
        if (e instanceof AccessDeniedException) {
            reason = "permission denied in " + dir;
        } else if (Files.isRegularFile(dir)) {
            reason = dir + " is a file, not a directory";
        } else if (!Files.isDirectory(dir)) {
            reason = "no such directory " + dir;
        } else if (e.getReason() != null) {
            reason = e.getReason().toLowerCase(Locale.ROOT) + " (in " + dir + ")";
        } else {
            reason = e.getClass().getSimpleName() + " (in " + dir + ")";
        }
        return new IOException("cannot write " + file + ": " + reason, e);
    }
}
