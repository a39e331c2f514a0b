package org.medjava.store.core.index;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.medjava.store.core.storage.ObjectStorage;

/**
 * The DICOM metadata index of the store: patient → study → series → instance, one entry per store path (the
 * key of a stored object, as in the HTTP path, e.g. {@code ct/head/slice1.dcm}). An instance is one SOP Instance
 * UID: when several files hold one, the queries, counts and pages of instances take its current file only, the copy
 * the network stored under {@code dicom/} if there is one, else the first by store path (a rule of the query, so a
 * rebuild gives the same answers); the reads by path ({@link #instance}, {@link #instancesIn}, {@link #pathsOf})
 * are of files. The store keeps it in step with
 * PUT and DELETE ({@link #put}, {@link #remove}, {@link #removeUnder}) and can rebuild it from the stored objects
 * ({@link #rebuild}); the web layer, the C-FIND SCP and QIDO-RS query it.
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
 * logged. (A facade over {@link IndexSession}, {@link IndexWriter}, {@link IndexQueries} and {@link IndexRebuild}.)
 */
public final class DicomIndex implements AutoCloseable {
    public static final String PERSISTENCE_UNIT = "medjava-index";
    public static final String PERSISTENCE_XML = "META-INF/medjava-index.xml";

    private final IndexSession session;
    private final IndexWriter writer;
    private final IndexQueries queries;
    private final IndexRebuild rebuild;
    private final IndexTrash trash;
    private final RouteQueue routes;

    /**
     * Opens the index in {@code database}, creating or extending its tables.
     *
     * @throws IndexException when the database cannot be reached or its tables cannot be created
     */
    public DicomIndex(IndexDatabase database) {
        this.session = new IndexSession(database);
        ChangeLog changes = new ChangeLog(database);
        InstanceCounts counts = new InstanceCounts(database);
        this.writer = new IndexWriter(session, changes, counts);
        this.queries = new IndexQueries(session);
        this.rebuild = new IndexRebuild(session, writer, queries);
        this.trash = new IndexTrash(session, writer, rebuild, changes, counts);
        this.routes = new RouteQueue(session, changes);
        try { // series indexed before their counts were kept
            counts.backfill(session, IndexQueries.IN_CHUNK);
        } catch (RuntimeException e) {
            session.close();
            throw e;
        }
    }

    /** The routing queue and history (in this index's database, shared by a cluster's nodes). */
    public RouteQueue routes() {
        return routes;
    }

    /** The database this index is in. */
    public IndexDatabase database() {
        return session.database();
    }

    /**
     * Indexes an object that was parsed already (see {@link IndexEntry}) and is now stored at its path in a file of
     * {@code fileSize} bytes last modified at {@code lastModified}, replacing what was indexed there before: patient,
     * study and series are created or updated (non-empty values replace the stored ones); an instance that moved to
     * another series or study leaves no empty series, study or patient behind. Puts from concurrent threads are
     * written together in one transaction (group commit); each call returns when its own instance is committed.
     *
     * @param lastModified epoch milliseconds
     * @return the indexed instance
     * @throws IndexException when the database fails
     */
    public InstanceSummary put(IndexEntry entry, long fileSize, long lastModified) {
        return writer.put(entry, fileSize, lastModified, null);
    }

    /**
     * As {@link #put(IndexEntry, long, long)}, recorded in the change feed as {@code changeKind} whether or not
     * something was indexed at its path before (a corrected instance that moved to another path is "updated").
     */
    public InstanceSummary put(IndexEntry entry, long fileSize, long lastModified, String changeKind) {
        return writer.put(entry, fileSize, lastModified, changeKind);
    }

    /** The store paths of the instances with this SOP Instance UID (usually none, or one), sorted. */
    public List<String> pathsOf(String sopInstanceUid) {
        return queries.pathsOf(sopInstanceUid);
    }

    /**
     * Removes the instance at {@code storePath}, and its series, study and patient when they are left empty.
     *
     * @return whether something was indexed there
     */
    public boolean remove(String storePath) {
        return writer.remove(storePath);
    }

    /**
     * Removes every instance under the directory {@code directoryPath} (and the file of that path, if one is
     * indexed), with the series, studies and patients left empty. An empty path (or "/") empties the index.
     *
     * @return how many instances were removed
     */
    public int removeUnder(String directoryPath) {
        return writer.removeUnder(directoryPath);
    }

    /**
     * Rebuilds the index from the objects in {@code storage}: indexes every DICOM object (one with "DICM" at offset
     * 128; the header is read up to, not including, Pixel Data), skipping those whose name or a directory's starts
     * with '.', and removes the entries whose object is gone, is not DICOM or failed. A damaged object is reported
     * and does not stop the rebuild. The index stays usable meanwhile (it is not emptied first); PUTs and DELETEs
     * may go on.
     *
     * @throws IndexException when the objects cannot be listed, or the database fails
     */
    public RebuildReport rebuild(ObjectStorage storage) {
        return rebuild.rebuild(storage);
    }

    /**
     * Brings the entry of one path in step with the object {@code storage} holds there now: indexes it again when it
     * is DICOM that parses, else removes the entry (if any). For the reconciliation of a write a crash interrupted;
     * the caller holds the path's lock.
     *
     * @return whether the path is indexed now
     * @throws IOException    when the storage cannot be read (nothing was changed)
     * @throws IndexException when the database fails
     */
    public boolean reindex(ObjectStorage storage, String storePath) throws java.io.IOException {
        return rebuild.reindex(storage, storePath);
    }

    /** How many files (instance rows) {@code scope} names. */
    public long count(TrashScope scope) {
        return trash.count(scope);
    }

    /**
     * Moves what {@code scope} names into the trash: its instance rows leave the index (no query or retrieve sees
     * them; the series, study and patient left empty go too) and are kept in {@code mj_trash} until
     * {@code purgeAfter}; the change feed gets one "deleted" entry per file. One transaction of a few statements,
     * whatever the number of instances. The files stay where they are: see {@link TrashedFile}.
     *
     * @return the deletion (0 instances when nothing matched)
     */
    public Trashed trash(TrashScope scope, String trashId, String trashedBy, String reason, java.time.Instant now,
            java.time.Instant purgeAfter) {
        return trash.trash(scope, trashId, trashedBy, reason, now, purgeAfter, Change.DELETED);
    }

    /** As {@link #trash}, for an IOCM rejection note: the change feed says "rejected". */
    public Trashed reject(TrashScope scope, String trashId, String rejectedBy, String reason, java.time.Instant now,
            java.time.Instant purgeAfter) {
        return trash.trash(scope, trashId, rejectedBy, reason, now, purgeAfter, Change.REJECTED);
    }

    /**
     * Keeps a file in the trash as {@code file} describes it (a previous version a correction superseded: level
     * {@link TrashedFile#VERSION}), restorable and purged like any trashed file: an instance row at its path leaves
     * the index, and the change feed gets a "deleted" entry with the trash id. One transaction.
     */
    public void hold(TrashedFile file) {
        trash.hold(file);
    }

    /** The ids of the deletions in the trash that took files of this study (previous versions left out). */
    public List<String> deletionsOf(String studyInstanceUid) {
        return trash.deletionsOf(studyInstanceUid);
    }

    /** The files in the trash: of one deletion, or of all ({@code trashId} null); oldest deletion first. */
    public List<TrashedFile> trashed(String trashId, int limit) {
        return trash.list(trashId, limit);
    }

    /** The trashed files whose grace period has ended by {@code now}, the earliest first. */
    public List<TrashedFile> dueForPurge(java.time.Instant now, int limit) {
        return trash.due(now, limit);
    }

    /** Every trashed path, with the size and modification time (epoch ms) of the file it was. */
    public Map<String, long[]> trashMarks() {
        return trash.marks();
    }

    /**
     * Indexes a trashed file again from its stored bytes and takes it out of the trash (a "restored" change). The
     * caller holds the path's lock and has checked that the stored file is the trashed one.
     *
     * @return false when the file no longer parses (it stays in the trash)
     * @throws java.io.IOException when the storage cannot be read
     */
    public boolean restore(ObjectStorage storage, TrashedFile file) throws java.io.IOException {
        return trash.restore(storage, file);
    }

    /** Takes a trashed file out of the trash for good (a "purged" change); false when it was not there any more. */
    public boolean purged(TrashedFile file) {
        return trash.purged(file);
    }

    /**
     * The studies a retention rule selects, oldest first: by StudyDate (the date before the cut-off's day; studies
     * without a date are never selected) or by reception (every instance received before the cut-off), narrowed by
     * the query's modality, source AE title and label where it gives them.
     */
    public List<AgedStudy> studiesOlderThan(AgedStudyQuery query, int limit) {
        boolean byStudyDate = query.byStudyDate();
        return session.read("selecting studies by age", em -> {
            String sql = "select st.study_uid, st.study_date, max(i.indexed_at_ms), st.modalities, count(i.store_path)"
                    + " from mj_study st join mj_series s on s.study_uid = st.study_uid"
                    + " join mj_instance i on i.series_uid = s.series_uid"
                    + (byStudyDate ? " where st.study_date is not null and st.study_date < ?" : " where 1 = 1")
                    + (query.modality() == null ? "" : " and exists (select 1 from mj_series m where m.study_uid ="
                            + " st.study_uid and m.modality = ?)")
                    + (query.sourceAe() == null ? "" : " and exists (select 1 from mj_series a join mj_instance ai"
                            + " on ai.series_uid = a.series_uid where a.study_uid = st.study_uid and ai.source_ae = ?)")
                    + (query.label() == null ? "" : " and exists (select 1 from mj_label l where l.study_uid ="
                            + " st.study_uid and l.label = ?)")
                    + " group by st.study_uid, st.study_date, st.modalities"
                    + (byStudyDate ? "" : " having max(i.indexed_at_ms) < ?")
                    + " order by " + (byStudyDate ? "st.study_date" : "max(i.indexed_at_ms)") + ", st.study_uid";
            jakarta.persistence.Query q = em.createNativeQuery(sql).setMaxResults(limit);
            int p = 1;
            if (byStudyDate) {
                q.setParameter(p++, java.time.format.DateTimeFormatter.BASIC_ISO_DATE.format(
                        query.cutoff().atZone(java.time.ZoneOffset.UTC).toLocalDate()));
            }
            for (String value : new String[] {query.modality(), query.sourceAe(), query.label()}) {
                if (value != null) {
                    q.setParameter(p++, value);
                }
            }
            if (!byStudyDate) {
                q.setParameter(p, query.cutoff().toEpochMilli());
            }
            List<AgedStudy> studies = new java.util.ArrayList<>();
            for (Object row : q.getResultList()) {
                Object[] r = (Object[]) row;
                studies.add(new AgedStudy((String) r[0], (String) r[1],
                        java.time.Instant.ofEpochMilli(((Number) r[2]).longValue()), (String) r[3],
                        ((Number) r[4]).longValue()));
            }
            return studies;
        });
    }

    /** The changes numbered after {@code since}, in order, at most {@code limit}. */
    public List<Change> changes(long since, int limit) {
        return changes(since, limit, Visibility.everything());
    }

    /**
     * The changes of the studies {@code visibility} shows, numbered after {@code since}, in order, at most
     * {@code limit} (a study's labels outlive its deletion, so its deletion is seen by whoever saw the study).
     */
    public List<Change> changes(long since, int limit, Visibility visibility) {
        return session.read("reading the change feed", em -> ChangeLog.read(em, since, limit, false, visibility));
    }

    /** The changes of the trash (deleted into it, restored, purged) numbered after {@code since}, in order. */
    public List<Change> trashChanges(long since, int limit) {
        return session.read("reading the change feed", em -> ChangeLog.read(em, since, limit, true,
                Visibility.everything()));
    }

    /** The number of the latest change (0 when there is none). */
    public long lastChange() {
        return session.read("reading the change feed", ChangeLog::last);
    }

    /** Adds audit records to the searchable audit trail ({@code mj_audit}), in one transaction. */
    public void recordAudit(List<org.medjava.store.core.audit.AuditRecord> records) {
        session.read("writing the audit trail", em -> {
            AuditTable.insert(em, records);
            return null;
        });
    }

    /** The audit records {@code query} asks for, newest first. */
    public List<org.medjava.store.core.audit.AuditRecord> audit(org.medjava.store.core.audit.AuditQuery query) {
        return session.read("searching the audit trail", em -> AuditTable.find(em, query));
    }

    /**
     * Puts a label on a study (letters, digits, {@code _}, {@code -}; see {@link Labels}): the study is then seen by
     * the callers whose {@link Visibility} names it. Whether the study did not carry it yet.
     */
    public boolean addLabel(String studyInstanceUid, String label) {
        return session.read("labelling a study", em -> IndexLabels.add(em, studyInstanceUid, label));
    }

    /** Takes a label off a study; whether it carried it. */
    public boolean removeLabel(String studyInstanceUid, String label) {
        return session.read("taking a label off a study", em -> IndexLabels.remove(em, studyInstanceUid, label));
    }

    /** The labels of a study, sorted; empty when it has none. */
    public java.util.Set<String> labels(String studyInstanceUid) {
        return labels(List.of(studyInstanceUid)).getOrDefault(studyInstanceUid, java.util.Set.of());
    }

    /** The labels of each of these studies that has any. */
    public Map<String, java.util.Set<String>> labels(Collection<String> studyInstanceUids) {
        return session.read("reading labels", em -> IndexLabels.of(em, studyInstanceUids));
    }

    /** Records a new share link (its id must be new). */
    public void addShare(Share share) {
        session.read("recording a share link", em -> {
            ShareTable.insert(em, share);
            return null;
        });
    }

    /** The share link of that id, live or not. */
    public Optional<Share> share(String id) {
        return session.read("reading a share link", em -> ShareTable.find(em, id));
    }

    /** Share links, newest first, of one study and by one maker when these are not null. */
    public List<Share> shares(String studyInstanceUid, String createdBy, int limit) {
        return session.read("listing share links", em -> ShareTable.list(em, studyInstanceUid, createdBy, limit));
    }

    /** Revokes a live share link; whether it was live. */
    public boolean revokeShare(String id, String by, java.time.Instant at) {
        return session.read("revoking a share link", em -> ShareTable.revoke(em, id, by, at));
    }

    /** Counts one opening of a share link. */
    public void shareOpened(String id, java.time.Instant at) {
        session.read("counting a share link's opening", em -> {
            ShareTable.opened(em, id, at);
            return null;
        });
    }

    /** Every label in use, with how many studies carry it. */
    public Map<String, Long> labelCounts() {
        return session.read("counting labels", IndexLabels::counts);
    }

    /** The instance indexed at {@code storePath}. */
    public Optional<InstanceSummary> instance(String storePath) {
        return queries.instance(storePath);
    }

    /**
     * The instances indexed directly in the directory {@code directoryPath} ("" or "/" for the top), by file name,
     * sorted by name: one query, for a directory listing.
     */
    public Map<String, InstanceSummary> instancesIn(String directoryPath) {
        return queries.instancesIn(directoryPath);
    }

    /** The patients matching {@code query}, by name then ID, with their numbers of studies, series, instances. */
    public List<PatientSummary> patients(PatientQuery query) {
        return queries.patients(query);
    }

    /**
     * The studies matching {@code query}, newest StudyDate first (studies without a date last), then by
     * StudyInstanceUID, with their numbers of series and instances.
     */
    public List<StudySummary> studies(StudyQuery query) {
        return queries.studies(query);
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
        return queries.series(studyInstanceUid, query);
    }

    /** The instances of the series {@code seriesInstanceUid}, by InstanceNumber then path. */
    public List<InstanceSummary> instances(String seriesInstanceUid) {
        return instances(seriesInstanceUid, InstanceQuery.all());
    }

    /**
     * The instances matching {@code query} in the series {@code seriesInstanceUid} (null: in any series), by
     * InstanceNumber (instances without one last) then path: one per SOP Instance UID (its current file), so
     * that offset and limit count instances.
     */
    public List<InstanceSummary> instances(String seriesInstanceUid, InstanceQuery query) {
        return queries.instances(seriesInstanceUid, query);
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
        return queries.metadata(storePaths);
    }

    /**
     * The metadata of series or study {@code uid} made ready for public base {@code base} by
     * {@link #keepReadyMetadata}, when no write has changed the series or study since (a change of the feed
     * names it); empty otherwise. Not limited by any visibility: the caller checks the study.
     */
    public Optional<ReadyMetadata> readyMetadata(ReadyMetadata.Level level, String uid, String base) {
        if (base.length() > ReadyMetadataTable.BASE) {
            return Optional.empty();
        }
        return session.read("reading ready metadata", em -> ReadyMetadataTable.current(em, level, uid, base));
    }

    /**
     * The version that metadata of series or study {@code uid} made from what the index holds now has: read it
     * before reading the instances, so that a write in between makes what is kept outdated rather than wrong.
     */
    public long metadataVersion(ReadyMetadata.Level level, String uid) {
        return session.read("reading the change feed", em -> ReadyMetadataTable.version(em, level, uid));
    }

    /** Keeps {@code made} ready for public base {@code base} (not when the base is too long to be a key). */
    public void keepReadyMetadata(ReadyMetadata made, String base) {
        if (base.length() <= ReadyMetadataTable.BASE) {
            session.read("keeping ready metadata", em -> {
                ReadyMetadataTable.keep(em, made, base);
                return null;
            });
        }
    }

    /** How many instances (SOP Instance UIDs, not files) the index holds. */
    public long count() {
        return queries.count();
    }

    /** How many patients, studies, series and instances (SOP Instance UIDs) the index holds. */
    public IndexCounts counts() {
        return queries.counts();
    }

    /**
     * Runs the most trivial query ({@code select 1}): whether the database answers, and how fast.
     *
     * @throws IndexException (unavailable) when it does not
     */
    public void ping() {
        queries.ping();
    }

    /** The bytes of the indexed instances' files together (what the DICOM archive holds). */
    public long storedBytes() {
        return queries.storedBytes();
    }

    /** Closes the database connections (waiting for a write in progress). Idempotent. */
    @Override
    public void close() {
        session.close();
    }

    @Override
    public String toString() {
        return "DicomIndex[" + session.database().describe() + (session.isClosed() ? ", closed]" : "]");
    }
}
