package org.medjava.store.core.index;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.EntityTransaction;
import jakarta.persistence.Persistence;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * The index's open EclipseLink session on its database: the JPA EntityManagerFactory (opened on the persistence unit
 * {@value DicomIndex#PERSISTENCE_UNIT}, after the tables were checked and, when needed, created or extended) and the
 * transactions run in it. Reads run concurrently, each in its own EntityManager ({@link #read}); writes run in a
 * transaction under the writer lock, again when they hit a unique constraint ({@link #write}). Failures are
 * {@link IndexException}s with a short {@link #reason}.
 */
final class IndexSession {

    /**
     * Connections a statement is tried on when the first ones turn out to be cut (a pool of stale ones): one more than
     * EclipseLink's pools hold by default (32 each), since after a database restart each pooled connection fails
     * once. With 8, a query after a restart could still meet a ninth stale connection (ClusterIT, once in CI).
     */
    private static final int CONNECTION_ATTEMPTS = 33;
    private static final System.Logger LOG = System.getLogger(DicomIndex.class.getName());
    private static final AtomicLong SESSIONS = new AtomicLong();
    /** Tries of a write transaction that hit a unique constraint (another process wrote the same key). */
    private static final int WRITE_ATTEMPTS = 3;

    private final IndexDatabase database;
    private final EntityManagerFactory emf;
    /** The connections to a PostgreSQL server (null on H2, which EclipseLink pools itself). */
    private final com.zaxxer.hikari.HikariDataSource pool;
    /** Whether that server answers (null on H2): callers are refused at once while it does not. */
    private final Reachability reachability;
    private final ReentrantLock writeLock = new ReentrantLock(true);
    private volatile boolean closed;

    /**
     * Opens the index in {@code database}, creating or extending its tables.
     *
     * @throws IndexException when the database cannot be reached or its tables cannot be created
     */
    IndexSession(IndexDatabase database) {
        this.database = Objects.requireNonNull(database, "database");
        Map<String, Object> properties = new HashMap<>();
        properties.put("eclipselink.persistencexml", DicomIndex.PERSISTENCE_XML);
        properties.put("jakarta.persistence.transactionType", "RESOURCE_LOCAL");
        properties.put("jakarta.persistence.jdbc.url", database.connectionUrl());
        properties.put("jakarta.persistence.jdbc.user", database.user());
        properties.put("jakarta.persistence.jdbc.password", database.password());
        if (database.driverClass() != null) {
            properties.put("jakarta.persistence.jdbc.driver", database.driverClass());
        }
        if (database.isPostgres()) {
            // PostgreSQL's error details quote key values (a patient key may hold a name): keep them out of messages
            properties.put("eclipselink.jdbc.property.logServerErrorDetail", "false");
            // a bounded pool that lets idle connections go (EclipseLink's own keeps up to 32 reads and 32 writes)
            pool = ConnectionPools.open(database, "medjava-index", database.poolSize(), true);
            reachability = new Reachability(database);
            properties.put("eclipselink.session.customizer", NoQueryRetry.class.getName());
            properties.put("jakarta.persistence.nonJtaDataSource", new ReachableDataSource(pool, reachability));
            // the pool logs in: EclipseLink would ask it for a connection by user and password, which it refuses
            properties.remove("jakarta.persistence.jdbc.url");
            properties.remove("jakarta.persistence.jdbc.user");
            properties.remove("jakarta.persistence.jdbc.password");
            properties.remove("jakarta.persistence.jdbc.driver");
        } else {
            pool = null;
            reachability = null;
        }
        properties.put("eclipselink.classloader", DicomIndex.class.getClassLoader());
        long session = SESSIONS.incrementAndGet();
        EntityManagerFactory factory = null;
        try (Connection held = Schema.connect(database)) {
            if (Schema.missing(held) != null) {
                createOrExtendTables(properties, DicomIndex.PERSISTENCE_UNIT + "-" + session + "-ddl", held);
            }
            // A session of its own per instance (two indexes on two databases in one JVM must not share one),
            // without DDL: the tables are right. What differs from the DDL session is set explicitly in both.
            properties.put("eclipselink.session-name", DicomIndex.PERSISTENCE_UNIT + "-" + session);
            properties.put("eclipselink.ddl-generation", "none");
            properties.put("eclipselink.logging.logger", "JavaLogger");
            factory = Persistence.createEntityManagerFactory(DicomIndex.PERSISTENCE_UNIT, properties);
            // EclipseLink logs in on first use: do it now, so that a bad database fails here
            factory.createEntityManager().close();
        } catch (RuntimeException | SQLException e) {
            if (factory != null) {
                try {
                    factory.close();
                } catch (RuntimeException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            if (pool != null) {
                pool.close();
                reachability.close();
            }
            if (e instanceof IndexException) {
                throw (IndexException) e;
            }
            throw new IndexException("cannot open the DICOM index database " + database.describe() + ": "
                    + reason(e), e);
        }
        this.emf = factory;
        LOG.log(System.Logger.Level.DEBUG, "DICOM index opened on {0}", database.describe());
    }

    /**
     * Creates the missing tables and adds the missing columns (the persistence unit's create-or-extend-tables) in a
     * short session whose EclipseLink log is kept by {@link DdlLog}, then checks the tables.
     */
    private void createOrExtendTables(Map<String, Object> properties, String sessionName, Connection held) {
        LOG.log(System.Logger.Level.INFO, "creating or extending the DICOM index tables in {0}",
                database.describe());
        Map<String, Object> ddl = new HashMap<>(properties);
        ddl.put("eclipselink.session-name", sessionName);
        ddl.put("eclipselink.ddl-generation", "create-or-extend-tables");
        ddl.put("eclipselink.ddl-generation.output-mode", "database");
        ddl.put("eclipselink.logging.logger", DdlLog.class.getName());
        try (java.sql.Statement changes = held.createStatement()) {
            changes.execute(ChangeLog.DDL);
            for (String table : AuditTable.DDL) {
                changes.execute(table);
            }
            for (String table : ShareTable.DDL) {
                changes.execute(table);
            }
            for (String table : RouteQueue.DDL) {
                changes.execute(table);
            }
            for (String table : ReadyMetadataTable.ddl(database.isPostgres())) {
                changes.execute(table);
            }
        } catch (SQLException e) {
            throw new IndexException("cannot create or extend the DICOM index tables in " + database.describe()
                    + ": " + reason(e), e);
        }
        DdlLog.start(sessionName);
        List<String> log;
        try {
            EntityManagerFactory factory = Persistence.createEntityManagerFactory(DicomIndex.PERSISTENCE_UNIT, ddl);
            try {
                factory.createEntityManager().close();
            } finally {
                factory.close();
            }
        } finally {
            log = DdlLog.stop(sessionName);
        }
        String missing = Schema.missing(held);
        if (missing != null) {
            throw new IndexException("cannot create or extend the DICOM index tables in " + database.describe()
                    + ": " + missing + (log.isEmpty() ? "" : "; the database said: "
                    + String.join("; ", log.subList(0, Math.min(3, log.size())))));
        }
    }

    /** The database this session is on. */
    IndexDatabase database() {
        return database;
    }

    /** The writer lock: held by {@link #write} (reentrant, so a writer may hold it around several writes). */
    ReentrantLock writeLock() {
        return writeLock;
    }

    boolean isClosed() {
        return closed;
    }

    void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the DICOM index on " + database.describe() + " is closed");
        }
    }

    /** Closes the database connections (waiting for a write in progress). Idempotent. */
    void close() {
        writeLock.lock();
        try {
            if (!closed) {
                closed = true;
                emf.close();
                if (pool != null) {
                    pool.close();
                    reachability.close();
                }
                LOG.log(System.Logger.Level.DEBUG, "DICOM index on {0} closed", database.describe());
            }
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Runs {@code work} in an EntityManager of its own, without a transaction; again on another connection when the
     * one it got had been cut by the database (restarted), so a database that is back is used at once.
     */
    <T> T read(String what, Function<EntityManager, T> work) {
        ensureOpen();
        checkReachable(what);
        for (int attempt = 1; ; attempt++) {
            EntityManager em = emf.createEntityManager();
            try {
                return work.apply(em);
            } catch (IllegalArgumentException | IndexException e) {
                throw e;
            } catch (RuntimeException e) {
                if (attempt < CONNECTION_ATTEMPTS && isConnectionLost(e)) {
                    LOG.log(System.Logger.Level.DEBUG, "{0}: the connection was lost, trying another", what);
                    continue;
                }
                noteFailure(e);
                throw new IndexException(what + " failed: " + reason(e), e);
            } finally {
                em.close();
            }
        }
    }

    /** Runs {@code work} in a transaction under the writer lock, again when it hit a unique constraint. */
    <T> T write(String what, Function<EntityManager, T> work) {
        ensureOpen();
        checkReachable(what);
        writeLock.lock();
        try {
            ensureOpen();
            checkReachable(what); // the writer before may have waited out the server's going away
            for (int attempt = 1; ; attempt++) {
                EntityManager em = emf.createEntityManager();
                EntityTransaction tx = em.getTransaction();
                try {
                    tx.begin();
                    T result = work.apply(em);
                    tx.commit();
                    return result;
                } catch (IllegalArgumentException | IndexException e) {
                    throw e;
                } catch (RuntimeException e) {
                    if (attempt < WRITE_ATTEMPTS && isConstraintViolation(e)) {
                        LOG.log(System.Logger.Level.DEBUG, "{0}: constraint violation, trying again", what);
                        continue;
                    }
                    if (attempt < CONNECTION_ATTEMPTS && isConnectionLost(e)) {
                        LOG.log(System.Logger.Level.DEBUG, "{0}: the connection was lost, trying another", what);
                        continue;
                    }
                    noteFailure(e);
                    throw new IndexException(what + " failed: " + reason(e), e);
                } finally {
                    if (tx.isActive()) {
                        try {
                            tx.rollback();
                        } catch (RuntimeException ignored) {
                            // the connection is gone; the first failure is the one to report
                        }
                    }
                    em.close();
                }
            }
        } finally {
            writeLock.unlock();
        }
    }

    private void checkReachable(String what) {
        if (reachability != null) {
            reachability.check(what);
        }
    }

    private void noteFailure(RuntimeException e) {
        if (reachability != null) {
            reachability.failed(e);
        }
    }

    /** Whether the database is believed to answer (always, for the embedded H2). */
    boolean reachable() {
        return reachability == null || reachability.reachable();
    }

    /**
     * Whether a statement failed because its pooled connection had been cut while the database is up again: the
     * database shut the session down (a restart: SQLState 57P01-57P03) or the link broke in use (08003, 08006). The
     * pool reconnects such a connection the next time it is used, so the work is tried again on up to
     * {@value #CONNECTION_ATTEMPTS} connections. Not when no connection can be made (08001, 08004: the database is
     * down): that fails at once.
     */
    static boolean isConnectionLost(Throwable e) {
        boolean cut = false;
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                String state = sql.getSQLState();
                if (state.equals("08001") || state.equals("08004")) {
                    return false;
                }
                cut |= state.startsWith("57P") || state.equals("08003") || state.equals("08006");
            }
        }
        return cut;
    }

    private static boolean isConstraintViolation(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLIntegrityConstraintViolationException) {
                return true;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("23")) {
                return true;
            }
        }
        return false;
    }

    /**
     * A short reason for a failure: the first line of the innermost SQL exception (without the details that may
     * quote values), else the innermost message.
     */
    static String reason(Throwable e) {
        SQLException sql = null;
        Throwable last = e;
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException s) {
                sql = s;
            }
            last = t;
        }
        Throwable chosen = sql != null ? sql : last;
        String message = chosen.getMessage() == null ? chosen.getClass().getSimpleName() : chosen.getMessage();
        int newline = message.indexOf('\n');
        message = (newline < 0 ? message : message.substring(0, newline)).trim();
        return sql != null && sql.getSQLState() != null ? message + " [SQLState " + sql.getSQLState() + "]" : message;
    }
}
