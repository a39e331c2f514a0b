package org.medjava.store.net.dicomweb;

/** The URLs of studies, series and instances under a DICOMweb base URL ({@code http://host:port/dicomweb}). */
public record DicomWebUrls(String base) {

    public DicomWebUrls {
        base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
    }

    public String study(String study) {
        return base + "/studies/" + study;
    }

    public String series(String study, String series) {
        return study(study) + "/series/" + series;
    }

    public String instance(String study, String series, String instance) {
        return series(study, series) + "/instances/" + instance;
    }
}
