package org.medjava.store.core.index;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityTransaction;
import jakarta.persistence.Query;
import java.sql.Blob;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * Series and study metadata made ready ({@code mj_ready_metadata}, {@link ReadyMetadata}): a table of the index
 * rather than files next to it, so that a cluster's nodes share one copy and a write's invalidation is seen by all
 * of them at once, and a backup or restore of the index keeps it consistent with the rest. A row is current while
 * its {@code change_seq} is still the newest change of its series or study in the change feed, which every write
 * appends to in its own transaction (see {@link ChangeLog}); a row that is not is never served, and the writes
 * delete the rows they outdate. Plain SQL: the bytes are a BLOB on H2 (whose VARBINARY stops at 1 MiB), bytea on
 * PostgreSQL.
 */
final class ReadyMetadataTable {
    /** The longest public base a row is kept for (a longer one is answered without keeping what it made). */
    static final int BASE = 512;
    private static final String COLUMNS = "level, uid, base_url, study_uid, patient_id, instances, change_seq,"
            + " json_length, json_gzip";

    static final String PROBE = "SELECT " + COLUMNS + " FROM mj_ready_metadata WHERE 1 = 0";

    private ReadyMetadataTable() {
    }

    /** The table, and the change feed's indexes that find a series' or a study's newest change at once. */
    static String[] ddl(boolean postgres) {
        return new String[] {
            "create table if not exists mj_ready_metadata (level varchar(8) not null, uid varchar(" + ParsedInstance.UI
                    + ") not null, base_url varchar(" + BASE + ") not null, study_uid varchar(" + ParsedInstance.UI
                    + ") not null, patient_id varchar(256), instances int not null, change_seq bigint not null,"
                    + " json_length bigint not null, json_gzip " + (postgres ? "bytea" : "blob") + " not null,"
                    + " primary key (level, uid, base_url))",
            "create index if not exists mj_ready_metadata_uid on mj_ready_metadata (uid)",
            "create index if not exists mj_change_series on mj_change (series_uid, seq)",
            "create index if not exists mj_change_study on mj_change (study_uid, seq)"};
    }

    /** The newest change of a series or a study (0 when it has none); a routing changes nothing it holds. */
    static long version(EntityManager em, ReadyMetadata.Level level, String uid) {
        Object max = em.createNativeQuery("select max(seq) from mj_change where "
                + (level == ReadyMetadata.Level.SERIES ? "series_uid" : "study_uid") + " = ? and kind <> ?")
                .setParameter(1, uid).setParameter(2, Change.ROUTED).getSingleResult();
        return max == null ? 0 : ((Number) max).longValue();
    }

    /** The row kept for {@code uid} and {@code base}, when it is still current. */
    static Optional<ReadyMetadata> current(EntityManager em, ReadyMetadata.Level level, String uid, String base) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = em.createNativeQuery("select " + COLUMNS + " from mj_ready_metadata"
                + " where level = ? and uid = ? and base_url = ?").setParameter(1, level.name())
                .setParameter(2, uid).setParameter(3, base).getResultList();
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        Object[] r = rows.get(0);
        long seq = ((Number) r[6]).longValue();
        if (seq != version(em, level, uid)) {
            return Optional.empty();
        }
        return Optional.of(new ReadyMetadata(level, uid, (String) r[3], (String) r[4], ((Number) r[5]).intValue(),
                seq, ((Number) r[7]).longValue(), bytes(r[8])));
    }

    /**
     * Keeps {@code made} for {@code base} in place of what was kept. A concurrent keeper of the same row wins
     * (the primary key refuses the second insert): what either made is as current as the other.
     */
    static void keep(EntityManager em, ReadyMetadata made, String base) {
        EntityTransaction tx = em.getTransaction();
        tx.begin();
        try {
            em.createNativeQuery("delete from mj_ready_metadata where level = ? and uid = ? and base_url = ?")
                    .setParameter(1, made.level().name()).setParameter(2, made.uid()).setParameter(3, base)
                    .executeUpdate();
            Query insert = em.createNativeQuery("insert into mj_ready_metadata (" + COLUMNS
                    + ") values (?, ?, ?, ?, ?, ?, ?, ?, ?)");
            Object[] values = {made.level().name(), made.uid(), base, made.studyUid(), made.patientId(),
                made.instances(), made.version(), made.jsonLength(), made.gzip()};
            for (int i = 0; i < values.length; i++) {
                insert.setParameter(i + 1, values[i]);
            }
            insert.executeUpdate();
            tx.commit();
        } finally {
            if (tx.isActive()) {
                tx.rollback();
            }
        }
    }

    /**
     * Deletes, in the caller's (writing) transaction, the rows of every series and study that a change numbered
     * after {@code since} names: they are no longer current.
     */
    static void forgetChangedAfter(EntityManager em, long since) {
        em.createNativeQuery("delete from mj_ready_metadata where uid in (select c.series_uid from mj_change c"
                + " where c.seq > ? and c.series_uid is not null) or uid in (select c.study_uid from mj_change c"
                + " where c.seq > ? and c.study_uid is not null)").setParameter(1, since).setParameter(2, since)
                .executeUpdate();
    }

    /**
     * Deletes, in the caller's (writing) transaction, the rows of these series and studies: those an overwritten
     * instance left (its change names where it is now). A reader that made one of them before and keeps it after
     * this write may keep it outdated until the series' next change: only an object overwritten in place by one
     * of another series meets that.
     */
    static void forget(EntityManager em, java.util.Collection<String> uids) {
        for (String uid : uids) {
            em.createNativeQuery("delete from mj_ready_metadata where uid = ?").setParameter(1, uid).executeUpdate();
        }
    }

    private static byte[] bytes(Object value) {
        if (value instanceof byte[] b) {
            return b;
        }
        try {
            Blob blob = (Blob) value;
            return blob.getBytes(1, (int) blob.length());
        } catch (SQLException e) {
            throw new IndexException("cannot read ready metadata: " + e.getMessage(), e);
        }
    }
}
