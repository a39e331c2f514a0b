package org.medjava.store.core.deid;

import com.pixelmed.dicom.AttributeList;

/**
 * A de-identified data set (without file meta information) and what its pixels may still show. The engine never
 * changes pixel data: text burned into the image is flagged for the caller, which refuses or warns.
 *
 * @param dataSet          the new data set
 * @param burnedIn         what the source said of burned-in annotation
 * @param modality         the source's Modality, or "" when absent
 * @param pixelsNeedReview true when the pixels may show identifying text: Burned In Annotation YES, or absent on a
 *                         modality that often burns text in ({@link #RISKY_MODALITIES}) or a Secondary Capture
 */
public record DeidResult(AttributeList dataSet, BurnedIn burnedIn, String modality, boolean pixelsNeedReview) {

    /** Modalities whose images often carry burned-in text (ultrasound, angiography, endoscopy, photography, scans). */
    public static final java.util.Set<String> RISKY_MODALITIES = java.util.Set.of("US", "IVUS", "XA", "RF", "ES", "XC",
            "GM", "SM", "OT", "SC", "DOC");

    /** Burned In Annotation (0028,0301) of the source. */
    public enum BurnedIn {
        YES, NO, ABSENT
    }
}
