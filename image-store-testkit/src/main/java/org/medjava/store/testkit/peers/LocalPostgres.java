package org.medjava.store.testkit.peers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A private, throwaway PostgreSQL server for tests, from the Debian package {@code postgresql}
 * ({@code /usr/lib/postgresql/<major>/bin}; {@code bootstrap/install-deps.sh} installs it). Its data directory,
 * Unix socket and log are in a fresh directory under /tmp; it listens on a free loopback port, trusts local
 * connections ({@code -A trust}), has the superuser {@value #USER} and the database {@value #DATABASE}. It runs
 * without fsync (nothing here needs to survive a crash). PostgreSQL refuses to run as root: when the JVM is root,
 * the server runs as the {@code postgres} user ({@code runuser}) and owns the directory.
 *
 * <p>{@link #close()} stops it ({@code pg_ctl stop -m fast}) and deletes the directory; a JVM shutdown hook does the
 * same if a test forgets. The system's own cluster is never touched.
 */
public final class LocalPostgres implements AutoCloseable {
    public static final String USER = "medjava";
    public static final String PASSWORD = "medjava";
    public static final String DATABASE = "medjava";

    private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
    private static final long START_TIMEOUT_SECONDS = 60;

    private final Path bin;
    private final Path dir;
    private final Path data;
    private final Path log;
    private final boolean asPostgresUser;
    private final int port;
    private final int maxConnections;
    private final Thread shutdownHook;
    private boolean stopped;

    private LocalPostgres(Path bin, Path dir, boolean asPostgresUser, int port, int maxConnections) {
        this.maxConnections = maxConnections;
        this.bin = bin;
        this.dir = dir;
        this.data = dir.resolve("data");
        this.log = dir.resolve("server.log");
        this.asPostgresUser = asPostgresUser;
        this.port = port;
        this.shutdownHook = new Thread(this::stopQuietly, "stop LocalPostgres " + dir);
    }

    /**
     * Creates, starts and waits for a new server with the database {@value #DATABASE}.
     *
     * @throws IllegalStateException when PostgreSQL is not installed or does not start (with its log)
     */
    public static LocalPostgres start() {
        return start(200);
    }

    /**
     * As {@link #start()}, with the server's {@code max_connections} (PostgreSQL's default is 100; the tests' servers
     * take 200, as many test classes open their own index pools on one).
     */
    public static LocalPostgres start(int maxConnections) {
        Path bin = findBinaries();
        boolean root = isRoot();
        Path dir;
        try {
            dir = Files.createTempDirectory(Path.of("/tmp"), "medjava-pg-");
            if (root) {
                chown(dir, "postgres");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a directory for PostgreSQL under /tmp", e);
        }
        LocalPostgres pg = new LocalPostgres(bin, dir, root, freePort(), maxConnections);
        Runtime.getRuntime().addShutdownHook(pg.shutdownHook);
        try {
            pg.initdb();
            pg.startServer();
            pg.createDatabase(DATABASE);
            return pg;
        } catch (RuntimeException e) {
            pg.close();
            throw e;
        }
    }

    /** The JDBC URL of the database {@value #DATABASE}. */
    public String jdbcUrl() {
        return jdbcUrl(DATABASE);
    }

    /** The JDBC URL of the database {@code database} of this server. */
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    public String user() {
        return USER;
    }

    public String password() {
        return PASSWORD;
    }

    public int port() {
        return port;
    }

    /** The directory holding the data directory, the socket and the log. */
    public Path directory() {
        return dir;
    }

    /**
     * Creates the database {@code name} (lower case letters, digits, '_') and returns its JDBC URL: a fresh
     * database per test is cheaper than a fresh server.
     */
    public String createDatabase(String name) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("not a plain database name: " + name);
        }
        try (Connection c = DriverManager.getConnection(jdbcUrl("postgres"), USER, PASSWORD);
                Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name); // a checked plain name: identifiers cannot be bound
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create database " + name + " on " + this + ": " + e.getMessage()
                    + serverLog(), e);
        }
        return jdbcUrl(name);
    }

    /**
     * Creates a role that may log in and nothing more (no superuser, no CREATEDB, no CREATEROLE: what a store node
     * should connect as) and the database {@code name} it owns, and returns the database's JDBC URL.
     */
    public String createOwnedDatabase(String name, String role, String password) {
        if (!NAME.matcher(name).matches() || !NAME.matcher(role).matches() || password.contains("'")) {
            throw new IllegalArgumentException("not a plain name or password: " + name + ", " + role);
        }
        try (Connection c = DriverManager.getConnection(jdbcUrl("postgres"), USER, PASSWORD);
                Statement s = c.createStatement()) { // checked plain names: identifiers cannot be bound
            s.execute("CREATE ROLE " + role + " LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD '" + password
                    + "'");
            s.execute("CREATE DATABASE " + name + " OWNER " + role);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create database " + name + " for " + role + " on " + this + ": "
                    + e.getMessage() + serverLog(), e);
        }
        return jdbcUrl(name);
    }

    /** Runs SQL statements in database {@code name} as the superuser (a test's view behind the store's back). */
    public void execute(String name, String... statements) {
        try (Connection c = DriverManager.getConnection(jdbcUrl(name), USER, PASSWORD);
                Statement s = c.createStatement()) {
            for (String statement : statements) {
                s.execute(statement);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot run " + List.of(statements) + " in " + name + ": "
                    + e.getMessage(), e);
        }
    }

    /** The first column of the first row of {@code query} in database {@code name}, as the superuser. */
    public String queryOne(String name, String query) {
        try (Connection c = DriverManager.getConnection(jdbcUrl(name), USER, PASSWORD);
                Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery(query)) {
            return rs.next() ? rs.getString(1) : null;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot run " + query + " in " + name + ": " + e.getMessage(), e);
        }
    }

    /**
     * Stops the server ({@code pg_ctl stop -m fast}: clients are disconnected) and keeps its data, for
     * {@link #startAgain()}; an outage as the clients see it.
     */
    public synchronized void stopServer() {
        if (stopped) {
            throw new IllegalStateException(this + " is closed");
        }
        run(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "fast", "-w", "-t", "30",
                "stop"), 40, "pg_ctl stop");
    }

    /** Starts the server stopped by {@link #stopServer()} again, on the same port with the same data. */
    public synchronized void startAgain() {
        if (stopped) {
            throw new IllegalStateException(this + " is closed");
        }
        startServer();
    }

    /** {@link #stopServer()} and {@link #startAgain()}. */
    public void restart() {
        stopServer();
        startAgain();
    }

    /** The server's log so far (for messages). */
    public String log() {
        try {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }

    /** Stops the server and deletes its directory. Idempotent. */
    @Override
    public synchronized void close() {
        stopQuietly();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or about to
        }
    }

    @Override
    public String toString() {
        return "LocalPostgres[127.0.0.1:" + port + ", " + dir + "]";
    }

    // ------------------------------------------------------------------------------------------------------------

    private void initdb() {
        run(List.of(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", USER, "-A", "trust",
                "-E", "UTF8", "--locale=C", "--no-sync"), 120, "initdb");
    }

    private void startServer() {
        String options = "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1"
                + " -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=" + maxConnections;
        run(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-l", log.toString(), "-w",
                "-t", String.valueOf(START_TIMEOUT_SECONDS), "-o", options, "start"), START_TIMEOUT_SECONDS + 10,
                "pg_ctl start");
        // pg_ctl -w waits for the server to accept connections; check over TCP too (what JDBC uses)
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            try (Connection c = DriverManager.getConnection(jdbcUrl("postgres"), USER, PASSWORD)) {
                if (c.isValid(5)) {
                    return;
                }
            } catch (SQLException e) {
                last = e;
                sleep(100);
            }
        }
        throw new IllegalStateException("PostgreSQL at " + this + " does not accept connections: "
                + (last == null ? "" : last.getMessage()) + serverLog(), last);
    }

    private synchronized void stopQuietly() {
        if (stopped) {
            return;
        }
        stopped = true;
        try {
            if (Files.exists(data.resolve("postmaster.pid"))) {
                try {
                    run(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "fast", "-w",
                            "-t", "30", "stop"), 40, "pg_ctl stop");
                } catch (RuntimeException e) {
                    killPostmaster();
                }
            }
        } finally {
            deleteRecursively(dir);
        }
    }

    /** The last resort when pg_ctl cannot stop it: the postmaster's PID is the first line of postmaster.pid. */
    private void killPostmaster() {
        try {
            long pid = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim());
            ProcessHandle.of(pid).ifPresent(p -> {
                p.destroy();
                try {
                    p.onExit().get(10, TimeUnit.SECONDS);
                } catch (Exception e) {
                    p.destroyForcibly();
                }
            });
        } catch (IOException | RuntimeException ignored) {
            // nothing more to do
        }
    }

    /** Runs a PostgreSQL program (as the postgres user when root), failing with its output and the server log. */
    private void run(List<String> command, long timeoutSeconds, String what) {
        List<String> full = new ArrayList<>();
        if (asPostgresUser) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(command);
        Path output = dir.resolve(what.replace(' ', '-') + ".out");
        ProcessBuilder pb = new ProcessBuilder(full).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile());
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("PG"));
        env.put("LC_ALL", "C");
        try {
            Process p = pb.start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(what + " did not finish in " + timeoutSeconds + " s"
                        + outputOf(output) + serverLog());
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException(what + " failed (exit " + p.exitValue() + "): " + String.join(" ",
                        full) + outputOf(output) + serverLog());
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + what + " (" + full.get(0) + "): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(what + " interrupted", e);
        }
    }

    private static String outputOf(Path output) {
        try {
            return Files.exists(output) ? "\n--- output ---\n" + Files.readString(output).strip() : "";
        } catch (IOException e) {
            return "";
        }
    }

    private String serverLog() {
        String text = log().strip();
        return text.isEmpty() ? "" : "\n--- server log " + log + " ---\n" + text;
    }

    /** The newest /usr/lib/postgresql/MAJOR/bin with initdb and pg_ctl (or -Dmedjava.pg.bin=DIR). */
    private static Path findBinaries() {
        String override = System.getProperty("medjava.pg.bin");
        if (override != null) {
            Path bin = Path.of(override);
            if (Files.isExecutable(bin.resolve("initdb")) && Files.isExecutable(bin.resolve("pg_ctl"))) {
                return bin;
            }
            throw new IllegalStateException("no initdb/pg_ctl in -Dmedjava.pg.bin=" + override);
        }
        Path lib = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(lib)) {
            try (Stream<Path> majors = Files.list(lib)) {
                Path bin = majors.map(d -> d.resolve("bin"))
                        .filter(b -> Files.isExecutable(b.resolve("initdb")) && Files.isExecutable(b.resolve("pg_ctl")))
                        .max(Comparator.comparingInt(b -> major(b.getParent().getFileName().toString())))
                        .orElse(null);
                if (bin != null) {
                    return bin;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        throw new IllegalStateException("PostgreSQL is not installed (no /usr/lib/postgresql/<major>/bin/initdb):"
                + " run bootstrap/install-deps.sh (it installs the Debian package postgresql)");
    }

    private static int major(String name) {
        try {
            return Integer.parseInt(name);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static boolean isRoot() {
        try {
            return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }

    private static void chown(Path dir, String user) throws IOException {
        UserPrincipalLookupService lookup = dir.getFileSystem().getUserPrincipalLookupService();
        UserPrincipal owner;
        GroupPrincipal group;
        try {
            owner = lookup.lookupPrincipalByName(user);
            group = lookup.lookupPrincipalByGroupName(user);
        } catch (UserPrincipalNotFoundException e) {
            throw new IllegalStateException("running as root, and there is no '" + user + "' user to run PostgreSQL"
                    + " as: run bootstrap/install-deps.sh (the Debian package postgresql creates it)", e);
        }
        PosixFileAttributeView view = Files.getFileAttributeView(dir, PosixFileAttributeView.class);
        view.setOwner(owner);
        view.setGroup(group);
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    Files.deleteIfExists(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException ignored) {
            // a leftover in /tmp; nothing to stop
        }
    }
}
