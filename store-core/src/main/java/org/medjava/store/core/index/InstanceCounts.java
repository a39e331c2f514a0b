package org.medjava.store.core.index;

import jakarta.persistence.EntityManager;
import jakarta.persistence.Query;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * NumberOfSeriesRelatedInstances kept in {@code mj_series.instance_count} by every write of instance rows, in its
 * transaction, so that study, series and patient queries read counts instead of counting rows: the number of the
 * series' rows that are the current file of their SOP Instance UID ({@link IndexQueries#current}), i.e. exactly what
 * counting would give. A study's count is the sum over its series, a patient's over the series of the studies the
 * caller may see. Null means not counted yet (a row from before the column, or a series a node of an older version
 * created): the queries count those, and {@link #backfill} fills them in when the index opens.
 *
 * <p>A write that changes the rows of a few SOP Instance UIDs (a put, a removal, an overwrite that moves an instance)
 * adds the difference: before it writes, which series holds the current file of each UID; after, which does now; −1
 * and +1 where they differ ({@code instance_count = instance_count + ?}, so writes of different UIDs into one series
 * commute). Not a recount of the series: that costs the series' size on every put, and counting what one transaction
 * sees would miss another node's uncommitted instance just the same. What makes it exact between nodes on
 * PostgreSQL is the locking: the write holds a transaction lock on each UID (no other writer of that UID reads its
 * "before" until this one commits) and the shared side of a counting lock. A write of many rows (a deletion into the
 * trash, a directory removed, more than {@value #MOST_UID_LOCKS} UIDs) takes the counting lock exclusively instead,
 * and recounts the series it touched after its change: no other counted write is in flight then. On H2 (one process)
 * the index's writer lock already runs the writes one at a time.
 */
final class InstanceCounts {
    /** More UIDs than this in one write: recounted under the exclusive lock rather than locked one by one. */
    static final int MOST_UID_LOCKS = 64;
    /** The counting lock (a key no other MedJava lock uses: "mjcount"). */
    private static final long COUNT_LOCK = 0x6D6A636F756E74L;
    /** The first key of the per-UID locks (the second: the UID's hash): "mjic". */
    private static final int UID_LOCK = 0x6d6a6963;

    private static final System.Logger LOG = System.getLogger(DicomIndex.class.getName());

    private final boolean postgres;

    InstanceCounts(IndexDatabase database) {
        this.postgres = database.isPostgres();
    }

    /** A write in progress: {@link #after} once its rows are changed, before the change feed is appended. */
    interface Pending {
        void after(EntityManager em);
    }

    /**
     * Call before a write changes any instance row of the SOP Instance UIDs {@code uids} (those it writes, and those
     * of the rows it overwrites or removes).
     */
    Pending touching(EntityManager em, Collection<String> uids) {
        Set<String> touched = new TreeSet<>();
        uids.stream().filter(Objects::nonNull).forEach(touched::add);
        if (touched.isEmpty()) {
            return e -> { };
        }
        if (touched.size() > MOST_UID_LOCKS) {
            lockAll(em);
            Set<String> series = new TreeSet<>(seriesHolding(em, touched));
            return e -> {
                e.flush();
                series.addAll(seriesHolding(e, touched));
                recount(e, series);
            };
        }
        lockShared(em, touched);
        Map<String, String> before = currentSeries(em, touched);
        return e -> {
            e.flush();
            Map<String, String> after = currentSeries(e, touched);
            Map<String, Long> delta = new TreeMap<>(); // in order: two writers lock their series alike
            for (String uid : touched) {
                String was = before.get(uid);
                String is = after.get(uid);
                if (!Objects.equals(was, is)) {
                    if (was != null) {
                        delta.merge(was, -1L, Long::sum);
                    }
                    if (is != null) {
                        delta.merge(is, 1L, Long::sum);
                    }
                }
            }
            delta.forEach((series, d) -> {
                if (d != 0) {
                    e.createNativeQuery("update mj_series set instance_count = instance_count + ? where series_uid = ?")
                            .setParameter(1, d).setParameter(2, series).executeUpdate();
                }
            });
        };
    }

    /**
     * Call before a write removes the instance rows that {@code where} selects (an SQL condition on
     * {@code mj_instance i} joined with {@code mj_series s}, its parameters numbered from 1): it takes the counting
     * lock exclusively, notes the series that hold a row of any of their SOP Instance UIDs, and recounts those after.
     */
    Pending removing(EntityManager em, String where, List<Object> parameters) {
        lockAll(em);
        Query q = em.createNativeQuery("select distinct o.series_uid from mj_instance o where o.sop_instance_uid in"
                + " (select i.sop_instance_uid from mj_instance i join mj_series s on s.series_uid = i.series_uid"
                + " where " + where + ")");
        for (int p = 0; p < parameters.size(); p++) {
            q.setParameter(p + 1, parameters.get(p));
        }
        Set<String> series = new TreeSet<>();
        for (Object uid : q.getResultList()) {
            series.add((String) uid);
        }
        return e -> {
            e.flush();
            recount(e, series);
        };
    }

    /** Call before a write that empties the index: nothing is left to count, but no counted write may run along. */
    void emptying(EntityManager em) {
        lockAll(em);
    }

    /**
     * Counts the series whose count is null, {@code chunk} at a time, each chunk in a write of its own.
     *
     * @return how many series were counted
     */
    int backfill(IndexSession session, int chunk) {
        int counted = 0;
        for (int n; ; counted += n) {
            n = session.write("counting the instances of series", em -> {
                lockAll(em);
                @SuppressWarnings("unchecked")
                List<String> uncounted = em.createNativeQuery("select series_uid from mj_series"
                        + " where instance_count is null order by series_uid").setMaxResults(chunk).getResultList();
                recount(em, uncounted);
                return uncounted.size();
            });
            if (n < chunk) {
                if (counted + n > 0) {
                    LOG.log(System.Logger.Level.INFO, "counted the instances of {0} series (kept from now on)",
                            counted + n);
                }
                return counted + n;
            }
        }
    }

    /** Sets the count of each of {@code series} that still exists to what counting its rows gives. */
    static void recount(EntityManager em, Collection<String> series) {
        List<String> list = new ArrayList<>(new TreeSet<>(series));
        Map<String, Long> counted = IndexQueries.countBySeries(em, list);
        for (String uid : list) {
            em.createNativeQuery("update mj_series set instance_count = ? where series_uid = ?")
                    .setParameter(1, counted.getOrDefault(uid, 0L)).setParameter(2, uid).executeUpdate();
        }
    }

    /** The series that hold a row of any of {@code uids}. */
    private static List<String> seriesHolding(EntityManager em, Set<String> uids) {
        List<String> series = new ArrayList<>();
        IndexQueries.forChunks(List.copyOf(uids), chunk -> series.addAll(em.createQuery("select distinct"
                + " i.series.uid from InstanceEntity i where i.sopInstanceUid in :k", String.class)
                .setParameter("k", chunk).getResultList()));
        return series;
    }

    /**
     * The series of the current file of each of {@code uids} that has one: from their rows, here, where one row is
     * the only one of a UID or its only network copy (a put of a new instance); by the rule's own query where files
     * of one kind compete, since the database's order of their paths decides ({@link IndexQueries#current}).
     */
    private static Map<String, String> currentSeries(EntityManager em, Set<String> uids) {
        Map<String, List<String[]>> rows = new HashMap<>();
        IndexQueries.forChunks(List.copyOf(uids), chunk -> {
            // by the SOP Instance UID's index alone (JPQL's i.series.uid joins the series, a plan 10 times slower)
            Query q = em.createNativeQuery("select sop_instance_uid, store_path, series_uid from mj_instance"
                    + " where sop_instance_uid in (" + String.join(", ", java.util.Collections.nCopies(chunk.size(),
                    "?")) + ")");
            for (int n = 0; n < chunk.size(); n++) {
                q.setParameter(n + 1, chunk.get(n));
            }
            @SuppressWarnings("unchecked")
            List<Object[]> found = q.getResultList();
            found.forEach(r -> rows.computeIfAbsent((String) r[0], k -> new ArrayList<>())
                    .add(new String[] {(String) r[1], (String) r[2]}));
        });
        Map<String, String> current = new HashMap<>();
        List<String> competing = new ArrayList<>();
        rows.forEach((uid, files) -> {
            List<String[]> network = files.stream().filter(f -> f[0].startsWith(IndexQueries.NETWORK_ROOT)).toList();
            List<String[]> candidates = network.isEmpty() ? files : network;
            if (candidates.size() == 1) {
                current.put(uid, candidates.get(0)[1]);
            } else {
                competing.add(uid);
            }
        });
        current.putAll(IndexQueries.currentSeries(em, competing));
        return current;
    }

    /**
     * The shared side of the counting lock, then the lock of each UID, in the order of their keys (no deadlock), in
     * one statement: its filter takes the shared lock for each row before the row's own lock is taken.
     */
    private void lockShared(EntityManager em, Set<String> uids) {
        if (!postgres) {
            return;
        }
        int[] keys = uids.stream().mapToInt(String::hashCode).distinct().sorted().toArray();
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < keys.length; i++) {
            values.append(i == 0 ? "(?)" : ", (?)");
        }
        // and plans made for each statement's values in this transaction: the lookups by SOP Instance UID that
        // follow would otherwise keep a generic plan made while the table was small (a scan of every row,
        // until autovacuum's first ANALYZE: ingest into a new index fell to half)
        Query q = em.createNativeQuery("select count(pg_advisory_xact_lock(" + UID_LOCK + ", v.k)),"
                + " max(set_config('plan_cache_mode', 'force_custom_plan', true)) from (values " + values + ") v(k)"
                + " where cast(pg_advisory_xact_lock_shared(" + COUNT_LOCK + ") as text) is not null");
        for (int i = 0; i < keys.length; i++) {
            q.setParameter(i + 1, keys[i]);
        }
        q.getResultList();
    }

    /** The counting lock, exclusively: no counted write of another transaction runs until this one ends. */
    private void lockAll(EntityManager em) {
        if (postgres) {
            em.createNativeQuery("select cast(pg_advisory_xact_lock(" + COUNT_LOCK + ") as text)").getSingleResult();
        }
    }
}
