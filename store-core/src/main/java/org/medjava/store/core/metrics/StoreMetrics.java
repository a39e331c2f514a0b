package org.medjava.store.core.metrics;

/**
 * What the store's parts report for an administrator's graphs: the parts call it as things happen, the WAR records
 * it (on MicroProfile Metrics, served at {@code /metrics}), so store-core and dicom-net stay free of the container's
 * APIs. Label values are fixed words (doors, outcomes, filter ids), never paths, UIDs or patient data. Every method
 * does nothing by default; implementations are thread-safe and quick.
 */
public interface StoreMetrics {

    /** Records nothing: for tests and tools. */
    StoreMetrics NONE = new StoreMetrics() {
    };

    /** The door of {@code org.medjava.store.core.ingest.Ingest}: a body put at a path (HTTP PUT, jobs, seeding). */
    String PUT = "put";
    /** The door of DICOM objects filed by their UIDs (C-STORE, STOW-RS, retrieves, derived objects). */
    String RECEIVE = "receive";

    /** An object was stored (and indexed if DICOM) through {@code door}, {@code bytes} long. */
    default void ingested(String door, long bytes) {
    }

    /** A write through {@code door} was refused; {@code reason} is a status word such as {@code unprocessable}. */
    default void ingestRefused(String door, String reason) {
    }

    /** A rendering (decode, filters, encode) into {@code format} took {@code nanos}. */
    default void rendered(String format, long nanos) {
    }

    /** One filter of a rendering ran for {@code nanos}, in {@code implementation} (straightforward, optimized...). */
    default void filtered(String filterId, String implementation, long nanos) {
    }

    /** A filter call was refused or stopped for time: {@code why} is "busy" (no free slot) or "deadline". */
    default void filterRefused(String filterId, String why) {
    }

    /** A DICOM association was accepted, or refused (calling or called AE not allowed, too many open). */
    default void association(boolean accepted) {
    }

    /**
     * The outcome of one DICOM object sent to the store: {@code service} is {@code c-store} or {@code stow-rs},
     * {@code outcome} {@code success} or the failure's reason ({@code duplicate_sop_instance}, {@code out_of_resources}...).
     */
    default void dicomStored(String service, String outcome) {
    }

    /** {@code instances} files went into the trash ({@code change} "deleted"), back out ("restored") or for good ("purged"). */
    default void trash(String change, long instances) {
    }

    /** {@code instances} instances rewritten by a correction ({@code outcome} "corrected") or not ("failed"). */
    default void corrected(String outcome, long instances) {
    }

    /**
     * {@code instances} routed instances that were sent ({@code outcome} "sent"), will be tried again ("failed") or
     * were given up ("dead").
     */
    default void routed(String outcome, long instances) {
    }

    /**
     * A received uncompressed object stored recompressed ({@code outcome} "htj2k") or, when that could not be done
     * exactly, as received ("kept-as-received"); only under {@code medjava.dicom.store-as=htj2k-lossless}.
     */
    default void recompressed(String outcome) {
    }
}
