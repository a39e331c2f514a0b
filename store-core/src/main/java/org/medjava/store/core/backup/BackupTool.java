package org.medjava.store.core.backup;

import java.io.Console;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.medjava.store.core.index.IndexBackup;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.core.ingest.WriteBarrier;
import org.medjava.store.core.storage.LocalFileStorage;

/**
 * {@code ./medjava admin backup} and {@code restore}:
 * <pre>
 *   backup DIR --url URL [--user NAME]   a running store writes a backup into DIR (on its disk); the password comes
 *                                        from MEDJAVA_ADMIN_PASSWORD or is asked for
 *   backup DIR --data DATA_DIR           a stopped store's data directory (embedded H2, files) is backed up
 *   restore DIR --data DATA_DIR [--force] a backup is checked whole and restored into a stopped store's data
 *                                        directory; a non-empty one only with --force (moved aside, not deleted)
 * </pre>
 * Exit status 0 when done, 1 when refused or failed (the reason on stderr), 2 for a usage error.
 */
public final class BackupTool {

    private static final Duration BACKUP_TIMEOUT = Duration.ofHours(12);
    /** Nobody writes to a stopped store: the offline snapshot may take as long as it needs. */
    private static final Duration OFFLINE_WAIT = Duration.ofHours(2);

    private final PrintStream out;
    private final PrintStream err;

    public BackupTool(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        System.exit(new BackupTool(System.out, System.err).run(args));
    }

    /** Runs one command; returns the exit status. */
    public int run(String... args) {
        List<String> positional = new ArrayList<>();
        String url = null;
        String user = "admin";
        String data = null;
        boolean force = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--url" -> url = value(args, ++i);
                case "--user" -> user = value(args, ++i);
                case "--data" -> data = value(args, ++i);
                case "--force" -> force = true;
                default -> positional.add(args[i]);
            }
        }
        String command = positional.isEmpty() ? "" : positional.get(0);
        boolean valid = positional.size() == 2 && (command.equals("backup") ? (url == null) != (data == null)
                : command.equals("restore") && data != null && url == null);
        if (!valid) {
            return usage();
        }
        try {
            switch (command) {
                case "backup" -> {
                    if (url != null) {
                        online(URI.create(url), user, positional.get(1));
                    } else {
                        offline(Path.of(data), positional.get(1));
                    }
                }
                case "restore" -> restore(Path.of(positional.get(1)), Path.of(data), force);
                default -> {
                    return usage();
                }
            }
            return 0;
        } catch (BackupException e) {
            err.println(e.getMessage());
            return 1;
        } catch (IOException | RuntimeException e) {
            err.println("failed: " + e);
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("interrupted");
            return 1;
        }
    }

    private static String value(String[] args, int i) {
        return i < args.length ? args[i] : null;
    }

    private int usage() {
        err.println("usage: backup DIR --url URL [--user NAME]   (a running store; password from MEDJAVA_ADMIN_PASSWORD)");
        err.println("       backup DIR --data DATA_DIR           (a stopped store)");
        err.println("       restore DIR --data DATA_DIR [--force]");
        return 2;
    }

    private void online(URI url, String user, String directory) throws IOException, InterruptedException {
        String password = System.getenv("MEDJAVA_ADMIN_PASSWORD");
        if (password == null || password.isEmpty()) {
            Console console = System.console();
            if (console == null) {
                throw new BackupException("set MEDJAVA_ADMIN_PASSWORD to the password of " + user);
            }
            password = new String(console.readPassword("password of %s at %s: ", user, url));
        }
        String target = Path.of(directory).toAbsolutePath().normalize().toString();
        out.println("backing up the store at " + url + " into " + target + " ...");
        String[] last = {""};
        String result = new BackupClient(url, user, password).backup(target, BACKUP_TIMEOUT, (state, status) -> {
            String line = state + " " + BackupClient.progressOf(status);
            if (!line.equals(last[0])) {
                out.println("  " + line.strip());
                last[0] = line;
            }
        });
        out.println("backup done: " + result);
    }

    private void offline(Path data, String directory) throws IOException {
        Path dataDir = data.toAbsolutePath().normalize();
        if (!Files.isDirectory(dataDir.resolve("images"))) {
            throw new BackupException(dataDir + " is not a store's data directory (it has no images/)");
        }
        StoreRestore.checkNotRunning(dataDir);
        Path index = dataDir.resolve("index");
        if (!Files.isRegularFile(index.resolve(IndexBackup.H2_DATABASE_FILE))) {
            throw new BackupException(dataDir + " has no embedded index (index/" + IndexBackup.H2_DATABASE_FILE
                    + "); a store on PostgreSQL is backed up while it runs (--url)");
        }
        try (LocalFileStorage storage = new LocalFileStorage(dataDir.resolve("images"))) {
            StoreBackup backup = new StoreBackup(StoreBackup.Sources.local(storage, IndexDatabase.h2(index),
                    new WriteBarrier(OFFLINE_WAIT), dataDir, dataDir.resolve("plugins")));
            Path target = backup.prepareTarget(Path.of(directory).toAbsolutePath().normalize().toString());
            out.println("backing up the stopped store in " + dataDir + " into " + target + " ...");
            BackupInfo info = backup.run(target, (done, total) -> {
            });
            out.println("backup done: " + info.toJson(target));
        }
    }

    private void restore(Path backup, Path data, boolean force) throws IOException {
        out.println("checking the backup in " + backup + " ...");
        StoreRestore.Result r = StoreRestore.restore(backup, data, force);
        out.println("restored " + r.info().objects() + " objects (snapshot " + r.info().snapshot() + ") into "
                + r.dataDir());
        if (r.movedAside() != null) {
            out.println("the previous content of the data directory is in " + r.movedAside());
        }
        if (r.indexNote() != null) {
            out.println("note: " + r.indexNote());
        }
    }
}
