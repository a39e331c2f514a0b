package org.medjava.store.core.index;

import jakarta.persistence.EntityManager;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The writes of the index: puts (committed together when they wait for the writer lock: group commit), removals,
 * and the pruning of the series, studies and patients that they leave empty. Every write runs in a transaction of
 * the {@link IndexSession}.
 */
final class IndexWriter {
    private static final System.Logger LOG = System.getLogger(DicomIndex.class.getName());

    private final IndexSession session;
    private final ChangeLog changes;
    private final InstanceCounts counts;
    private final ReentrantLock writeLock;
    /** Puts waiting for the writer lock (see {@link #commit}). */
    private final java.util.Queue<PendingPut> pending = new java.util.concurrent.ConcurrentLinkedQueue<>();

    IndexWriter(IndexSession session, ChangeLog changes, InstanceCounts counts) {
        this.session = session;
        this.changes = changes;
        this.counts = counts;
        this.writeLock = session.writeLock();
    }

    /** See {@link DicomIndex#put(IndexEntry, long, long)}. */
    InstanceSummary put(IndexEntry entry, long fileSize, long lastModified, String changeKind) {
        session.ensureOpen();
        InstanceSummary indexed = commit(new PendingPut(entry.path, entry.parsed.withFile(fileSize, lastModified),
                changeKind, null));
        LOG.log(System.Logger.Level.DEBUG, "indexed {0}", entry.path);
        return indexed;
    }

    /** See {@link DicomIndex#remove}. */
    boolean remove(String storePath) {
        String path = StorePaths.file(storePath);
        boolean removed = session.write("removing " + path, em -> removeAll(em, List.of(path)) > 0);
        if (removed) {
            LOG.log(System.Logger.Level.DEBUG, "removed {0} from the index", path);
        }
        return removed;
    }

    /** See {@link DicomIndex#removeUnder}. */
    int removeUnder(String directoryPath) {
        String dir = StorePaths.directory(directoryPath);
        int removed = session.write("removing " + (dir.isEmpty() ? "everything" : dir + "/"), em -> {
            if (dir.isEmpty()) {
                counts.emptying(em);
                changes.appendInstances(em, Change.DELETED, null, "1 = 1", List.of());
                int n = em.createQuery("delete from InstanceEntity i").executeUpdate();
                em.createQuery("delete from MetadataEntity m").executeUpdate();
                em.createQuery("delete from SeriesEntity s").executeUpdate();
                em.createQuery("delete from StudyEntity s").executeUpdate();
                em.createQuery("delete from PatientEntity p").executeUpdate();
                return n;
            }
            String under = escapeLike(dir) + "/%";
            String where = " where i.path = :path or i.path like :under escape '" + Matching.ESCAPE + "'";
            String sqlWhere = "i.store_path = ? or i.store_path like ? escape '" + Matching.ESCAPE + "'";
            InstanceCounts.Pending counting = counts.removing(em, sqlWhere, List.of(dir, under));
            List<String> series = em.createQuery("select distinct i.series.uid from InstanceEntity i" + where,
                    String.class).setParameter("path", dir).setParameter("under", under).getResultList();
            changes.appendInstances(em, Change.DELETED, null, sqlWhere, List.of(dir, under));
            int n = em.createQuery("delete from InstanceEntity i" + where)
                    .setParameter("path", dir).setParameter("under", under).executeUpdate();
            em.createQuery("delete from MetadataEntity i" + where)
                    .setParameter("path", dir).setParameter("under", under).executeUpdate();
            counting.after(em);
            prune(em, new HashSet<>(series), Set.of(), Set.of());
            return n;
        });
        LOG.log(System.Logger.Level.DEBUG, "removed {0} instances under {1}", removed, dir.isEmpty() ? "/" : dir);
        return removed;
    }

    /** An instance waiting to be written; completed by whichever thread writes the batch it is in. */
    static final class PendingPut {
        final String path;
        final ParsedInstance parsed;
        /** The change it is recorded as; null: created or updated, as it turns out. */
        final String changeKind;
        final String trashId;
        private InstanceSummary result;
        private RuntimeException failure;
        private boolean done; // read and written under the writer lock

        PendingPut(String path, ParsedInstance parsed) {
            this(path, parsed, null, null);
        }

        PendingPut(String path, ParsedInstance parsed, String changeKind, String trashId) {
            this.path = path;
            this.parsed = parsed;
            this.changeKind = changeKind;
            this.trashId = trashId;
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
    private InstanceSummary commit(PendingPut mine) {
        pending.add(mine);
        writeLock.lock();
        try {
            if (!mine.done) {
                session.ensureOpen();
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
                    List<InstanceSummary> written = session.write("indexing " + batch.size() + " instances",
                            em -> upsertAll(em, batch));
                    for (int i = 0; i < batch.size(); i++) {
                        batch.get(i).succeed(written.get(i));
                    }
                    return;
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.DEBUG, "writing {0} instances together failed ({1}); one by one now",
                            batch.size(), IndexSession.reason(e));
                }
            }
            for (PendingPut put : batch) {
                try {
                    put.succeed(session.write("indexing " + put.path, em -> upsertAll(em, List.of(put)).get(0)));
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
    List<InstanceSummary> upsertAll(EntityManager em, List<PendingPut> puts) {
        // what is indexed at each path (looked up once: a path's miss is not kept by the persistence context)
        java.util.Map<String, InstanceEntity> atPath = new java.util.HashMap<>();
        Set<String> uids = new HashSet<>(); // those it writes and those of the files it overwrites
        for (PendingPut put : puts) {
            uids.add(put.parsed.sopInstanceUid());
            if (!atPath.containsKey(put.path)) {
                InstanceEntity overwritten = em.find(InstanceEntity.class, put.path);
                atPath.put(put.path, overwritten);
                if (overwritten != null) {
                    uids.add(overwritten.sopInstanceUid);
                }
            }
        }
        InstanceCounts.Pending counting = counts.touching(em, uids);
        ToPrune toPrune = new ToPrune();
        List<InstanceEntity> written = new ArrayList<>(puts.size());
        List<ChangeLog.Entry> recorded = new ArrayList<>(puts.size());
        long now = System.currentTimeMillis();
        for (PendingPut put : puts) {
            boolean isNew = atPath.get(put.path) == null;
            InstanceEntity instance = upsert(em, put.path, put.parsed, toPrune, atPath.get(put.path));
            atPath.put(put.path, instance); // a second put at that path in this batch overwrites it
            written.add(instance);
            String kind = put.changeKind != null ? put.changeKind : isNew ? Change.CREATED : Change.UPDATED;
            recorded.add(new ChangeLog.Entry(kind, now, instance.series.study.uid, instance.series.uid,
                    instance.sopInstanceUid, instance.path, put.trashId));
        }
        em.flush();
        counting.after(em);
        prune(em, toPrune.series(), toPrune.studies(), toPrune.patients());
        changes.append(em, recorded);
        ReadyMetadataTable.forget(em, toPrune.series());
        ReadyMetadataTable.forget(em, toPrune.studies());
        return written.stream().map(IndexWriter::summaryOf).toList();
    }

    /** Writes one instance at {@code path}, where {@code instance} is indexed now (null: nothing). */
    private InstanceEntity upsert(EntityManager em, String path, ParsedInstance d, ToPrune toPrune,
            InstanceEntity instance) {
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
        instance.sourceAe = d.sourceAe();
        instance.rows = d.rows();
        instance.columns = d.columns();
        instance.numberOfFrames = d.numberOfFrames();
        instance.bitsAllocated = d.bitsAllocated();
        instance.photometricInterpretation = d.photometricInterpretation();
        instance.fileSize = d.fileSize();
        instance.lastModified = d.lastModified();
        instance.indexedAt = System.currentTimeMillis();
        instance.metadataJson = null; // kept in mj_metadata
        MetadataEntity metadata = em.find(MetadataEntity.class, path);
        if (metadata == null) {
            em.persist(new MetadataEntity(path, d.metadataJson()));
        } else {
            metadata.json = d.metadataJson();
        }
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
    int removeAll(EntityManager em, Collection<String> paths) {
        if (paths.isEmpty()) {
            return 0;
        }
        List<String> list = List.copyOf(paths);
        List<Object[]> gone = em.createQuery("select i.path, i.sopInstanceUid, i.series.uid, i.series.study.uid"
                + " from InstanceEntity i where i.path in :paths", Object[].class).setParameter("paths", list)
                .getResultList();
        if (gone.isEmpty()) {
            return 0;
        }
        long now = System.currentTimeMillis();
        Set<String> series = new HashSet<>();
        Set<String> uids = new HashSet<>();
        List<ChangeLog.Entry> recorded = new ArrayList<>(gone.size());
        for (Object[] i : gone) {
            series.add((String) i[2]);
            uids.add((String) i[1]);
            recorded.add(new ChangeLog.Entry(Change.DELETED, now, (String) i[3], (String) i[2], (String) i[1],
                    (String) i[0], null));
        }
        InstanceCounts.Pending counting = counts.touching(em, uids);
        int n = em.createQuery("delete from InstanceEntity i where i.path in :paths")
                .setParameter("paths", list).executeUpdate();
        em.createQuery("delete from MetadataEntity m where m.path in :paths").setParameter("paths", list)
                .executeUpdate();
        counting.after(em);
        prune(em, series, Set.of(), Set.of());
        changes.append(em, recorded);
        return n;
    }

    /**
     * Deletes the given series when they have no instance, the given studies and those of the deleted series when
     * they have no series, and the given patients and those of the deleted studies when they have no study; updates
     * ModalitiesInStudy of the studies that remain.
     */
    static void prune(EntityManager em, Set<String> seriesUids, Set<String> studyUids,
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
}
