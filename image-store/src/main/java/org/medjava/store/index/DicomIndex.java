package org.medjava.store.index;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.EntityTransaction;
import jakarta.persistence.Persistence;
import jakarta.persistence.Tuple;
import jakarta.persistence.TypedQuery;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.Join;
import jakarta.persistence.criteria.Order;
import jakarta.persistence.criteria.Path;
import jakarta.persistence.criteria.Predicate;
import jakarta.persistence.criteria.Root;
import jakarta.persistence.criteria.Selection;
import jakarta.persistence.criteria.Subquery;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.medjava.store.index.Matching.Vr;

/**
 * The DICOM metadata index of the store: patient → study → series → instance, one instance per store path (the path
 * of a file under the data directory's {@code images/}, as in the HTTP path, e.g. {@code ct/head/slice1.dcm}).
 * The store keeps it in step with PUT and DELETE ({@link #put}, {@link #remove}, {@link #removeUnder}) and can
 * rebuild it from the files ({@link #rebuild}); the web layer, the C-FIND SCP and QIDO-RS query it.
 *
 * <p>A plain Java object usable outside a container (the store wraps it in a CDI bean). It opens its own JPA
 * EntityManagerFactory (RESOURCE_LOCAL, EclipseLink) on the persistence unit {@value #PERSISTENCE_UNIT} of
 * {@value #PERSISTENCE_XML} (not {@code META-INF/persistence.xml}, which the application server would deploy
 * itself), and creates or extends its tables ({@code mj_patient}, {@code mj_study}, {@code mj_series},
 * {@code mj_instance}) on first use: embedded H2 by default, PostgreSQL in production, same code.
 *
 * <p>Thread-safe. Writers are serialized by a lock (so concurrent PUTs into one new study cannot race on its unique
 * key), and puts that wait for it are committed together (group commit); readers run concurrently, each in its own
 * EntityManager. Failures are {@link IndexException}s; invalid
 * arguments (a malformed store path or matching key) are {@link IllegalArgumentException}s. Patient names are never
 * logged.
 */
public final class DicomIndex implements AutoCloseable {
    public static final String PERSISTENCE_UNIT = "medjava-index";
    public static final String PERSISTENCE_XML = "META-INF/medjava-index.xml";

    private static final System.Logger LOG = System.getLogger(DicomIndex.class.getName());
    private static final AtomicLong SESSIONS = new AtomicLong();
    /** Tries of a write transaction that hit a unique constraint (another process wrote the same key). */
    private static final int WRITE_ATTEMPTS = 3;
    /** At most this many values in one IN list. */
    private static final int IN_CHUNK = 500;

    private final IndexDatabase database;
    private final EntityManagerFactory emf;
    private final ReentrantLock writeLock = new ReentrantLock(true);
    /** Puts waiting for the writer lock (see {@link #commit}). */
    private final java.util.Queue<PendingPut> pending = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private volatile boolean closed;

    /**
     * Opens the index in {@code database}, creating or extending its tables.
     *
     * @throws IndexException when the database cannot be reached or its tables cannot be created
     */
    public DicomIndex(IndexDatabase database) {
        this.database = Objects.requireNonNull(database, "database");
        Map<String, Object> properties = new HashMap<>();
        properties.put("eclipselink.persistencexml", PERSISTENCE_XML);
        properties.put("jakarta.persistence.transactionType", "RESOURCE_LOCAL");
        properties.put("jakarta.persistence.jdbc.url", database.url());
        properties.put("jakarta.persistence.jdbc.user", database.user());
        properties.put("jakarta.persistence.jdbc.password", database.password());
        if (database.driverClass() != null) {
            properties.put("jakarta.persistence.jdbc.driver", database.driverClass());
        }
        if (database.url().startsWith("jdbc:postgresql:")) {
            // PostgreSQL's error details quote key values (a patient key may hold a name): keep them out of messages
            properties.put("eclipselink.jdbc.property.logServerErrorDetail", "false");
        }
        properties.put("eclipselink.classloader", DicomIndex.class.getClassLoader());
        long session = SESSIONS.incrementAndGet();
        EntityManagerFactory factory = null;
        try (Connection held = Schema.connect(database)) {
            if (Schema.missing(held) != null) {
                createOrExtendTables(properties, PERSISTENCE_UNIT + "-" + session + "-ddl", held);
            }
            // A session of its own per instance (two indexes on two databases in one JVM must not share one),
            // without DDL: the tables are right. What differs from the DDL session is set explicitly in both.
            properties.put("eclipselink.session-name", PERSISTENCE_UNIT + "-" + session);
            properties.put("eclipselink.ddl-generation", "none");
            properties.put("eclipselink.logging.logger", "JavaLogger");
            factory = Persistence.createEntityManagerFactory(PERSISTENCE_UNIT, properties);
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
        DdlLog.start(sessionName);
        List<String> log;
        try {
            EntityManagerFactory factory = Persistence.createEntityManagerFactory(PERSISTENCE_UNIT, ddl);
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

    /** The database this index is in. */
    public IndexDatabase database() {
        return database;
    }

    /** Whether {@code file} is a DICOM Part 10 file ("DICM" at offset 128). */
    public static boolean isDicom(java.nio.file.Path file) throws IOException {
        return ParsedInstance.isDicom(file);
    }

    // ---------------------------------------------------------------------------------------------------- writing

    /**
     * Indexes the file stored at {@code storePath}, replacing what was indexed there before. The header is read up to
     * (not including) Pixel Data. Patient, study and series are created or updated (non-empty values replace the
     * stored ones); an instance that moved to another series or study leaves no empty series, study or patient
     * behind.
     *
     * @param storePath the file's store path, e.g. {@code ct/head/slice1.dcm}
     * @param file      the file
     * @return the indexed instance, or empty when the file is not DICOM (anything indexed at that path is removed)
     * @throws IndexException when the file cannot be read, is a damaged DICOM file or lacks a study, series or SOP
     *                        Instance UID (anything indexed at that path is removed), or the database fails
     */
    public Optional<InstanceSummary> put(String storePath, java.nio.file.Path file) {
        String path = StorePaths.file(storePath);
        ensureOpen();
        boolean dicom;
        try {
            dicom = ParsedInstance.isDicom(file);
        } catch (NoSuchFileException e) {
            throw new IndexException(path + ": no such file " + file, e);
        } catch (IOException e) {
            throw new IndexException(path + ": cannot read " + file + ": " + e, e);
        }
        if (!dicom) {
            remove(path);
            return Optional.empty();
        }
        ParsedInstance parsed;
        try {
            parsed = ParsedInstance.parse(path, file);
        } catch (IndexException e) {
            remove(path);
            throw e;
        }
        InstanceSummary indexed = commit(path, parsed);
        LOG.log(System.Logger.Level.DEBUG, "indexed {0}", path);
        return Optional.of(indexed);
    }

    /**
     * Indexes an object that was parsed already (see {@link IndexEntry}) and is now stored at its path in a file of
     * {@code fileSize} bytes last modified at {@code lastModified}, replacing what was indexed there before, as
     * {@link #put(String, java.nio.file.Path)} does. Puts from concurrent threads are written together in one
     * transaction (group commit); each call returns when its own instance is committed.
     *
     * @param lastModified epoch milliseconds
     * @return the indexed instance
     * @throws IndexException when the database fails
     */
    public InstanceSummary put(IndexEntry entry, long fileSize, long lastModified) {
        ensureOpen();
        InstanceSummary indexed = commit(entry.path, entry.parsed.withFile(fileSize, lastModified));
        LOG.log(System.Logger.Level.DEBUG, "indexed {0}", entry.path);
        return indexed;
    }

    /** The store paths of the instances with this SOP Instance UID (usually none, or one), sorted. */
    public List<String> pathsOf(String sopInstanceUid) {
        Objects.requireNonNull(sopInstanceUid, "sopInstanceUid");
        return read("looking up a SOP Instance UID", em -> em.createQuery("select i.path from InstanceEntity i"
                + " where i.sopInstanceUid = :uid order by i.path", String.class)
                .setParameter("uid", sopInstanceUid).getResultList());
    }

    /**
     * Removes the instance at {@code storePath}, and its series, study and patient when they are left empty.
     *
     * @return whether something was indexed there
     */
    public boolean remove(String storePath) {
        String path = StorePaths.file(storePath);
        boolean removed = write("removing " + path, em -> removeAll(em, List.of(path)) > 0);
        if (removed) {
            LOG.log(System.Logger.Level.DEBUG, "removed {0} from the index", path);
        }
        return removed;
    }

    /**
     * Removes every instance under the directory {@code directoryPath} (and the file of that path, if one is
     * indexed), with the series, studies and patients left empty. An empty path (or "/") empties the index.
     *
     * @return how many instances were removed
     */
    public int removeUnder(String directoryPath) {
        String dir = StorePaths.directory(directoryPath);
        int removed = write("removing " + (dir.isEmpty() ? "everything" : dir + "/"), em -> {
            if (dir.isEmpty()) {
                int n = em.createQuery("delete from InstanceEntity i").executeUpdate();
                em.createQuery("delete from SeriesEntity s").executeUpdate();
                em.createQuery("delete from StudyEntity s").executeUpdate();
                em.createQuery("delete from PatientEntity p").executeUpdate();
                return n;
            }
            String under = escapeLike(dir) + "/%";
            String where = " where i.path = :path or i.path like :under escape '" + Matching.ESCAPE + "'";
            List<String> series = em.createQuery("select distinct i.series.uid from InstanceEntity i" + where,
                    String.class).setParameter("path", dir).setParameter("under", under).getResultList();
            int n = em.createQuery("delete from InstanceEntity i" + where)
                    .setParameter("path", dir).setParameter("under", under).executeUpdate();
            prune(em, new HashSet<>(series), Set.of(), Set.of());
            return n;
        });
        LOG.log(System.Logger.Level.DEBUG, "removed {0} instances under {1}", removed, dir.isEmpty() ? "/" : dir);
        return removed;
    }

    /**
     * Rebuilds the index from the files under {@code imagesRoot} (the data directory's {@code images/}): indexes
     * every DICOM file (one with "DICM" at offset 128), skipping files and directories whose name starts with '.',
     * and removes the entries whose file is gone, is not DICOM or failed. A damaged file is reported and does not
     * stop the rebuild. The index stays usable meanwhile (it is not emptied first); PUTs and DELETEs may go on.
     *
     * @throws IndexException when {@code imagesRoot} is not a directory, or the database fails
     */
    public RebuildReport rebuild(java.nio.file.Path imagesRoot) {
        ensureOpen();
        long start = System.nanoTime();
        if (!Files.isDirectory(imagesRoot)) {
            throw new IndexException("cannot rebuild the DICOM index: " + imagesRoot + " is not a directory");
        }
        SortedMap<String, String> failed = new TreeMap<>();
        SortedMap<String, java.nio.file.Path> files = walk(imagesRoot, failed);
        Set<String> indexed = new HashSet<>();
        int skipped = 0;
        for (Map.Entry<String, java.nio.file.Path> entry : files.entrySet()) {
            String path = entry.getKey();
            try {
                if (!ParsedInstance.isDicom(entry.getValue())) {
                    skipped++;
                    continue;
                }
                ParsedInstance parsed = ParsedInstance.parse(path, entry.getValue());
                write("indexing " + path, em -> upsertAll(em, List.of(new PendingPut(path, parsed))));
                indexed.add(path);
            } catch (IOException e) {
                failed.put(path, "cannot read the file: " + e);
            } catch (IndexException e) {
                String message = e.getMessage();
                failed.put(path, message.startsWith(path + ": ") ? message.substring(path.length() + 2) : message);
            }
        }
        // Entries without a good file behind them. A file that is DICOM now but was not walked was PUT meanwhile.
        List<String> stale = new ArrayList<>();
        for (String path : allPaths()) {
            if (!indexed.contains(path) && (failed.containsKey(path) || !isIndexableFile(imagesRoot, path))) {
                stale.add(path);
            }
        }
        int removed = 0;
        for (int from = 0; from < stale.size(); from += IN_CHUNK) {
            List<String> chunk = stale.subList(from, Math.min(stale.size(), from + IN_CHUNK));
            removed += write("removing stale entries", em -> removeAll(em, chunk));
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        LOG.log(System.Logger.Level.INFO, "DICOM index rebuilt from {0}: {1} files indexed, {2} not DICOM, {3} failed,"
                + " {4} stale entries removed, in {5} ms", imagesRoot, indexed.size(), skipped, failed.size(),
                removed, elapsed.toMillis());
        return new RebuildReport(indexed.size(), skipped, failed, removed, elapsed);
    }

    // ---------------------------------------------------------------------------------------------------- reading

    /** The instance indexed at {@code storePath}. */
    public Optional<InstanceSummary> instance(String storePath) {
        String path = StorePaths.file(storePath);
        return read("reading " + path, em -> selectInstances(em, (m, j) -> List.of(
                m.cb().equal(j.i().get("path"), m.matching().param(String.class, path))), false, 0, 0))
                .stream().findFirst();
    }

    /**
     * The instances indexed directly in the directory {@code directoryPath} ("" or "/" for the top), by file name,
     * sorted by name: one query, for a directory listing.
     */
    public Map<String, InstanceSummary> instancesIn(String directoryPath) {
        String dir = StorePaths.directory(directoryPath);
        List<InstanceSummary> rows = read("listing " + (dir.isEmpty() ? "/" : dir), em -> selectInstances(em,
                (m, j) -> List.of(m.cb().equal(j.i().get("directory"), m.matching().param(String.class, dir))),
                false, 0, 0));
        Map<String, InstanceSummary> byName = new LinkedHashMap<>();
        for (InstanceSummary row : rows) {
            byName.put(StorePaths.nameOf(row.path()), row);
        }
        return byName;
    }

    /** The patients matching {@code query}, by name then ID, with their numbers of studies, series, instances. */
    public List<PatientSummary> patients(PatientQuery query) {
        Objects.requireNonNull(query, "query");
        return read("querying patients", em -> {
            CriteriaBuilder cb = em.getCriteriaBuilder();
            Matching m = new Matching(cb);
            CriteriaQuery<Tuple> cq = cb.createTupleQuery();
            Root<PatientEntity> p = cq.from(PatientEntity.class);
            List<Predicate> where = new ArrayList<>();
            patientKeys(m, query, p, where);
            cq.multiselect(p.get("key"), p.get("patientId"), p.get("issuer"), p.get("patientName"),
                    p.get("birthDate"), p.get("sex"));
            cq.where(where.toArray(Predicate[]::new));
            cq.orderBy(cb.asc(cb.coalesce(p.<String>get("patientName"), "")),
                    cb.asc(cb.coalesce(p.<String>get("patientId"), "")), cb.asc(p.get("key")));
            List<Tuple> rows = page(em.createQuery(cq), m, query).getResultList();
            List<String> keys = rows.stream().map(t -> t.get(0, String.class)).toList();
            Map<String, Long> studies = countBy(em, "select st.patient.key, count(st) from StudyEntity st"
                    + " where st.patient.key in :k group by st.patient.key", keys);
            Map<String, Long> series = countBy(em, "select s.study.patient.key, count(s) from SeriesEntity s"
                    + " where s.study.patient.key in :k group by s.study.patient.key", keys);
            Map<String, Long> instances = countBy(em, "select i.series.study.patient.key, count(i)"
                    + " from InstanceEntity i where i.series.study.patient.key in :k"
                    + " group by i.series.study.patient.key", keys);
            return rows.stream().map(t -> {
                String key = t.get(0, String.class);
                return new PatientSummary(t.get(1, String.class), t.get(2, String.class), t.get(3, String.class),
                        t.get(4, String.class), t.get(5, String.class), studies.getOrDefault(key, 0L),
                        series.getOrDefault(key, 0L), instances.getOrDefault(key, 0L));
            }).toList();
        });
    }

    /**
     * The studies matching {@code query}, newest StudyDate first (studies without a date last), then by
     * StudyInstanceUID, with their numbers of series and instances.
     */
    public List<StudySummary> studies(StudyQuery query) {
        Objects.requireNonNull(query, "query");
        return read("querying studies", em -> {
            CriteriaBuilder cb = em.getCriteriaBuilder();
            Matching m = new Matching(cb);
            CriteriaQuery<Tuple> cq = cb.createTupleQuery();
            Root<StudyEntity> st = cq.from(StudyEntity.class);
            Join<StudyEntity, PatientEntity> p = st.join("patient");
            List<Predicate> where = new ArrayList<>();
            patientKeys(m, query, p, where);
            boolean fuzzy = query.fuzzyNames();
            add(where, m.match("StudyInstanceUID", query.key("StudyInstanceUID"), Vr.UI, st.get("uid"), null, fuzzy));
            add(where, m.match("StudyDate", query.key("StudyDate"), Vr.DA, st.get("studyDate"), null, fuzzy));
            add(where, m.match("StudyTime", query.key("StudyTime"), Vr.TM, st.get("studyTime"), null, fuzzy));
            add(where, m.match("AccessionNumber", query.key("AccessionNumber"), Vr.TEXT, st.get("accessionNumber"),
                    null, fuzzy));
            add(where, m.match("StudyID", query.key("StudyID"), Vr.TEXT, st.get("studyId"), null, fuzzy));
            add(where, m.match("StudyDescription", query.key("StudyDescription"), Vr.TEXT, st.get("description"),
                    null, fuzzy));
            add(where, m.match("ReferringPhysicianName", query.key("ReferringPhysicianName"), Vr.PN,
                    st.get("referringPhysician"), null, fuzzy));
            // ModalitiesInStudy: the study has a series of a matching Modality
            Subquery<String> sq = cq.subquery(String.class);
            Root<SeriesEntity> s = sq.from(SeriesEntity.class);
            Predicate modality = m.match("ModalitiesInStudy", query.key("ModalitiesInStudy"), Vr.TEXT,
                    s.get("modality"), null, false);
            if (modality != null) {
                sq.select(s.get("uid")).where(cb.equal(s.get("study"), st), modality);
                where.add(cb.exists(sq));
            }
            cq.multiselect(st.get("uid"), p.get("patientId"), p.get("issuer"), p.get("patientName"),
                    p.get("birthDate"), p.get("sex"), st.get("studyDate"), st.get("studyTime"),
                    st.get("accessionNumber"), st.get("studyId"), st.get("description"), st.get("referringPhysician"),
                    st.get("modalities"));
            cq.where(where.toArray(Predicate[]::new));
            cq.orderBy(cb.desc(cb.coalesce(st.<String>get("studyDate"), "")), cb.asc(st.get("uid")));
            List<Tuple> rows = page(em.createQuery(cq), m, query).getResultList();
            List<String> uids = rows.stream().map(t -> t.get(0, String.class)).toList();
            Map<String, Long> series = countBy(em, "select s.study.uid, count(s) from SeriesEntity s"
                    + " where s.study.uid in :k group by s.study.uid", uids);
            Map<String, Long> instances = countBy(em, "select i.series.study.uid, count(i) from InstanceEntity i"
                    + " where i.series.study.uid in :k group by i.series.study.uid", uids);
            return rows.stream().map(t -> {
                String uid = t.get(0, String.class);
                String modalities = t.get(12, String.class);
                return new StudySummary(t.get(1, String.class), t.get(2, String.class), t.get(3, String.class),
                        t.get(4, String.class), t.get(5, String.class), uid, t.get(6, String.class),
                        t.get(7, String.class), t.get(8, String.class), t.get(9, String.class),
                        t.get(10, String.class), t.get(11, String.class),
                        modalities == null ? List.of() : Arrays.asList(modalities.split("\\\\")),
                        series.getOrDefault(uid, 0L), instances.getOrDefault(uid, 0L));
            }).toList();
        });
    }

    /** The series of the study {@code studyInstanceUid}, by SeriesNumber then UID. */
    public List<SeriesSummary> series(String studyInstanceUid) {
        return series(studyInstanceUid, SeriesQuery.all());
    }

    /**
     * The series matching {@code query} in the study {@code studyInstanceUid} (null: in any study), by SeriesNumber
     * (series without one last) then UID, with their numbers of instances and their directories.
     */
    public List<SeriesSummary> series(String studyInstanceUid, SeriesQuery query) {
        Objects.requireNonNull(query, "query");
        return read("querying series", em -> {
            CriteriaBuilder cb = em.getCriteriaBuilder();
            Matching m = new Matching(cb);
            CriteriaQuery<Tuple> cq = cb.createTupleQuery();
            Root<SeriesEntity> s = cq.from(SeriesEntity.class);
            Join<SeriesEntity, StudyEntity> st = s.join("study");
            List<Predicate> where = new ArrayList<>();
            if (studyInstanceUid != null) {
                where.add(cb.equal(st.get("uid"), m.param(String.class, studyInstanceUid)));
            }
            add(where, m.match("SeriesInstanceUID", query.key("SeriesInstanceUID"), Vr.UI, s.get("uid"), null, false));
            add(where, m.match("Modality", query.key("Modality"), Vr.TEXT, s.get("modality"), null, false));
            add(where, m.match("SeriesNumber", query.key("SeriesNumber"), Vr.IS, s.get("seriesNumber"), null, false));
            add(where, m.match("SeriesDescription", query.key("SeriesDescription"), Vr.TEXT, s.get("description"),
                    null, false));
            add(where, m.match("BodyPartExamined", query.key("BodyPartExamined"), Vr.TEXT, s.get("bodyPart"), null,
                    false));
            add(where, m.match("SeriesDate", query.key("SeriesDate"), Vr.DA, s.get("seriesDate"), null, false));
            cq.multiselect(s.get("uid"), st.get("uid"), s.get("modality"), s.get("seriesNumber"),
                    s.get("description"), s.get("bodyPart"), s.get("seriesDate"));
            cq.where(where.toArray(Predicate[]::new));
            cq.orderBy(cb.asc(cb.coalesce(s.<Integer>get("seriesNumber"), Integer.MAX_VALUE)), cb.asc(s.get("uid")));
            List<Tuple> rows = page(em.createQuery(cq), m, query).getResultList();
            List<String> uids = rows.stream().map(t -> t.get(0, String.class)).toList();
            Map<String, Long> instances = countBy(em, "select i.series.uid, count(i) from InstanceEntity i"
                    + " where i.series.uid in :k group by i.series.uid", uids);
            Map<String, Set<String>> directories = new HashMap<>();
            forChunks(uids, chunk -> em.createQuery("select distinct i.series.uid, i.directory from InstanceEntity i"
                    + " where i.series.uid in :k", Object[].class).setParameter("k", chunk).getResultList()
                    .forEach(row -> directories.computeIfAbsent((String) row[0], k -> new TreeSet<>())
                            .add((String) row[1])));
            return rows.stream().map(t -> {
                String uid = t.get(0, String.class);
                return new SeriesSummary(t.get(1, String.class), uid, t.get(2, String.class),
                        t.get(3, Integer.class), t.get(4, String.class), t.get(5, String.class),
                        t.get(6, String.class), instances.getOrDefault(uid, 0L),
                        List.copyOf(directories.getOrDefault(uid, Set.of())));
            }).toList();
        });
    }

    /** The instances of the series {@code seriesInstanceUid}, by InstanceNumber then path. */
    public List<InstanceSummary> instances(String seriesInstanceUid) {
        return instances(seriesInstanceUid, InstanceQuery.all());
    }

    /**
     * The instances matching {@code query} in the series {@code seriesInstanceUid} (null: in any series), by
     * InstanceNumber (instances without one last) then path.
     */
    public List<InstanceSummary> instances(String seriesInstanceUid, InstanceQuery query) {
        Objects.requireNonNull(query, "query");
        return read("querying instances", em -> selectInstances(em, (m, j) -> {
            List<Predicate> where = new ArrayList<>();
            if (seriesInstanceUid != null) {
                where.add(m.cb().equal(j.s().get("uid"), m.matching().param(String.class, seriesInstanceUid)));
            }
            add(where, m.matching().match("SOPInstanceUID", query.key("SOPInstanceUID"), Vr.UI,
                    j.i().get("sopInstanceUid"), null, false));
            add(where, m.matching().match("SOPClassUID", query.key("SOPClassUID"), Vr.UI, j.i().get("sopClassUid"),
                    null, false));
            add(where, m.matching().match("InstanceNumber", query.key("InstanceNumber"), Vr.IS,
                    j.i().get("instanceNumber"), null, false));
            return where;
        }, true, query.offset(), query.limit()));
    }

    /**
     * The header of the instance at {@code storePath} as DICOM JSON (PS3.18 F.2, without Pixel Data; large binary
     * values as BulkDataURIs relative to {@link DicomJson#INSTANCE_URL}).
     *
     * @return empty when nothing is indexed there, or it was indexed before metadata was kept (a rebuild adds it)
     */
    public Optional<String> metadata(String storePath) {
        String path = StorePaths.file(storePath);
        return Optional.ofNullable(metadata(List.of(path)).get(path));
    }

    /** The metadata of the instances at {@code storePaths} that have some, by store path. */
    public Map<String, String> metadata(Collection<String> storePaths) {
        List<String> paths = List.copyOf(storePaths);
        Map<String, String> byPath = new HashMap<>();
        read("reading metadata", em -> {
            forChunks(paths, chunk -> em.createQuery("select i.path, i.metadataJson from InstanceEntity i"
                    + " where i.path in :k and i.metadataJson is not null", Object[].class)
                    .setParameter("k", chunk).getResultList()
                    .forEach(row -> byPath.put((String) row[0], (String) row[1])));
            return null;
        });
        return byPath;
    }

    /** How many instances (indexed files) the index holds. */
    public long count() {
        return read("counting", em -> em.createQuery("select count(i) from InstanceEntity i", Long.class)
                .getSingleResult());
    }

    /** How many patients, studies, series and instances the index holds. */
    public IndexCounts counts() {
        return read("counting", em -> new IndexCounts(
                em.createQuery("select count(p) from PatientEntity p", Long.class).getSingleResult(),
                em.createQuery("select count(s) from StudyEntity s", Long.class).getSingleResult(),
                em.createQuery("select count(s) from SeriesEntity s", Long.class).getSingleResult(),
                em.createQuery("select count(i) from InstanceEntity i", Long.class).getSingleResult()));
    }

    /** Closes the database connections (waiting for a write in progress). Idempotent. */
    @Override
    public void close() {
        writeLock.lock();
        try {
            if (!closed) {
                closed = true;
                emf.close();
                LOG.log(System.Logger.Level.DEBUG, "DICOM index on {0} closed", database.describe());
            }
        } finally {
            writeLock.unlock();
        }
    }

    @Override
    public String toString() {
        return "DicomIndex[" + database.describe() + (closed ? ", closed]" : "]");
    }

    // ---------------------------------------------------------------------------------------------- the writing

    /** What a write may have left empty, or whose ModalitiesInStudy may have changed: pruned at its end. */
    private record ToPrune(Set<String> series, Set<String> studies, Set<String> patients) {
        ToPrune() {
            this(new HashSet<>(), new HashSet<>(), new HashSet<>());
        }
    }

    /**
     * Writes the instances of {@code puts} (in one transaction, the caller's) and prunes what they left empty; the
     * summaries come from the written entities, without querying again.
     */
    private List<InstanceSummary> upsertAll(EntityManager em, List<PendingPut> puts) {
        ToPrune toPrune = new ToPrune();
        List<InstanceEntity> written = new ArrayList<>(puts.size());
        for (PendingPut put : puts) {
            written.add(upsert(em, put.path, put.parsed, toPrune));
        }
        em.flush();
        prune(em, toPrune.series(), toPrune.studies(), toPrune.patients());
        return written.stream().map(DicomIndex::summaryOf).toList();
    }

    private InstanceEntity upsert(EntityManager em, String path, ParsedInstance d, ToPrune toPrune) {
        InstanceEntity instance = em.find(InstanceEntity.class, path);
        if (instance != null) {
            toPrune.series().add(instance.series.uid);
            toPrune.studies().add(instance.series.study.uid);
            toPrune.patients().add(instance.series.study.patient.key);
        }

        String patientKey = d.patientKey();
        PatientEntity patient = em.find(PatientEntity.class, patientKey);
        if (patient == null) {
            patient = new PatientEntity(patientKey);
            em.persist(patient);
        }
        patient.patientId = d.patientId();
        patient.issuer = d.issuerOfPatientId();
        patient.patientName = newer(patient.patientName, d.patientName());
        patient.patientNameLower = ParsedInstance.lower(patient.patientName);
        patient.birthDate = newer(patient.birthDate, d.patientBirthDate());
        patient.sex = newer(patient.sex, d.patientSex());

        StudyEntity study = em.find(StudyEntity.class, d.studyInstanceUid());
        if (study == null) {
            study = new StudyEntity(d.studyInstanceUid());
            study.patient = patient;
            em.persist(study);
        } else if (!study.patient.key.equals(patientKey)) {
            toPrune.patients().add(study.patient.key);
            study.patient = patient;
        }
        study.studyDate = newer(study.studyDate, d.studyDate());
        study.studyTime = newer(study.studyTime, d.studyTime());
        study.accessionNumber = newer(study.accessionNumber, d.accessionNumber());
        study.studyId = newer(study.studyId, d.studyId());
        study.description = newer(study.description, d.studyDescription());
        study.referringPhysician = newer(study.referringPhysician, d.referringPhysicianName());

        SeriesEntity series = em.find(SeriesEntity.class, d.seriesInstanceUid());
        boolean seriesChanged = series == null; // then the study's ModalitiesInStudy is recomputed
        if (series == null) {
            series = new SeriesEntity(d.seriesInstanceUid());
            series.study = study;
            em.persist(series);
        } else if (!series.study.uid.equals(study.uid)) {
            toPrune.studies().add(series.study.uid);
            series.study = study;
            seriesChanged = true;
        }
        String modality = newer(series.modality, d.modality());
        seriesChanged |= !Objects.equals(modality, series.modality);
        series.modality = modality;
        series.seriesNumber = newer(series.seriesNumber, d.seriesNumber());
        series.description = newer(series.description, d.seriesDescription());
        series.bodyPart = newer(series.bodyPart, d.bodyPartExamined());
        series.seriesDate = newer(series.seriesDate, d.seriesDate());
        if (seriesChanged) {
            toPrune.studies().add(study.uid);
        }

        boolean isNew = instance == null;
        if (isNew) {
            instance = new InstanceEntity(path);
        }
        instance.directory = StorePaths.parentOf(path);
        instance.series = series;
        instance.sopInstanceUid = d.sopInstanceUid();
        instance.sopClassUid = d.sopClassUid();
        instance.instanceNumber = d.instanceNumber();
        instance.transferSyntaxUid = d.transferSyntaxUid();
        instance.rows = d.rows();
        instance.columns = d.columns();
        instance.numberOfFrames = d.numberOfFrames();
        instance.bitsAllocated = d.bitsAllocated();
        instance.photometricInterpretation = d.photometricInterpretation();
        instance.fileSize = d.fileSize();
        instance.lastModified = d.lastModified();
        instance.indexedAt = System.currentTimeMillis();
        instance.metadataJson = d.metadataJson();
        if (isNew) {
            em.persist(instance);
        }
        return instance;
    }

    private static InstanceSummary summaryOf(InstanceEntity i) {
        SeriesEntity s = i.series;
        StudyEntity st = s.study;
        PatientEntity p = st.patient;
        return new InstanceSummary(i.path, p.patientId, p.patientName, st.uid, st.studyDate, st.description, s.uid,
                s.modality, s.seriesNumber, s.description, i.sopInstanceUid, i.sopClassUid, i.instanceNumber,
                i.transferSyntaxUid, i.rows, i.columns, i.numberOfFrames, i.bitsAllocated,
                i.photometricInterpretation, i.fileSize, Instant.ofEpochMilli(i.lastModified),
                Instant.ofEpochMilli(i.indexedAt));
    }

    /** Removes the instances at {@code paths} and what they leave empty; returns how many were removed. */
    private int removeAll(EntityManager em, Collection<String> paths) {
        if (paths.isEmpty()) {
            return 0;
        }
        List<String> list = List.copyOf(paths);
        List<String> series = em.createQuery("select distinct i.series.uid from InstanceEntity i"
                + " where i.path in :paths", String.class).setParameter("paths", list).getResultList();
        if (series.isEmpty()) {
            return 0;
        }
        int n = em.createQuery("delete from InstanceEntity i where i.path in :paths")
                .setParameter("paths", list).executeUpdate();
        prune(em, new HashSet<>(series), Set.of(), Set.of());
        return n;
    }

    /**
     * Deletes the given series when they have no instance, the given studies and those of the deleted series when
     * they have no series, and the given patients and those of the deleted studies when they have no study; updates
     * ModalitiesInStudy of the studies that remain.
     */
    private static void prune(EntityManager em, Set<String> seriesUids, Set<String> studyUids,
            Set<String> patientKeys) {
        Set<String> studies = new HashSet<>(studyUids);
        Set<String> patients = new HashSet<>(patientKeys);
        for (String uid : seriesUids) {
            SeriesEntity series = em.find(SeriesEntity.class, uid);
            if (series != null && count(em, "select count(i) from InstanceEntity i where i.series.uid = :k", uid)
                    == 0) {
                studies.add(series.study.uid);
                em.remove(series);
            }
        }
        em.flush();
        for (String uid : studies) {
            StudyEntity study = em.find(StudyEntity.class, uid);
            if (study == null) {
                continue;
            }
            List<String> modalities = em.createQuery("select distinct s.modality from SeriesEntity s"
                    + " where s.study.uid = :k and s.modality is not null", String.class)
                    .setParameter("k", uid).getResultList();
            if (modalities.isEmpty()
                    && count(em, "select count(s) from SeriesEntity s where s.study.uid = :k", uid) == 0) {
                patients.add(study.patient.key);
                em.remove(study);
            } else {
                String joined = String.join("\\", new TreeSet<>(modalities));
                study.modalities = joined.isEmpty() ? null : joined;
            }
        }
        em.flush();
        for (String key : patients) {
            PatientEntity patient = em.find(PatientEntity.class, key);
            if (patient != null && count(em, "select count(st) from StudyEntity st where st.patient.key = :k", key)
                    == 0) {
                em.remove(patient);
            }
        }
    }

    private static long count(EntityManager em, String jpql, String key) {
        return em.createQuery(jpql, Long.class).setParameter("k", key).getSingleResult();
    }

    private static <T> T newer(T stored, T fresh) {
        return fresh != null ? fresh : stored;
    }

    private static String escapeLike(String value) {
        StringBuilder sb = new StringBuilder(value.length() + 8);
        for (char c : value.toCharArray()) {
            if (c == '%' || c == '_' || c == Matching.ESCAPE) {
                sb.append(Matching.ESCAPE);
            }
            sb.append(c);
        }
        return sb.toString();
    }

    /** The regular files under {@code root} by store path, leaving out hidden files and directories. */
    private static SortedMap<String, java.nio.file.Path> walk(java.nio.file.Path root,
            SortedMap<String, String> failed) {
        SortedMap<String, java.nio.file.Path> files = new TreeMap<>();
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(java.nio.file.Path dir, BasicFileAttributes attrs) {
                    return !dir.equals(root) && isHidden(dir) ? FileVisitResult.SKIP_SUBTREE
                            : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(java.nio.file.Path file, BasicFileAttributes attrs) {
                    if (attrs.isRegularFile() && !isHidden(file)) {
                        files.put(storePathOf(root, file), file);
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(java.nio.file.Path file, IOException e) {
                    if (!isHidden(file)) {
                        failed.put(storePathOf(root, file), "cannot read: " + e);
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new IndexException("cannot rebuild the DICOM index: cannot list " + root + ": " + e, e);
        }
        return files;
    }

    private static boolean isHidden(java.nio.file.Path file) {
        java.nio.file.Path name = file.getFileName();
        return name != null && name.toString().startsWith(".");
    }

    private static String storePathOf(java.nio.file.Path root, java.nio.file.Path file) {
        StringBuilder sb = new StringBuilder();
        for (java.nio.file.Path segment : root.relativize(file)) {
            if (sb.length() > 0) {
                sb.append('/');
            }
            sb.append(segment);
        }
        return sb.toString();
    }

    /** Whether the file at {@code storePath} under {@code root} is one that a rebuild indexes. */
    private static boolean isIndexableFile(java.nio.file.Path root, String storePath) {
        for (String segment : storePath.split("/")) {
            if (segment.startsWith(".")) {
                return false;
            }
        }
        try {
            java.nio.file.Path file = root.resolve(storePath);
            return Files.isRegularFile(file) && ParsedInstance.isDicom(file);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private List<String> allPaths() {
        return read("listing the index", em -> em.createQuery("select i.path from InstanceEntity i", String.class)
                .getResultList());
    }

    // ---------------------------------------------------------------------------------------------- the querying

    /** The roots of an instance query. */
    private record InstanceJoins(Root<InstanceEntity> i, Join<InstanceEntity, SeriesEntity> s,
            Join<SeriesEntity, StudyEntity> st, Join<StudyEntity, PatientEntity> p) {
    }

    /** The builder and the parameters of a query being built. */
    private record Building(CriteriaBuilder cb, Matching matching) {
    }

    private interface InstanceFilter {
        List<Predicate> where(Building building, InstanceJoins joins);
    }

    private static List<InstanceSummary> selectInstances(EntityManager em, InstanceFilter filter,
            boolean byInstanceNumber, int offset, int limit) {
        CriteriaBuilder cb = em.getCriteriaBuilder();
        Matching m = new Matching(cb);
        CriteriaQuery<Tuple> cq = cb.createTupleQuery();
        Root<InstanceEntity> i = cq.from(InstanceEntity.class);
        Join<InstanceEntity, SeriesEntity> s = i.join("series");
        Join<SeriesEntity, StudyEntity> st = s.join("study");
        Join<StudyEntity, PatientEntity> p = st.join("patient");
        List<Predicate> where = filter.where(new Building(cb, m), new InstanceJoins(i, s, st, p));
        List<Selection<?>> columns = List.of(i.get("path"), p.get("patientId"), p.get("patientName"), st.get("uid"),
                st.get("studyDate"), st.get("description"), s.get("uid"), s.get("modality"), s.get("seriesNumber"),
                s.get("description"), i.get("sopInstanceUid"), i.get("sopClassUid"), i.get("instanceNumber"),
                i.get("transferSyntaxUid"), i.get("rows"), i.get("columns"), i.get("numberOfFrames"),
                i.get("bitsAllocated"), i.get("photometricInterpretation"), i.get("fileSize"), i.get("lastModified"),
                i.get("indexedAt"));
        cq.multiselect(columns).where(where.toArray(Predicate[]::new));
        List<Order> order = new ArrayList<>();
        if (byInstanceNumber) {
            order.add(cb.asc(cb.coalesce(i.<Integer>get("instanceNumber"), Integer.MAX_VALUE)));
        }
        order.add(cb.asc(i.get("path")));
        cq.orderBy(order);
        TypedQuery<Tuple> query = em.createQuery(cq);
        m.bind(query);
        if (offset > 0) {
            query.setFirstResult(offset);
        }
        if (limit > 0) {
            query.setMaxResults(limit);
        }
        return query.getResultList().stream().map(t -> new InstanceSummary(t.get(0, String.class),
                t.get(1, String.class), t.get(2, String.class), t.get(3, String.class), t.get(4, String.class),
                t.get(5, String.class), t.get(6, String.class), t.get(7, String.class), t.get(8, Integer.class),
                t.get(9, String.class), t.get(10, String.class), t.get(11, String.class), t.get(12, Integer.class),
                t.get(13, String.class), t.get(14, Integer.class), t.get(15, Integer.class), t.get(16, Integer.class),
                t.get(17, Integer.class), t.get(18, String.class), ((Number) t.get(19)).longValue(),
                Instant.ofEpochMilli(((Number) t.get(20)).longValue()),
                Instant.ofEpochMilli(((Number) t.get(21)).longValue()))).toList();
    }

    private static void patientKeys(Matching m, DicomQuery<?> query, Path<PatientEntity> p, List<Predicate> where) {
        add(where, m.match("PatientID", query.key("PatientID"), Vr.TEXT, p.get("patientId"), null, false));
        add(where, m.match("IssuerOfPatientID", query.key("IssuerOfPatientID"), Vr.TEXT, p.get("issuer"), null,
                false));
        add(where, m.match("PatientName", query.key("PatientName"), Vr.PN, p.get("patientName"),
                p.get("patientNameLower"), query.fuzzyNames()));
        add(where, m.match("PatientBirthDate", query.key("PatientBirthDate"), Vr.DA, p.get("birthDate"), null,
                false));
        add(where, m.match("PatientSex", query.key("PatientSex"), Vr.TEXT, p.get("sex"), null, false));
    }

    private static void add(List<Predicate> where, Predicate predicate) {
        if (predicate != null) {
            where.add(predicate);
        }
    }

    private static TypedQuery<Tuple> page(TypedQuery<Tuple> query, Matching m, DicomQuery<?> q) {
        m.bind(query);
        if (q.offset() > 0) {
            query.setFirstResult(q.offset());
        }
        if (q.limit() > 0) {
            query.setMaxResults(q.limit());
        }
        return query;
    }

    /** Runs a "select key, count(...) ... where key in :k group by key" query over {@code keys}, in chunks. */
    private static Map<String, Long> countBy(EntityManager em, String jpql, List<String> keys) {
        Map<String, Long> counts = new HashMap<>();
        forChunks(keys, chunk -> em.createQuery(jpql, Object[].class).setParameter("k", chunk).getResultList()
                .forEach(row -> counts.put((String) row[0], ((Number) row[1]).longValue())));
        return counts;
    }

    private static void forChunks(List<String> keys, java.util.function.Consumer<List<String>> action) {
        for (int from = 0; from < keys.size(); from += IN_CHUNK) {
            action.accept(keys.subList(from, Math.min(keys.size(), from + IN_CHUNK)));
        }
    }

    // ---------------------------------------------------------------------------------------------- transactions

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the DICOM index on " + database.describe() + " is closed");
        }
    }

    private <T> T read(String what, Function<EntityManager, T> work) {
        ensureOpen();
        EntityManager em = emf.createEntityManager();
        try {
            return work.apply(em);
        } catch (IllegalArgumentException | IndexException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new IndexException(what + " failed: " + reason(e), e);
        } finally {
            em.close();
        }
    }

    /** An instance waiting to be written; completed by whichever thread writes the batch it is in. */
    private static final class PendingPut {
        final String path;
        final ParsedInstance parsed;
        private InstanceSummary result;
        private RuntimeException failure;
        private boolean done; // read and written under the writer lock

        PendingPut(String path, ParsedInstance parsed) {
            this.path = path;
            this.parsed = parsed;
        }

        void succeed(InstanceSummary summary) {
            result = summary;
            done = true;
        }

        void fail(RuntimeException e) {
            failure = e;
            done = true;
        }
    }

    /**
     * Writes one instance with whatever other threads are waiting to write (group commit): the thread that gets the
     * writer lock writes every waiting put in one transaction, so concurrent associations share one commit instead
     * of queueing for one each. A failed batch is written again one instance at a time, so one bad instance fails
     * alone. Returns when this instance is committed.
     */
    private InstanceSummary commit(String path, ParsedInstance parsed) {
        PendingPut mine = new PendingPut(path, parsed);
        pending.add(mine);
        writeLock.lock();
        try {
            if (!mine.done) {
                ensureOpen();
                List<PendingPut> batch = new ArrayList<>();
                for (PendingPut p; (p = pending.poll()) != null; ) {
                    batch.add(p);
                }
                writeBatch(batch);
            }
        } finally {
            writeLock.unlock();
        }
        if (mine.failure != null) {
            throw mine.failure;
        }
        return mine.result;
    }

    private void writeBatch(List<PendingPut> batch) {
        try {
            if (batch.size() > 1) {
                try {
                    List<InstanceSummary> written = write("indexing " + batch.size() + " instances",
                            em -> upsertAll(em, batch));
                    for (int i = 0; i < batch.size(); i++) {
                        batch.get(i).succeed(written.get(i));
                    }
                    return;
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.DEBUG, "writing {0} instances together failed ({1}); one by one now",
                            batch.size(), reason(e));
                }
            }
            for (PendingPut put : batch) {
                try {
                    put.succeed(write("indexing " + put.path, em -> upsertAll(em, List.of(put)).get(0)));
                } catch (RuntimeException e) {
                    put.fail(e);
                }
            }
        } finally {
            for (PendingPut put : batch) {
                if (!put.done) {
                    put.fail(new IndexException("indexing " + put.path + " failed"));
                }
            }
        }
    }

    /** Runs {@code work} in a transaction under the writer lock, again when it hit a unique constraint. */
    private <T> T write(String what, Function<EntityManager, T> work) {
        ensureOpen();
        writeLock.lock();
        try {
            ensureOpen();
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
