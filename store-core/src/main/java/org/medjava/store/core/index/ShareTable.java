package org.medjava.store.core.index;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityTransaction;
import jakarta.persistence.Query;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Share links ({@code mj_share}, {@link Share}): in the index database so that a revocation holds on every node of
 * a cluster and across restarts; ended ones are kept, as the history of who shared what. Plain SQL, like the audit table: a handful of statements, no entity graph.
 */
final class ShareTable {
    static final int USER = 256;
    static final int NOTE = 256;
    static final String[] DDL = {
        "create table if not exists mj_share (id varchar(64) primary key, study_uid varchar(" + ParsedInstance.UI
                + ") not null, created_by varchar(" + USER + ") not null, created_ms bigint not null,"
                + " expires_ms bigint not null, revoked_ms bigint, revoked_by varchar(" + USER + "),"
                + " note varchar(" + NOTE + "), opens bigint default 0 not null, opened_ms bigint)",
        "create index if not exists mj_share_study on mj_share (study_uid)"};
    static final String PROBE = "SELECT id, study_uid, created_by, created_ms, expires_ms, revoked_ms, revoked_by,"
            + " note, opens, opened_ms FROM mj_share WHERE 1 = 0";
    private static final String COLUMNS = "id, study_uid, created_by, created_ms, expires_ms, revoked_ms, revoked_by,"
            + " note, opens, opened_ms";

    private ShareTable() {
    }

    static void insert(EntityManager em, Share s) {
        if (s.createdBy().length() > USER || s.note().length() > NOTE) {
            throw new IllegalArgumentException("a share's maker is at most " + USER + " and its note " + NOTE
                    + " characters long");
        }
        update(em, "insert into mj_share (id, study_uid, created_by, created_ms, expires_ms, note, opens)"
                + " values (?, ?, ?, ?, ?, ?, 0)", s.id(), s.studyUid(), s.createdBy(), s.created().toEpochMilli(),
                s.expires().toEpochMilli(), s.note());
    }

    static Optional<Share> find(EntityManager em, String id) {
        return select(em, " where id = ?", 1, id).stream().findFirst();
    }

    /** Newest first; a null study or maker is no condition. */
    static List<Share> list(EntityManager em, String studyUid, String createdBy, int limit) {
        StringBuilder where = new StringBuilder(" where 1 = 1");
        List<Object> values = new ArrayList<>();
        if (studyUid != null) {
            where.append(" and study_uid = ?");
            values.add(studyUid);
        }
        if (createdBy != null) {
            where.append(" and created_by = ?");
            values.add(createdBy);
        }
        where.append(" order by created_ms desc, id");
        return select(em, where.toString(), limit, values.toArray());
    }

    /** Whether it was live and is now revoked. */
    static boolean revoke(EntityManager em, String id, String by, Instant at) {
        return update(em, "update mj_share set revoked_ms = ?, revoked_by = ? where id = ? and revoked_ms is null"
                + " and expires_ms > ?", at.toEpochMilli(), by.length() > USER ? by.substring(0, USER) : by, id,
                at.toEpochMilli()) > 0;
    }

    static void opened(EntityManager em, String id, Instant at) {
        update(em, "update mj_share set opens = opens + 1, opened_ms = ? where id = ?", at.toEpochMilli(), id);
    }

    private static int update(EntityManager em, String sql, Object... values) {
        EntityTransaction tx = em.getTransaction();
        tx.begin();
        try {
            Query q = em.createNativeQuery(sql);
            for (int i = 0; i < values.length; i++) {
                q.setParameter(i + 1, values[i]);
            }
            int n = q.executeUpdate();
            tx.commit();
            return n;
        } finally {
            if (tx.isActive()) {
                tx.rollback();
            }
        }
    }

    private static List<Share> select(EntityManager em, String where, int limit, Object... values) {
        Query q = em.createNativeQuery("select " + COLUMNS + " from mj_share" + where);
        for (int i = 0; i < values.length; i++) {
            q.setParameter(i + 1, values[i]);
        }
        Function<Object, Instant> instant = v -> v == null ? null : Instant.ofEpochMilli(((Number) v).longValue());
        List<Share> shares = new ArrayList<>();
        for (Object row : q.setMaxResults(limit).getResultList()) {
            Object[] r = (Object[]) row;
            shares.add(new Share((String) r[0], (String) r[1], (String) r[2], instant.apply(r[3]),
                    instant.apply(r[4]), instant.apply(r[5]), (String) r[6], r[7] == null ? "" : (String) r[7],
                    ((Number) r[8]).longValue(), instant.apply(r[9])));
        }
        return shares;
    }
}
