package org.medjava.codec;

import org.junit.jupiter.api.Test;
import org.medjava.filter.testkit.PackageRules;

/**
 * image-codec's packages depend one way: {@code dicom} builds on the root's formats, headers and exceptions, and the
 * root reaches DICOM through {@link DicomReading}.
 * Checked with filter-testkit's {@link PackageRules}, as every module is.
 */
class ModuleBoundariesTest {

    @Test
    void hasNoPackageCycles() {
        PackageRules.freeOfCycles("image-codec", "org.medjava.codec")
                .check(PackageRules.classesBeside(ImageCodec.class));
    }
}
