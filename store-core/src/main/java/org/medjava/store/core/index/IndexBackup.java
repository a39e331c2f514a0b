package org.medjava.store.core.index;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A consistent copy of the index database, taken while the store runs: embedded H2's online {@code BACKUP TO} (a zip
 * holding {@value #H2_DATABASE_FILE}, transactionally consistent), or {@code pg_dump} of the whole PostgreSQL
 * database (one transaction snapshot, custom format for {@code pg_restore}; in a cluster it also holds the shared
 * accounts, plugin catalog and job queue).
 */
public final class IndexBackup {

    /** The H2 backup in a backup's {@code index/} directory. */
    public static final String H2_ZIP = "index.zip";
    /** The PostgreSQL dump in a backup's {@code index/} directory. */
    public static final String PG_DUMP = "index.pgdump";
    /** The database file inside {@link #H2_ZIP}, as it lies in the data directory's {@code index/}. */
    public static final String H2_DATABASE_FILE = "index.mv.db";

    private static final long PG_DUMP_TIMEOUT_MINUTES = 60;

    private IndexBackup() {
    }

    /** Whether {@code database} is an embedded H2 one (else PostgreSQL). */
    public static boolean isH2(IndexDatabase database) {
        return database.url().startsWith("jdbc:h2:");
    }

    /**
     * Writes the copy of {@code database} into the directory {@code into}.
     *
     * @return the file written ({@link #H2_ZIP} or {@link #PG_DUMP} in {@code into})
     * @throws IndexException when the database cannot be copied (or, for PostgreSQL, no pg_dump is installed)
     */
    public static Path write(IndexDatabase database, Path into) throws IOException {
        Files.createDirectories(into);
        if (isH2(database)) {
            return h2(database, into.resolve(H2_ZIP));
        }
        if (database.url().startsWith("jdbc:postgresql:")) {
            return pgDump(database, into.resolve(PG_DUMP));
        }
        throw new IndexException("cannot back up the index database " + database.describe()
                + ": only embedded H2 and PostgreSQL are supported");
    }

    private static Path h2(IndexDatabase database, Path zip) {
        try (Connection c = Schema.connect(database); Statement s = c.createStatement()) {
            s.execute("BACKUP TO '" + zip.toAbsolutePath().toString().replace("'", "''") + "'");
            return zip;
        } catch (SQLException e) {
            throw new IndexException("cannot back up the index database " + database.describe() + ": "
                    + IndexSession.reason(e), e);
        }
    }

    private static Path pgDump(IndexDatabase database, Path dump) throws IOException {
        String program = findPgDump().orElseThrow(() -> new IndexException("cannot back up the PostgreSQL index: no"
                + " pg_dump on this host (install the PostgreSQL client of the server's version, or dump the"
                + " database with your own tools)"));
        List<String> command = List.of(program, "--format=custom", "--no-owner", "--no-privileges", "--file",
                dump.toString(), "--dbname", libpqUri(database.url()));
        Path log = Files.createTempFile(dump.getParent(), "pg_dump", ".log");
        try {
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            pb.environment().put("PGUSER", database.user());
            pb.environment().put("PGPASSWORD", database.password());
            Process p = pb.start();
            if (!p.waitFor(PG_DUMP_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IndexException("pg_dump of " + database.describe() + " did not finish within "
                        + PG_DUMP_TIMEOUT_MINUTES + " minutes");
            }
            if (p.exitValue() != 0) {
                throw new IndexException("pg_dump of " + database.describe() + " failed (exit " + p.exitValue()
                        + "): " + Files.readString(log, StandardCharsets.UTF_8).strip());
            }
            return dump;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IndexException("interrupted while running pg_dump", e);
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /**
     * The libpq connection URI of a PostgreSQL JDBC URL, without its JDBC options (credentials go in PGUSER and
     * PGPASSWORD): {@code jdbc:postgresql://db:5432/medjava?ssl=true} gives {@code postgresql://db:5432/medjava}.
     */
    static String libpqUri(String jdbcUrl) {
        String rest = jdbcUrl.substring("jdbc:postgresql:".length());
        int options = rest.indexOf('?');
        rest = options < 0 ? rest : rest.substring(0, options);
        if (!rest.startsWith("//")) { // jdbc:postgresql:database means localhost
            rest = "//localhost/" + rest;
        }
        return "postgresql:" + rest;
    }

    /** pg_dump on the PATH, else the newest of the Debian layout's {@code /usr/lib/postgresql/N/bin}. */
    static Optional<String> findPgDump() throws IOException {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "pg_dump"))) {
                return Optional.of(Path.of(dir, "pg_dump").toString());
            }
        }
        Path debian = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(debian)) {
            return Optional.empty();
        }
        List<Path> found = new ArrayList<>();
        try (Stream<Path> versions = Files.list(debian)) {
            versions.map(v -> v.resolve("bin/pg_dump")).filter(Files::isExecutable).forEach(found::add);
        }
        return found.stream().max(Comparator.comparingInt(IndexBackup::majorVersion)).map(Path::toString);
    }

    private static int majorVersion(Path pgDump) {
        try {
            return Integer.parseInt(pgDump.getParent().getParent().getFileName().toString());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
