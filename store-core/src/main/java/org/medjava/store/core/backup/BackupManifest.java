package org.medjava.store.core.backup;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The checksums of every file in a backup, as {@value #FILE} in its top directory: one line per file,
 * {@code <sha256 hex>  <path relative to the backup>} with '/' separators, sorted by path; the format of
 * {@code sha256sum}, so {@code cd BACKUP && sha256sum -c manifest.sha256} checks a backup without MedJava. Only
 * {@value #FILE} itself and {@value BackupInfo#FILE} (which holds the manifest's own checksum) are not listed.
 */
public final class BackupManifest {

    public static final String FILE = "manifest.sha256";

    private final SortedMap<String, String> checksums;

    private BackupManifest(SortedMap<String, String> checksums) {
        this.checksums = checksums;
    }

    /** An empty manifest, to {@link #add} files to while a backup is written. */
    public static BackupManifest empty() {
        return new BackupManifest(Collections.synchronizedSortedMap(new TreeMap<>()));
    }

    /** The checksums by relative path. */
    public Map<String, String> checksums() {
        return Collections.unmodifiableSortedMap(checksums);
    }

    /** Records a file of the backup with its checksum. */
    public void add(String relativePath, String sha256) {
        checkRelative(relativePath);
        if (checksums.putIfAbsent(relativePath, sha256) != null) {
            throw new IllegalArgumentException(relativePath + " is in the manifest twice");
        }
    }

    /** Writes {@value #FILE} into {@code backupDir}; returns its own checksum. */
    public String write(Path backupDir) throws IOException {
        StringBuilder text = new StringBuilder();
        synchronized (checksums) {
            checksums.forEach((path, sum) -> text.append(sum).append("  ").append(path).append('\n'));
        }
        byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        Files.write(backupDir.resolve(FILE), bytes);
        return HexFormat.of().formatHex(sha256().digest(bytes));
    }

    /**
     * Reads {@value #FILE} of {@code backupDir}.
     *
     * @throws BackupException when it is missing or malformed
     */
    public static BackupManifest read(Path backupDir) throws IOException {
        Path file = backupDir.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            throw new BackupException(backupDir + " has no " + FILE + ": not a MedJava backup, or an unfinished one");
        }
        SortedMap<String, String> checksums = new TreeMap<>();
        int n = 0;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            n++;
            if (line.length() < 67 || !line.substring(0, 64).matches("[0-9a-f]{64}")
                    || !line.startsWith("  ", 64)) {
                throw new BackupException(FILE + " line " + n + " is not \"<sha256>  <path>\": the backup is damaged");
            }
            String path = line.substring(66);
            try {
                checkRelative(path);
            } catch (IllegalArgumentException e) {
                throw new BackupException(FILE + " line " + n + ": " + e.getMessage());
            }
            if (checksums.put(path, line.substring(0, 64)) != null) {
                throw new BackupException(FILE + " lists " + path + " twice: the backup is damaged");
            }
        }
        return new BackupManifest(checksums);
    }

    /**
     * Checks every file of the backup in {@code backupDir} against the manifest: each listed file exists and has its
     * checksum, and no file is there that the manifest does not list.
     *
     * @return what is wrong, one line per file (empty: the backup is intact)
     */
    public List<String> verify(Path backupDir) throws IOException {
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, String> e : checksums.entrySet()) {
            Path file = backupDir.resolve(e.getKey());
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                problems.add(e.getKey() + ": missing");
            } else if (!sha256Of(file).equals(e.getValue())) {
                problems.add(e.getKey() + ": checksum differs (the file was changed or damaged)");
            }
        }
        try (Stream<Path> files = Files.walk(backupDir)) {
            for (Path f : (Iterable<Path>) files.filter(p -> !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS))::iterator) {
                String relative = relative(backupDir, f);
                if (!checksums.containsKey(relative) && !relative.equals(FILE) && !relative.equals(BackupInfo.FILE)) {
                    problems.add(relative + ": not in the manifest");
                }
            }
        }
        return problems;
    }

    /** The manifest form of {@code file}'s path under {@code dir}. */
    static String relative(Path dir, Path file) {
        StringBuilder s = new StringBuilder();
        for (Path segment : dir.relativize(file)) {
            s.append(s.length() == 0 ? "" : "/").append(segment);
        }
        return s.toString();
    }

    /** A path in the manifest stays inside the backup: relative, no empty, "." or ".." segments, no newlines. */
    static void checkRelative(String path) {
        if (path.isEmpty() || path.startsWith("/") || path.contains("\\") || path.contains("\n")
                || path.contains("\r")) {
            throw new IllegalArgumentException("not a relative path inside the backup: \"" + path + "\"");
        }
        for (String segment : path.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                throw new IllegalArgumentException("not a relative path inside the backup: \"" + path + "\"");
            }
        }
    }

    /** The SHA-256 of a file, in lower-case hex. */
    public static String sha256Of(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return copyHashing(in, OutputStream.nullOutputStream());
        }
    }

    /** Copies {@code in} to {@code out}; returns the SHA-256 of the bytes copied, in lower-case hex. */
    public static String copyHashing(InputStream in, OutputStream out) throws IOException {
        MessageDigest digest = sha256();
        try (DigestInputStream hashing = new DigestInputStream(in, digest)) {
            hashing.transferTo(out);
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("no SHA-256 in this JVM", e);
        }
    }
}
