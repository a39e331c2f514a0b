package org.medjava.store.core.index;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityTransaction;
import jakarta.persistence.PersistenceException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Labels on studies ({@code mj_label}, {@link LabelEntity}): added and removed one at a time, each in its own short
 * transaction outside the index's writer lock (a label never waits for an ingest). Adding a label a study has, or
 * removing one it has not, changes nothing and says so.
 */
final class IndexLabels {
    private static final int IN_CHUNK = 500;

    private IndexLabels() {
    }

    /** Adds the label; whether the study did not have it yet. */
    static boolean add(EntityManager em, String studyUid, String label) {
        Labels.check(label);
        if (em.find(LabelEntity.class, new LabelEntity.Key(studyUid, label)) != null) {
            return false;
        }
        EntityTransaction tx = em.getTransaction();
        tx.begin();
        try {
            em.persist(new LabelEntity(studyUid, label));
            tx.commit();
            return true;
        } catch (PersistenceException e) { // another request added it meanwhile: the key says so
            if (tx.isActive()) {
                tx.rollback();
            }
            em.clear();
            if (em.find(LabelEntity.class, new LabelEntity.Key(studyUid, label)) != null) {
                return false;
            }
            throw e;
        } finally {
            if (tx.isActive()) {
                tx.rollback();
            }
        }
    }

    /** Removes the label; whether the study had it. */
    static boolean remove(EntityManager em, String studyUid, String label) {
        EntityTransaction tx = em.getTransaction();
        tx.begin();
        try {
            int removed = em.createQuery("delete from LabelEntity l where l.studyUid = :s and l.label = :l")
                    .setParameter("s", studyUid).setParameter("l", label).executeUpdate();
            tx.commit();
            return removed > 0;
        } finally {
            if (tx.isActive()) {
                tx.rollback();
            }
        }
    }

    /** The labels of each of {@code studyUids} that has any, sorted. */
    static Map<String, Set<String>> of(EntityManager em, Collection<String> studyUids) {
        List<String> uids = List.copyOf(studyUids);
        Map<String, Set<String>> labels = new TreeMap<>();
        for (int from = 0; from < uids.size(); from += IN_CHUNK) {
            em.createQuery("select l.studyUid, l.label from LabelEntity l where l.studyUid in :k", Object[].class)
                    .setParameter("k", uids.subList(from, Math.min(uids.size(), from + IN_CHUNK))).getResultList()
                    .forEach(row -> labels.computeIfAbsent((String) row[0], k -> new TreeSet<>())
                            .add((String) row[1]));
        }
        return labels;
    }

    /** Every label in use, with how many studies carry it. */
    static Map<String, Long> counts(EntityManager em) {
        Map<String, Long> counts = new TreeMap<>();
        em.createQuery("select l.label, count(l) from LabelEntity l group by l.label", Object[].class)
                .getResultList().forEach(row -> counts.put((String) row[0], ((Number) row[1]).longValue()));
        return counts;
    }
}
