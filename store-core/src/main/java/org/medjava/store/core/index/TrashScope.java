package org.medjava.store.core.index;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a deletion names: a study, a series of a study, or an instance of a series of a study (as DICOMweb paths
 * do). Each UID is checked to be a UID (digits and dots) before it reaches a query.
 */
public record TrashScope(String studyInstanceUid, String seriesInstanceUid, String sopInstanceUid) {

    public TrashScope {
        Objects.requireNonNull(studyInstanceUid, "studyInstanceUid");
        if (seriesInstanceUid == null && sopInstanceUid != null) {
            throw new IllegalArgumentException("an instance is named within its series");
        }
        for (String uid : new String[] {studyInstanceUid, seriesInstanceUid, sopInstanceUid}) {
            if (uid != null && !uid.matches("[0-9]+(\\.[0-9]+)*") || uid != null && uid.length() > 64) {
                throw new IllegalArgumentException("not a DICOM UID: " + uid);
            }
        }
    }

    public static TrashScope study(String studyInstanceUid) {
        return new TrashScope(studyInstanceUid, null, null);
    }

    public static TrashScope series(String studyInstanceUid, String seriesInstanceUid) {
        return new TrashScope(studyInstanceUid, Objects.requireNonNull(seriesInstanceUid), null);
    }

    public static TrashScope instance(String studyInstanceUid, String seriesInstanceUid, String sopInstanceUid) {
        return new TrashScope(studyInstanceUid, Objects.requireNonNull(seriesInstanceUid),
                Objects.requireNonNull(sopInstanceUid));
    }

    /** STUDY, SERIES or INSTANCE. */
    public String level() {
        return sopInstanceUid != null ? "INSTANCE" : seriesInstanceUid != null ? "SERIES" : "STUDY";
    }

    @Override
    public String toString() {
        return level().toLowerCase(java.util.Locale.ROOT) + " " + (sopInstanceUid != null ? sopInstanceUid
                : seriesInstanceUid != null ? seriesInstanceUid : studyInstanceUid);
    }

    /** The condition on {@code mj_instance i} joined with {@code mj_series s}. */
    String where() {
        return "s.study_uid = ?" + (seriesInstanceUid == null ? "" : " and i.series_uid = ?")
                + (sopInstanceUid == null ? "" : " and i.sop_instance_uid = ?");
    }

    /**
     * The condition on {@code mj_instance} alone (no alias), for deleting its rows: the series of the study by a
     * small subquery, then the instance table's series index (H2 deletes by an IN over a 5,000-row subquery of
     * another table 30 times slower). Same parameters as {@link #where}.
     */
    String instanceWhere() {
        return "series_uid in (select series_uid from mj_series where study_uid = ?)"
                + (seriesInstanceUid == null ? "" : " and series_uid = ?")
                + (sopInstanceUid == null ? "" : " and sop_instance_uid = ?");
    }

    /** The parameters of {@link #where}, in order. */
    List<Object> parameters() {
        List<Object> p = new ArrayList<>(3);
        p.add(studyInstanceUid);
        if (seriesInstanceUid != null) {
            p.add(seriesInstanceUid);
        }
        if (sopInstanceUid != null) {
            p.add(sopInstanceUid);
        }
        return p;
    }
}
