package org.medjava.store.core.index;

import jakarta.persistence.EntityManager;
import jakarta.persistence.Query;
import jakarta.persistence.Tuple;
import jakarta.persistence.TypedQuery;
import jakarta.persistence.criteria.AbstractQuery;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.Expression;
import jakarta.persistence.criteria.Join;
import jakarta.persistence.criteria.Order;
import jakarta.persistence.criteria.Path;
import jakarta.persistence.criteria.Predicate;
import jakarta.persistence.criteria.Root;
import jakarta.persistence.criteria.Selection;
import jakarta.persistence.criteria.Subquery;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.medjava.codec.dicom.ArchiveLayout;
import org.medjava.store.core.index.Matching.Vr;

/**
 * The reads of the index: instances by path or directory, the patient, study, series and instance queries (criteria
 * built from the matching keys of a {@link DicomQuery}), metadata and counts. Each runs in an EntityManager of its
 * own ({@link IndexSession#read}), concurrently with other reads and with writes.
 *
 * <p>An instance is one SOP Instance UID, however many files hold it: the index keeps a row per file, and the
 * queries and pages of instances take only the current file of each UID ({@link #current}), in the query itself,
 * so a page of n rows is n instances; the numbers of instances of a series, study or patient are the series' counts
 * the writes keep by that rule ({@link InstanceCounts}), counted here only for series without one yet. The reads by
 * path and by directory are of files.
 */
final class IndexQueries {
    /** At most this many values in one IN list. */
    static final int IN_CHUNK = 500;
    /** The paths the network stores objects under (it keeps one per SOP Instance UID), as a LIKE pattern. */
    private static final String NETWORK_COPIES = ArchiveLayout.ROOT + "/%";
    /** What those paths start with. */
    static final String NETWORK_ROOT = ArchiveLayout.ROOT + "/";

    private final IndexSession session;

    IndexQueries(IndexSession session) {
        this.session = session;
    }

    /** See {@link DicomIndex#pathsOf}. */
    List<String> pathsOf(String sopInstanceUid) {
        Objects.requireNonNull(sopInstanceUid, "sopInstanceUid");
        return session.read("looking up a SOP Instance UID", em -> em.createQuery(
                "select i.path from InstanceEntity i where i.sopInstanceUid = :uid order by i.path", String.class)
                .setParameter("uid", sopInstanceUid).getResultList());
    }

    /** See {@link DicomIndex#instance}. */
    Optional<InstanceSummary> instance(String storePath) {
        String path = StorePaths.file(storePath);
        return session.read("reading " + path, em -> selectInstances(em, (m, j) -> List.of(
                m.cb().equal(j.i().get("path"), m.matching().param(String.class, path))), false, false, 0, 0))
                .stream().findFirst();
    }

    /** See {@link DicomIndex#instancesIn}. */
    Map<String, InstanceSummary> instancesIn(String directoryPath) {
        String dir = StorePaths.directory(directoryPath);
        List<InstanceSummary> rows = session.read("listing " + (dir.isEmpty() ? "/" : dir),
                em -> selectInstances(em, (m, j) -> List.of(m.cb().equal(j.i().get("directory"),
                        m.matching().param(String.class, dir))), false, false, 0, 0));
        Map<String, InstanceSummary> byName = new LinkedHashMap<>();
        for (InstanceSummary row : rows) {
            byName.put(StorePaths.nameOf(row.path()), row);
        }
        return byName;
    }

    /** See {@link DicomIndex#patients}. */
    List<PatientSummary> patients(PatientQuery query) {
        Objects.requireNonNull(query, "query");
        if (seesNothing(query)) {
            return List.of();
        }
        return session.read("querying patients", em -> {
            CriteriaBuilder cb = em.getCriteriaBuilder();
            Matching m = new Matching(cb);
            CriteriaQuery<Tuple> cq = cb.createTupleQuery();
            Root<PatientEntity> p = cq.from(PatientEntity.class);
            List<Predicate> where = new ArrayList<>();
            patientKeys(m, query, p, where);
            Visibility v = query.visibility();
            if (!v.all()) { // a patient is seen through a study of theirs that may be seen
                Subquery<String> seen = cq.subquery(String.class);
                Root<StudyEntity> st = seen.from(StudyEntity.class);
                seen.select(st.get("uid")).where(cb.equal(st.get("patient"), p), visible(cb, seen, st.get("uid"), v));
                where.add(cb.exists(seen));
            }
            cq.multiselect(p.get("key"), p.get("patientId"), p.get("issuer"), p.get("patientName"),
                    p.get("birthDate"), p.get("sex"));
            cq.where(where.toArray(Predicate[]::new));
            cq.orderBy(cb.asc(cb.coalesce(p.<String>get("patientName"), "")),
                    cb.asc(cb.coalesce(p.<String>get("patientId"), "")), cb.asc(p.get("key")));
            List<Tuple> rows = page(em.createQuery(cq), m, query).getResultList();
            List<String> keys = rows.stream().map(t -> t.get(0, String.class)).toList();
            // the counts, too, are of what the caller may see
            Map<String, Long> studies = countBy(em, "select st.patient.key, count(st) from StudyEntity st"
                    + " where st.patient.key in :k" + visibleJpql("st.uid", v) + " group by st.patient.key", keys);
            Map<String, Kept> kept = new HashMap<>();
            forChunks(keys, chunk -> kept(kept, em.createQuery("select s.study.patient.key, count(s),"
                    + " sum(s.instanceCount), count(s.instanceCount) from SeriesEntity s where s.study.patient.key"
                    + " in :k" + visibleJpql("s.study.uid", v) + " group by s.study.patient.key", Object[].class)
                    .setParameter("k", chunk).getResultList()));
            Map<String, Long> instances = instances(kept, uncounted -> countInstances(em,
                    i -> i.get("series").get("study").get("patient").get("key"), uncounted, v));
            return rows.stream().map(t -> {
                String key = t.get(0, String.class);
                Kept k = kept.getOrDefault(key, Kept.NONE);
                return new PatientSummary(t.get(1, String.class), t.get(2, String.class), t.get(3, String.class),
                        t.get(4, String.class), t.get(5, String.class), studies.getOrDefault(key, 0L),
                        k.series(), instances.getOrDefault(key, 0L));
            }).toList();
        });
    }

    /** See {@link DicomIndex#studies}. */
    List<StudySummary> studies(StudyQuery query) {
        Objects.requireNonNull(query, "query");
        if (seesNothing(query)) {
            return List.of();
        }
        return session.read("querying studies", em -> {
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
            add(where, visible(cb, cq, st.get("uid"), query.visibility()));
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
            cq.orderBy(studyOrder(cb, query, st, p));
            List<Tuple> rows = page(em.createQuery(cq), m, query).getResultList();
            List<String> uids = rows.stream().map(t -> t.get(0, String.class)).toList();
            // the series' kept counts, summed: one row per series by the series' study index, no instance row
            Map<String, Kept> kept = new HashMap<>();
            forChunks(uids, chunk -> {
                Query q = em.createNativeQuery("select s.study_uid, count(*), sum(s.instance_count),"
                        + " count(s.instance_count) from mj_series s where s.study_uid in (" + marks(chunk.size())
                        + ") group by s.study_uid");
                for (int n = 0; n < chunk.size(); n++) {
                    q.setParameter(n + 1, chunk.get(n));
                }
                @SuppressWarnings("unchecked")
                List<Object[]> counted = q.getResultList();
                kept(kept, counted);
            });
            Map<String, Long> instances = instances(kept, uncounted -> countInstances(em,
                    i -> i.get("series").get("study").get("uid"), uncounted));
            return rows.stream().map(t -> {
                String uid = t.get(0, String.class);
                long series = kept.getOrDefault(uid, Kept.NONE).series();
                String modalities = t.get(12, String.class);
                return new StudySummary(t.get(1, String.class), t.get(2, String.class), t.get(3, String.class),
                        t.get(4, String.class), t.get(5, String.class), uid, t.get(6, String.class),
                        t.get(7, String.class), t.get(8, String.class), t.get(9, String.class),
                        t.get(10, String.class), t.get(11, String.class),
                        modalities == null ? List.of() : Arrays.asList(modalities.split("\\\\")),
                        series, instances.getOrDefault(uid, 0L));
            }).toList();
        });
    }

    /** See {@link DicomIndex#series}. */
    List<SeriesSummary> series(String studyInstanceUid, SeriesQuery query) {
        Objects.requireNonNull(query, "query");
        if (seesNothing(query)) {
            return List.of();
        }
        return session.read("querying series", em -> {
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
            add(where, visible(cb, cq, st.get("uid"), query.visibility()));
            cq.multiselect(s.get("uid"), st.get("uid"), s.get("modality"), s.get("seriesNumber"),
                    s.get("description"), s.get("bodyPart"), s.get("seriesDate"), s.get("instanceCount"));
            cq.where(where.toArray(Predicate[]::new));
            cq.orderBy(cb.asc(cb.coalesce(s.<Integer>get("seriesNumber"), Integer.MAX_VALUE)), cb.asc(s.get("uid")));
            List<Tuple> rows = page(em.createQuery(cq), m, query).getResultList();
            List<String> uids = rows.stream().map(t -> t.get(0, String.class)).toList();
            Map<String, Long> instances = new HashMap<>();
            List<String> uncounted = new ArrayList<>();
            for (Tuple t : rows) {
                Long kept = t.get(7, Long.class);
                if (kept == null) {
                    uncounted.add(t.get(0, String.class));
                } else {
                    instances.put(t.get(0, String.class), kept);
                }
            }
            instances.putAll(countBySeries(em, uncounted));
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

    /** See {@link DicomIndex#instances}. */
    List<InstanceSummary> instances(String seriesInstanceUid, InstanceQuery query) {
        Objects.requireNonNull(query, "query");
        if (seesNothing(query)) {
            return List.of();
        }
        return session.read("querying instances", em -> selectInstances(em, (m, j) -> {
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
        }, true, true, query.offset(), query.limit(), query.visibility()));
    }

    /** See {@link DicomIndex#metadata}. */
    Map<String, String> metadata(Collection<String> storePaths) {
        List<String> paths = List.copyOf(storePaths);
        Map<String, String> byPath = new HashMap<>();
        session.read("reading metadata", em -> {
            // indexed paths only: a trashed file's metadata stays in mj_metadata until it is purged
            forChunks(paths, chunk -> em.createQuery("select m.path, m.json from MetadataEntity m, InstanceEntity i"
                    + " where i.path = m.path and m.path in :k and m.json is not null", Object[].class)
                    .setParameter("k", chunk).getResultList()
                    .forEach(row -> byPath.put((String) row[0], (String) row[1])));
            forChunks(paths, chunk -> em.createQuery("select i.path, i.metadataJson from InstanceEntity i"
                    + " where i.path in :k and i.metadataJson is not null", Object[].class)
                    .setParameter("k", chunk).getResultList()
                    .forEach(row -> byPath.putIfAbsent((String) row[0], (String) row[1])));
            return null;
        });
        return byPath;
    }

    /** See {@link DicomIndex#count}. */
    long count() {
        return session.read("counting", IndexQueries::instanceCount);
    }

    /** See {@link DicomIndex#counts}. */
    IndexCounts counts() {
        return session.read("counting", em -> new IndexCounts(
                em.createQuery("select count(p) from PatientEntity p", Long.class).getSingleResult(),
                em.createQuery("select count(s) from StudyEntity s", Long.class).getSingleResult(),
                em.createQuery("select count(s) from SeriesEntity s", Long.class).getSingleResult(),
                instanceCount(em)));
    }
    /** See {@link DicomIndex#ping}. */
    void ping() {
        session.read("pinging the database", em -> em.createNativeQuery("select 1").getSingleResult());
    }

    /** See {@link DicomIndex#storedBytes}. */
    long storedBytes() {
        return session.read("summing the sizes", em -> {
            Long sum = em.createQuery("select sum(i.fileSize) from InstanceEntity i", Long.class).getSingleResult();
            return sum == null ? 0L : sum;
        });
    }

    /** The store paths of every indexed instance. */
    List<String> allPaths() {
        return session.read("listing the index", em -> em.createQuery("select i.path from InstanceEntity i",
                String.class).getResultList());
    }

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

    /** The query's order (its keys, then the UID, so pages never overlap), or newest first. */
    private static List<Order> studyOrder(CriteriaBuilder cb, StudyQuery query, Root<StudyEntity> st,
            Join<StudyEntity, PatientEntity> p) {
        List<Order> order = new ArrayList<>();
        if (query.order().isEmpty()) {
            order.add(cb.desc(cb.coalesce(st.<String>get("studyDate"), "")));
        }
        for (StudyQuery.Order key : query.order()) {
            List<Expression<String>> columns = switch (key.keyword()) {
                case "PatientName" -> List.of(cb.upper(cb.coalesce(p.<String>get("patientName"), "")));
                case "PatientID" -> List.of(cb.coalesce(p.<String>get("patientId"), ""));
                case "StudyDate" -> List.of(cb.coalesce(st.<String>get("studyDate"), ""),
                        cb.coalesce(st.<String>get("studyTime"), ""));
                case "AccessionNumber" -> List.of(cb.coalesce(st.<String>get("accessionNumber"), ""));
                case "StudyDescription" -> List.of(cb.upper(cb.coalesce(st.<String>get("description"), "")));
                case "StudyID" -> List.of(cb.coalesce(st.<String>get("studyId"), ""));
                case "ReferringPhysicianName" -> List.of(cb.upper(cb.coalesce(st.<String>get("referringPhysician"),
                        "")));
                default -> throw new IllegalArgumentException("cannot order studies by " + key.keyword());
            };
            columns.forEach(c -> order.add(key.descending() ? cb.desc(c) : cb.asc(c)));
        }
        order.add(cb.asc(st.get("uid")));
        return order;
    }

    /**
     * The instances (rows) the filter selects; with {@code currentOnly}, only the current file of each SOP Instance
     * UID, so that offset and limit count instances.
     */
    private static List<InstanceSummary> selectInstances(EntityManager em, InstanceFilter filter,
            boolean currentOnly, boolean byInstanceNumber, int offset, int limit) {
        return selectInstances(em, filter, currentOnly, byInstanceNumber, offset, limit, Visibility.everything());
    }

    /** As above, among the studies {@code v} lets the caller see. */
    private static List<InstanceSummary> selectInstances(EntityManager em, InstanceFilter filter,
            boolean currentOnly, boolean byInstanceNumber, int offset, int limit, Visibility v) {
        CriteriaBuilder cb = em.getCriteriaBuilder();
        Matching m = new Matching(cb);
        CriteriaQuery<Tuple> cq = cb.createTupleQuery();
        Root<InstanceEntity> i = cq.from(InstanceEntity.class);
        Join<InstanceEntity, SeriesEntity> s = i.join("series");
        Join<SeriesEntity, StudyEntity> st = s.join("study");
        Join<StudyEntity, PatientEntity> p = st.join("patient");
        List<Predicate> where = new ArrayList<>(filter.where(new Building(cb, m), new InstanceJoins(i, s, st, p)));
        if (currentOnly) {
            where.add(current(cb, cq, i));
        }
        add(where, visible(cb, cq, st.get("uid"), v));
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

    /**
     * Whether the row {@code i} is the current file of its SOP Instance UID, the one that stands for the instance:
     * no other row of that UID comes before it, where the network's copy (under {@code dicom/}) comes first, then
     * the store paths in the database's order. A NOT EXISTS on the SOP Instance UID's index.
     */
    static Predicate current(CriteriaBuilder cb, AbstractQuery<?> query, Path<InstanceEntity> i) {
        Subquery<String> before = query.subquery(String.class);
        Root<InstanceEntity> j = before.from(InstanceEntity.class);
        Path<String> jPath = j.get("path");
        Path<String> iPath = i.get("path");
        Predicate networkFirst = cb.and(cb.like(jPath, NETWORK_COPIES), cb.notLike(iPath, NETWORK_COPIES));
        Predicate sameKind = cb.or(cb.and(cb.like(jPath, NETWORK_COPIES), cb.like(iPath, NETWORK_COPIES)),
                cb.and(cb.notLike(jPath, NETWORK_COPIES), cb.notLike(iPath, NETWORK_COPIES)));
        before.select(jPath).where(cb.equal(j.get("sopInstanceUid"), i.get("sopInstanceUid")),
                cb.or(networkFirst, cb.and(sameKind, cb.lessThan(jPath, iPath))));
        return cb.not(cb.exists(before));
    }

    /** How many instances (SOP Instance UIDs) the index holds: the series' kept counts summed, if all are kept. */
    private static long instanceCount(EntityManager em) {
        Object[] kept = em.createQuery("select count(s), sum(s.instanceCount), count(s.instanceCount)"
                + " from SeriesEntity s", Object[].class).getSingleResult();
        if (((Number) kept[0]).longValue() == ((Number) kept[2]).longValue()) {
            return kept[1] == null ? 0 : ((Number) kept[1]).longValue();
        }
        return countInstances(em);
    }

    /** How many instances (SOP Instance UIDs) the index holds, counted. */
    private static long countInstances(EntityManager em) {
        CriteriaBuilder cb = em.getCriteriaBuilder();
        CriteriaQuery<Long> cq = cb.createQuery(Long.class);
        Root<InstanceEntity> i = cq.from(InstanceEntity.class);
        cq.select(cb.count(i)).where(current(cb, cq, i));
        return em.createQuery(cq).getSingleResult();
    }

    /** How many instances (current files, see {@link #current}) each of {@code keys} has, in chunks. */
    private static Map<String, Long> countInstances(EntityManager em,
            Function<Root<InstanceEntity>, Path<String>> keyOf, List<String> keys) {
        return countInstances(em, keyOf, keys, Visibility.everything());
    }

    /** As above, of the instances in the studies {@code v} lets the caller see. */
    private static Map<String, Long> countInstances(EntityManager em,
            Function<Root<InstanceEntity>, Path<String>> keyOf, List<String> keys, Visibility v) {
        Map<String, Long> counts = new HashMap<>();
        forChunks(keys, chunk -> {
            CriteriaBuilder cb = em.getCriteriaBuilder();
            CriteriaQuery<Tuple> cq = cb.createTupleQuery();
            Root<InstanceEntity> i = cq.from(InstanceEntity.class);
            Path<String> key = keyOf.apply(i);
            List<Predicate> where = new ArrayList<>(List.of(key.in(chunk.toArray()), current(cb, cq, i)));
            add(where, visible(cb, cq, i.get("series").get("study").get("uid"), v));
            cq.multiselect(key, cb.count(i)).where(where.toArray(Predicate[]::new)).groupBy(key);
            em.createQuery(cq).getResultList().forEach(t -> counts.put(t.get(0, String.class),
                    ((Number) t.get(1)).longValue()));
        });
        return counts;
    }

    /** Of each of {@code series}, how many instances counting its rows gives (none: absent), in chunks. */
    static Map<String, Long> countBySeries(EntityManager em, List<String> series) {
        return countInstances(em, i -> i.get("series").get("uid"), series);
    }

    /** The series of the current file ({@link #current}) of each of {@code sopInstanceUids} that has one. */
    static Map<String, String> currentSeries(EntityManager em, List<String> sopInstanceUids) {
        Map<String, String> series = new HashMap<>();
        forChunks(sopInstanceUids, chunk -> {
            CriteriaBuilder cb = em.getCriteriaBuilder();
            CriteriaQuery<Tuple> cq = cb.createTupleQuery();
            Root<InstanceEntity> i = cq.from(InstanceEntity.class);
            cq.multiselect(i.get("sopInstanceUid"), i.get("series").get("uid"))
                    .where(i.get("sopInstanceUid").in(chunk.toArray()), current(cb, cq, i));
            em.createQuery(cq).getResultList().forEach(t -> series.put(t.get(0, String.class),
                    t.get(1, String.class)));
        });
        return series;
    }

    /** A key's series, the sum of their kept instance counts, and how many of them have one. */
    private record Kept(long series, long instances, long counted) {
        static final Kept NONE = new Kept(0, 0, 0);
    }

    /** Adds rows of (key, series, sum of kept counts, kept counts) to {@code kept}. */
    private static void kept(Map<String, Kept> kept, List<Object[]> rows) {
        for (Object[] row : rows) {
            kept.put((String) row[0], new Kept(((Number) row[1]).longValue(),
                    row[2] == null ? 0 : ((Number) row[2]).longValue(), ((Number) row[3]).longValue()));
        }
    }

    /** The instances of each key: its kept sum, or, where a series of it has no count yet, what {@code count} says. */
    private static Map<String, Long> instances(Map<String, Kept> kept,
            Function<List<String>, Map<String, Long>> count) {
        Map<String, Long> instances = new HashMap<>();
        List<String> uncounted = new ArrayList<>();
        kept.forEach((key, k) -> {
            if (k.counted() == k.series()) {
                instances.put(key, k.instances());
            } else {
                uncounted.add(key);
            }
        });
        if (!uncounted.isEmpty()) {
            instances.putAll(count.apply(uncounted));
        }
        return instances;
    }

    private static String marks(int n) {
        return String.join(", ", java.util.Collections.nCopies(n, "?"));
    }

    /** A caller without a label sees nothing: answered without asking the database. */
    private static boolean seesNothing(DicomQuery<?> query) {
        return query.visibility().nothing();
    }

    /**
     * Whether the study whose UID is {@code studyUid} may be seen under {@code v}: it carries one of v's labels
     * ({@code mj_label}), or it is the one study v shows; null (no condition) when everything may be seen, false
     * when nothing. The labels and the UID are literals, safe as such: {@link Labels} allows letters, digits,
     * {@code _} and {@code -} only, {@link Visibility#study} digits and dots.
     */
    static Predicate visible(CriteriaBuilder cb, AbstractQuery<?> query, Expression<String> studyUid, Visibility v) {
        if (v.all()) {
            return null;
        }
        if (v.studyUid() != null) {
            return cb.equal(studyUid, v.studyUid());
        }
        if (v.nothing()) {
            return cb.disjunction();
        }
        Subquery<String> labelled = query.subquery(String.class);
        Root<LabelEntity> l = labelled.from(LabelEntity.class);
        labelled.select(l.get("label")).where(cb.equal(l.get("studyUid"), studyUid),
                l.get("label").in(v.labelSet().toArray()));
        return cb.exists(labelled);
    }

    /** {@link #visible} as a JPQL condition on {@code studyUid}, starting with {@code and}; "" for everything. */
    static String visibleJpql(String studyUid, Visibility v) {
        if (v.all()) {
            return "";
        }
        if (v.studyUid() != null) {
            return " and " + studyUid + " = '" + v.studyUid() + "'";
        }
        if (v.nothing()) {
            return " and 1 = 0";
        }
        return " and exists (select l.label from LabelEntity l where l.studyUid = " + studyUid + " and l.label in ("
                + v.labelSet().stream().map(label -> "'" + Labels.check(label) + "'")
                        .collect(java.util.stream.Collectors.joining(", ")) + "))";
    }

    /** Runs a "select key, count(...) ... where key in :k group by key" query over {@code keys}, in chunks. */
    private static Map<String, Long> countBy(EntityManager em, String jpql, List<String> keys) {
        Map<String, Long> counts = new HashMap<>();
        forChunks(keys, chunk -> em.createQuery(jpql, Object[].class).setParameter("k", chunk).getResultList()
                .forEach(row -> counts.put((String) row[0], ((Number) row[1]).longValue())));
        return counts;
    }

    static void forChunks(List<String> keys, java.util.function.Consumer<List<String>> action) {
        for (int from = 0; from < keys.size(); from += IN_CHUNK) {
            action.accept(keys.subList(from, Math.min(keys.size(), from + IN_CHUNK)));
        }
    }
}
