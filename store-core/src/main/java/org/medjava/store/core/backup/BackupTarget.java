package org.medjava.store.core.backup;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.medjava.store.core.StoreException;

/**
 * Where a backup may be written on the store's disk: an absolute path, written plainly (no "." or ".." segments), to
 * a directory that does not exist yet (its parent does) or is empty, not a symbolic link, and neither inside the
 * store's data directory nor containing it. Everything else is refused before anything is written.
 */
public final class BackupTarget {

    private BackupTarget() {
    }

    /**
     * Checks {@code requested} and creates the directory when it is new.
     *
     * @return the directory, by its real path
     * @throws BackupException BAD_REQUEST for a path that is not allowed, CONFLICT for one that is taken
     */
    public static Path prepare(String requested, Path dataDir) throws IOException {
        Path target = check(requested);
        Path parent = target.getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new BackupException("the backup directory's parent " + parent + " does not exist; create it first");
        }
        Path real = parent.toRealPath().resolve(target.getFileName());
        Path data = Files.exists(dataDir) ? dataDir.toRealPath() : dataDir.toAbsolutePath().normalize();
        if (real.startsWith(data) || data.startsWith(real)) {
            throw new BackupException("the backup directory " + real + " must lie outside the store's data directory "
                    + data + " (and not contain it)");
        }
        if (Files.isSymbolicLink(real)) {
            throw new BackupException("the backup directory " + real + " is a symbolic link; give the real path");
        }
        if (Files.exists(real, LinkOption.NOFOLLOW_LINKS)) {
            if (!Files.isDirectory(real, LinkOption.NOFOLLOW_LINKS)) {
                throw conflict(real + " is a file; a backup needs a new or empty directory");
            }
            if (!isEmpty(real)) {
                throw conflict(real + " is not empty; a backup needs a new or empty directory (nothing is overwritten)");
            }
            return real;
        }
        try {
            Files.createDirectory(real);
        } catch (FileAlreadyExistsException | DirectoryNotEmptyException e) {
            throw conflict(real + " was created meanwhile; a backup needs a new or empty directory");
        }
        return real;
    }

    /** The requested path as a Path, refused unless absolute and plain. */
    static Path check(String requested) {
        if (requested == null || requested.isBlank()) {
            throw new BackupException("say where to write the backup: an absolute directory on the store's disk,"
                    + " new or empty");
        }
        Path path;
        try {
            path = Path.of(requested);
        } catch (InvalidPathException e) {
            throw new BackupException("not a path: " + e.getMessage());
        }
        if (!path.isAbsolute()) {
            throw new BackupException("the backup directory must be an absolute path on the store's disk, not \""
                    + requested + "\"");
        }
        for (Path segment : path) {
            String s = segment.toString();
            if (s.equals(".") || s.equals("..")) {
                throw new BackupException("the backup directory \"" + requested + "\" has a \"" + s
                        + "\" segment; write the path plainly");
            }
        }
        if (path.getParent() == null) {
            throw new BackupException("the backup directory cannot be the file system's root");
        }
        return path.normalize();
    }

    static boolean isEmpty(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        }
    }

    private static BackupException conflict(String message) {
        return new BackupException(StoreException.Kind.CONFLICT, message);
    }
}
