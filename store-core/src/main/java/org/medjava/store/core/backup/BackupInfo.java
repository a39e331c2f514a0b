package org.medjava.store.core.backup;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Properties;

/**
 * What a backup is, as {@value #FILE} in its top directory; written last, so a backup without it is unfinished.
 *
 * @param snapshot       the instant of the snapshot: every write acknowledged before it is in the backup, none
 *                       begun after it is
 * @param index          {@code h2} or {@code postgresql}: the kind of index copy in {@code index/}
 * @param storage        where the objects were ({@code files in /data/images}, {@code s3://...})
 * @param objects        how many objects the backup holds, of {@code bytes} bytes together
 * @param pauseMillis    how long writes were paused for the snapshot
 * @param manifestSha256 the checksum of {@value BackupManifest#FILE}
 */
public record BackupInfo(Instant snapshot, String index, String storage, long objects, long bytes, long pauseMillis,
                         String manifestSha256) {

    public static final String FILE = "backup.properties";
    public static final String FORMAT = "medjava-backup-1";

    public void write(Path backupDir) throws IOException {
        Properties p = new Properties();
        p.setProperty("format", FORMAT);
        p.setProperty("snapshot", snapshot.toString());
        p.setProperty("index", index);
        p.setProperty("storage", storage);
        p.setProperty("objects", Long.toString(objects));
        p.setProperty("bytes", Long.toString(bytes));
        p.setProperty("pause-millis", Long.toString(pauseMillis));
        p.setProperty("manifest-sha256", manifestSha256);
        try (Writer out = Files.newBufferedWriter(backupDir.resolve(FILE), StandardCharsets.UTF_8)) {
            p.store(out, "MedJava backup: restore with ./medjava admin restore <this directory>"
                    + " (docs/operations/backup-and-restore.md)");
        }
    }

    /** @throws BackupException when {@code backupDir} holds no finished MedJava backup of a known format */
    public static BackupInfo read(Path backupDir) throws IOException {
        Path file = backupDir.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            throw new BackupException(backupDir + " has no " + FILE + ": not a MedJava backup, or an unfinished one");
        }
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(in);
        }
        if (!FORMAT.equals(p.getProperty("format"))) {
            throw new BackupException(file + " has format \"" + p.getProperty("format") + "\"; this MedJava reads "
                    + FORMAT);
        }
        try {
            return new BackupInfo(Instant.parse(p.getProperty("snapshot")), p.getProperty("index"),
                    p.getProperty("storage"), Long.parseLong(p.getProperty("objects")),
                    Long.parseLong(p.getProperty("bytes")), Long.parseLong(p.getProperty("pause-millis")),
                    p.getProperty("manifest-sha256"));
        } catch (RuntimeException e) { // missing or malformed values: NullPointer, NumberFormat, DateTimeParse
            throw new BackupException(file + " is damaged: " + e.getMessage());
        }
    }

    /** The result of a backup for its caller, as JSON. */
    public String toJson(Path backupDir) {
        return "{\"directory\":\"" + json(backupDir.toString()) + "\",\"snapshot\":\"" + snapshot
                + "\",\"index\":\"" + json(index) + "\",\"storage\":\"" + json(storage) + "\",\"objects\":" + objects
                + ",\"bytes\":" + bytes + ",\"pauseMillis\":" + pauseMillis + "}";
    }

    private static String json(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
