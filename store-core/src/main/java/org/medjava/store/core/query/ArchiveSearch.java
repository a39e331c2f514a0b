package org.medjava.store.core.query;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.DicomQuery;
import org.medjava.store.core.index.InstanceQuery;
import org.medjava.store.core.index.InstanceSummary;
import org.medjava.store.core.index.PatientQuery;
import org.medjava.store.core.index.PatientSummary;
import org.medjava.store.core.index.SeriesQuery;
import org.medjava.store.core.index.SeriesSummary;
import org.medjava.store.core.index.StudyQuery;
import org.medjava.store.core.index.StudySummary;
import org.medjava.store.core.index.Visibility;

/**
 * Answers {@link ArchiveQuery archive queries} from the DICOM index, for the C-FIND SCP and QIDO-RS. A query at the
 * series or image level with keys of the levels above is matched level by level (the studies first, then their
 * series, then their instances), so keys of any level above may be combined. An object stored at two paths is one
 * instance (the index answers with its current file: the copy the network stored under {@code dicom/}, else the
 * first by store path), counted and paged as one.
 *
 * @throws IllegalArgumentException from every method when a key is not valid for its attribute
 */
public final class ArchiveSearch {

    private static final int RECENT = 4096;

    private final DicomIndex index;
    /** Instances recently found by their three UIDs, least recently used first. */
    private final LinkedHashMap<String, InstanceSummary> recent = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, InstanceSummary> eldest) {
            return size() > RECENT;
        }
    };

    public ArchiveSearch(DicomIndex index) {
        this.index = index;
    }

    /**
     * The instance with these UIDs: one found recently when {@code current} says it still describes what is stored,
     * else the index's answer. WADO-RS asks for the same instances again and again (a viewer's frames), and the
     * index's query costs far more than checking a file; an entry {@code current} refuses is looked up again.
     */
    public Optional<InstanceSummary> instance(String study, String series, String sop,
                                              Predicate<InstanceSummary> current) {
        return instance(study, series, sop, current, Visibility.everything());
    }

    /**
     * As above, for a caller who may see what {@code visibility} lets them; only a caller who may see everything is
     * answered from the recent instances (a study's labels may have changed since).
     */
    public Optional<InstanceSummary> instance(String study, String series, String sop,
                                              Predicate<InstanceSummary> current, Visibility visibility) {
        if (!visibility.all()) {
            return instances(ArchiveQuery.of(QueryLevel.IMAGE, Map.of("StudyInstanceUID", study,
                    "SeriesInstanceUID", series, "SOPInstanceUID", sop)).visibleTo(visibility)).stream().findFirst();
        }
        String key = study + '\n' + series + '\n' + sop;
        InstanceSummary hit;
        synchronized (recent) {
            hit = recent.get(key);
        }
        if (hit != null && current.test(hit)) {
            return Optional.of(hit);
        }
        List<InstanceSummary> found = instances(ArchiveQuery.of(QueryLevel.IMAGE, Map.of("StudyInstanceUID", study,
                "SeriesInstanceUID", series, "SOPInstanceUID", sop)));
        synchronized (recent) {
            if (found.isEmpty()) {
                recent.remove(key);
            } else {
                recent.put(key, found.get(0));
            }
        }
        return found.stream().findFirst();
    }

    public List<PatientSummary> patients(ArchiveQuery q) {
        return index.patients(paged(apply(PatientQuery.all(), q, QueryLevel.PATIENT.matchableKeywords()), q));
    }

    public List<StudySummary> studies(ArchiveQuery q) {
        return index.studies(paged(apply(StudyQuery.all(), q, QueryLevel.STUDY.matchableKeywords()), q)
                .orderBy(q.orderBy()));
    }

    public List<SeriesSummary> series(ArchiveQuery q) {
        SeriesQuery own = apply(SeriesQuery.all(), q, QueryLevel.SERIES.ownKeywords());
        List<String> studies = parentStudies(q);
        if (studies == null) {
            return index.series(null, paged(own, q));
        }
        return collect(studies, q, uid -> index.series(uid, own));
    }

    public List<InstanceSummary> instances(ArchiveQuery q) {
        InstanceQuery own = apply(InstanceQuery.all(), q, QueryLevel.IMAGE.ownKeywords());
        List<String> series = parentSeries(q);
        return series == null ? index.instances(null, paged(own, q))
                : collect(series, q, uid -> index.instances(uid, own));
    }

    /** The studies the keys above the series level select, or null when they select every study. */
    private List<String> parentStudies(ArchiveQuery q) {
        Map<String, String> upper = q.keysIn(QueryLevel.STUDY.matchableKeywords());
        if (upper.isEmpty()) {
            return null;
        }
        String uids = upper.get("StudyInstanceUID");
        if (upper.size() == 1 && uids != null && !uids.contains("*") && !uids.contains("?")
                && q.visibility().all()) { // a caller who may not see everything gets the index's answer
            apply(StudyQuery.all(), q, upper.keySet()); // validates the key
            return List.of(uids.trim().split("\\s*\\\\\\s*"));
        }
        return index.studies(apply(StudyQuery.all(), q, upper.keySet())).stream()
                .map(StudySummary::studyInstanceUid).toList();
    }

    /** The series the keys above the image level select, or null when they select every series. */
    private List<String> parentSeries(ArchiveQuery q) {
        Map<String, String> seriesKeys = q.keysIn(QueryLevel.SERIES.ownKeywords());
        List<String> studies = parentStudies(q);
        if (seriesKeys.isEmpty() && studies == null) {
            return null;
        }
        return series(new ArchiveQuery(QueryLevel.SERIES, q.keys(), q.fuzzy(), 0, 0).visibleTo(q.visibility())).stream()
                .map(SeriesSummary::seriesInstanceUid).toList();
    }

    /** Runs one query per parent and pages the concatenation. */
    private static <T> List<T> collect(List<String> parents, ArchiveQuery q, Function<String, List<T>> perParent) {
        List<T> all = new ArrayList<>();
        long wanted = q.limit() == 0 ? Long.MAX_VALUE : (long) q.offset() + q.limit();
        for (String parent : parents) {
            all.addAll(perParent.apply(parent));
            if (all.size() >= wanted) {
                break;
            }
        }
        int from = Math.min(q.offset(), all.size());
        int to = (int) Math.min(all.size(), wanted);
        return all.subList(from, to);
    }

    private static <Q extends DicomQuery<Q>> Q apply(Q query, ArchiveQuery q, java.util.Set<String> keywords) {
        Q result = query.fuzzyNames(q.fuzzy()).visibleTo(q.visibility());
        for (Map.Entry<String, String> key : q.keysIn(keywords).entrySet()) {
            result = result.with(key.getKey(), key.getValue());
        }
        return result;
    }

    private static <Q extends DicomQuery<Q>> Q paged(Q query, ArchiveQuery q) {
        return query.offset(q.offset()).limit(q.limit());
    }
}
