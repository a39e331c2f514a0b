package org.medjava.store.core.index;

import jakarta.persistence.EntityManager;
import jakarta.persistence.Query;
import java.io.IOException;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The trash's side of the index ({@code mj_trash}): a deletion moves the instance rows it names out of
 * {@code mj_instance} into the trash and records them in the change feed, in one transaction of a few statements
 * whatever the number of instances; a restore indexes a file again from its stored bytes; a purge forgets it.
 * See {@link DicomIndex#trash}.
 */
final class IndexTrash {
    private static final String FROM_SCOPE = " from mj_instance i join mj_series s on s.series_uid = i.series_uid"
            + " where ";

    private final IndexSession session;
    private final IndexWriter writer;
    private final IndexRebuild rebuild;
    private final ChangeLog changes;
    private final InstanceCounts counts;

    IndexTrash(IndexSession session, IndexWriter writer, IndexRebuild rebuild, ChangeLog changes,
            InstanceCounts counts) {
        this.session = session;
        this.writer = writer;
        this.rebuild = rebuild;
        this.changes = changes;
        this.counts = counts;
    }

    /** How many files (instance rows) {@code scope} names now. */
    long count(TrashScope scope) {
        return session.read("counting " + scope, em -> {
            Query q = em.createNativeQuery("select count(*)" + FROM_SCOPE + scope.where());
            bind(q, 1, scope.parameters());
            return ((Number) q.getSingleResult()).longValue();
        });
    }

    Trashed trash(TrashScope scope, String trashId, String by, String reason, Instant now, Instant purgeAfter,
            String kind) {
        int moved = session.write("moving " + scope + " to the trash", em -> {
            InstanceCounts.Pending counting = counts.removing(em, scope.where(), scope.parameters());
            List<String> series = seriesOf(em, scope);
            if (series.isEmpty()) {
                return 0;
            }
            // a file written at a trashed path since is indexed again; its trashed predecessor is gone for good
            Query superseded = em.createNativeQuery("delete from mj_trash where store_path in (select i.store_path"
                    + FROM_SCOPE + scope.where() + ")");
            bind(superseded, 1, scope.parameters());
            superseded.executeUpdate();
            Query insert = em.createNativeQuery("insert into mj_trash (store_path, trash_id, trash_level, study_uid,"
                    + " series_uid, sop_instance_uid, file_size, last_modified_ms, trashed_at_ms, purge_after_ms,"
                    + " trashed_by, reason) select i.store_path, ?, ?, s.study_uid, i.series_uid,"
                    + " i.sop_instance_uid, i.file_size, i.last_modified_ms, ?, ?, ?, ?" + FROM_SCOPE
                    + scope.where());
            insert.setParameter(1, trashId).setParameter(2, scope.level()).setParameter(3, now.toEpochMilli())
                    .setParameter(4, purgeAfter.toEpochMilli()).setParameter(5, by).setParameter(6, reason);
            bind(insert, 7, scope.parameters());
            int n = insert.executeUpdate();
            changes.appendInstances(em, kind, trashId, scope.where(), scope.parameters());
            Query delete = em.createNativeQuery("delete from mj_instance where " + scope.instanceWhere());
            bind(delete, 1, scope.parameters());
            delete.executeUpdate();
            counting.after(em);
            IndexWriter.prune(em, new HashSet<>(series), Set.of(), Set.of());
            return n;
        });
        return new Trashed(trashId, scope, moved, purgeAfter);
    }

    /**
     * See {@link DicomIndex#hold}: one row in {@code mj_trash} and one "deleted" change for {@code file}, and the
     * instance row at its path out of the index when there is one, in one transaction.
     */
    void hold(TrashedFile file) {
        session.write("keeping " + file.path() + " in the trash", em -> {
            em.createQuery("delete from TrashEntity t where t.path = :p").setParameter("p", file.path())
                    .executeUpdate();
            em.createNativeQuery("insert into mj_trash (store_path, trash_id, trash_level, study_uid, series_uid,"
                    + " sop_instance_uid, file_size, last_modified_ms, trashed_at_ms, purge_after_ms, trashed_by,"
                    + " reason) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)").setParameter(1, file.path())
                    .setParameter(2, file.trashId()).setParameter(3, file.level())
                    .setParameter(4, file.studyInstanceUid()).setParameter(5, file.seriesInstanceUid())
                    .setParameter(6, file.sopInstanceUid()).setParameter(7, file.size())
                    .setParameter(8, file.lastModified()).setParameter(9, file.trashedAt().toEpochMilli())
                    .setParameter(10, file.purgeAfter().toEpochMilli()).setParameter(11, file.trashedBy())
                    .setParameter(12, file.reason()).executeUpdate();
            List<Object[]> held = em.createQuery("select i.series.uid, i.sopInstanceUid from InstanceEntity i"
                    + " where i.path = :p", Object[].class).setParameter("p", file.path()).getResultList();
            if (!held.isEmpty()) { // its metadata stay until the purge, as a deletion's do
                List<String> series = held.stream().map(r -> (String) r[0]).toList();
                InstanceCounts.Pending counting = counts.touching(em, held.stream().map(r -> (String) r[1]).toList());
                em.createQuery("delete from InstanceEntity i where i.path = :p").setParameter("p", file.path())
                        .executeUpdate();
                counting.after(em);
                IndexWriter.prune(em, new HashSet<>(series), Set.of(), Set.of());
            }
            changes.append(em, List.of(new ChangeLog.Entry(Change.DELETED, file.trashedAt().toEpochMilli(),
                    file.studyInstanceUid(), file.seriesInstanceUid(), file.sopInstanceUid(), file.path(),
                    file.trashId())));
            return null;
        });
    }

    /** The deletions in the trash that took files of the study (not the previous versions a correction keeps). */
    @SuppressWarnings("unchecked")
    List<String> deletionsOf(String studyInstanceUid) {
        return session.read("reading the trash", em -> (List<String>) em.createNativeQuery("select distinct trash_id"
                + " from mj_trash where study_uid = ? and trash_level <> ?").setParameter(1, studyInstanceUid)
                .setParameter(2, TrashedFile.VERSION).getResultList());
    }

    @SuppressWarnings("unchecked")
    private static List<String> seriesOf(EntityManager em, TrashScope scope) {
        Query q = em.createNativeQuery("select distinct i.series_uid" + FROM_SCOPE + scope.where());
        bind(q, 1, scope.parameters());
        return (List<String>) q.getResultList();
    }

    /** The files of one deletion ({@code trashId}), or of every one (null), oldest deletion first. */
    List<TrashedFile> list(String trashId, int limit) {
        return session.read("listing the trash", em -> {
            var q = em.createQuery("select t from TrashEntity t" + (trashId == null ? "" : " where t.trashId = :id")
                    + " order by t.trashedAt, t.trashId, t.path", TrashEntity.class).setMaxResults(limit);
            if (trashId != null) {
                q.setParameter("id", trashId);
            }
            return q.getResultList().stream().map(IndexTrash::file).toList();
        });
    }

    /** Files whose grace period ended by {@code now}, the earliest first. */
    List<TrashedFile> due(Instant now, int limit) {
        return session.read("listing the trash due for purging", em -> em.createQuery("select t from TrashEntity t"
                + " where t.purgeAfter <= :now order by t.purgeAfter, t.path", TrashEntity.class)
                .setParameter("now", now.toEpochMilli()).setMaxResults(limit).getResultList().stream()
                .map(IndexTrash::file).toList());
    }

    /** Every trashed path with the size and modification time of the file it was. */
    Map<String, long[]> marks() {
        return session.read("reading the trash", IndexTrash::marks);
    }

    static Map<String, long[]> marks(EntityManager em) {
        Map<String, long[]> marks = new HashMap<>();
        for (Object[] row : em.createQuery("select t.path, t.fileSize, t.lastModified from TrashEntity t",
                Object[].class).getResultList()) {
            marks.put((String) row[0], new long[] {((Number) row[1]).longValue(), ((Number) row[2]).longValue()});
        }
        return marks;
    }

    /**
     * Indexes {@code file} again from what the storage holds at its path, and takes it out of the trash. The caller
     * holds the path's lock and has checked that the stored file is still the trashed one.
     *
     * @return whether it was indexed (false: it no longer parses, and it stays in the trash)
     */
    boolean restore(org.medjava.store.core.storage.ObjectStorage storage, TrashedFile file) throws IOException {
        ParsedInstance parsed = rebuild.parseStored(storage, file.path());
        if (parsed == null) {
            return false;
        }
        session.write("restoring " + file.path(), em -> {
            writer.upsertAll(em, List.of(new IndexWriter.PendingPut(file.path(), parsed, Change.RESTORED,
                    file.trashId())));
            return em.createQuery("delete from TrashEntity t where t.path = :p").setParameter("p", file.path())
                    .executeUpdate();
        });
        return true;
    }

    /** Takes {@code file} out of the trash for good (its bytes are gone, or are another file's now). */
    boolean purged(TrashedFile file) {
        return session.write("purging " + file.path(), em -> {
            int n = em.createQuery("delete from TrashEntity t where t.path = :p and t.trashId = :id")
                    .setParameter("p", file.path()).setParameter("id", file.trashId()).executeUpdate();
            if (n > 0) {
                // its metadata, unless a file indexed at its path since has it now
                em.createNativeQuery("delete from mj_metadata where store_path = ? and not exists (select 1 from"
                        + " mj_instance where store_path = ?)").setParameter(1, file.path())
                        .setParameter(2, file.path()).executeUpdate();
                changes.append(em, List.of(new ChangeLog.Entry(Change.PURGED, System.currentTimeMillis(),
                        file.studyInstanceUid(), file.seriesInstanceUid(), file.sopInstanceUid(), file.path(),
                        file.trashId())));
            }
            return n > 0;
        });
    }

    private static TrashedFile file(TrashEntity t) {
        return new TrashedFile(t.path, t.trashId, t.level, t.studyUid, t.seriesUid, t.sopInstanceUid, t.fileSize,
                t.lastModified, Instant.ofEpochMilli(t.trashedAt), Instant.ofEpochMilli(t.purgeAfter), t.trashedBy,
                t.reason);
    }

    private static void bind(Query q, int first, List<Object> parameters) {
        for (int p = 0; p < parameters.size(); p++) {
            q.setParameter(first + p, parameters.get(p));
        }
    }
}
