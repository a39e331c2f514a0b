package org.medjava.codec.dicom;

/**
 * Codes from DICOM PS3.16 CID 7203 "Image Derivation" (coding scheme DCM) that describe what our filters do, for the
 * optional Derivation Code Sequence (0008,9215) of a derived image. Only the codes that match filters of this
 * project are listed; the free-text Derivation Description carries the exact filter chain and parameters.
 */
public enum DerivationCode {
    SPATIAL_RESAMPLING("113085", "Spatial resampling"),
    EDGE_ENHANCEMENT("113086", "Edge enhancement"),
    SMOOTHING("113087", "Smoothing"),
    GAUSSIAN_BLUR("113088", "Gaussian blur"),
    UNSHARP_MASK("113089", "Unsharp mask");

    /** Coding Scheme Designator of every code here. */
    public static final String SCHEME = "DCM";

    private final String value;
    private final String meaning;

    DerivationCode(String value, String meaning) {
        this.value = value;
        this.meaning = meaning;
    }

    /** Code Value (0008,0100). */
    public String value() {
        return value;
    }

    /** Code Meaning (0008,0104), as in PS3.16. */
    public String meaning() {
        return meaning;
    }

    /**
     * The CID 7203 code that describes the xv filter {@code filterId}, if one does (blur and despeckle smooth,
     * sharpen and edge detect enhance edges, pixelize resamples; emboss, oil paint and spread have none — the
     * Derivation Description carries the exact chain either way).
     */
    public static java.util.Optional<DerivationCode> forFilter(String filterId) {
        return java.util.Optional.ofNullable(switch (filterId) {
            case "blur", "despeckle" -> SMOOTHING;
            case "sharpen", "edge-detect" -> EDGE_ENHANCEMENT;
            case "pixelize" -> SPATIAL_RESAMPLING;
            default -> null;
        });
    }

    /** The distinct codes of a chain of filters, in order of first appearance. */
    public static DerivationCode[] forFilters(java.util.List<String> filterIds) {
        return filterIds.stream().map(DerivationCode::forFilter).flatMap(java.util.Optional::stream).distinct()
                .toArray(DerivationCode[]::new);
    }
}
