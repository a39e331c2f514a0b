package org.medjava.viewer.image;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.codec.dicom.Window;

/**
 * What the tests of filtering a CT on its stored values start from: the bundled plugins in a real registry
 * ({@link TestFilters}, opened afresh for each test) and a small speckled synthetic CT.
 */
abstract class SpeckledCtFixture {
    /** The synthetic CT's own window. */
    static final Window SOFT_TISSUE = new Window(40, 400);
    static final Window BONE = new Window(400, 1800);

    @TempDir
    Path dir;
    TestFilters filters;

    @BeforeEach
    final void openFilters() throws IOException {
        filters = TestFilters.open(dir);
    }

    @AfterEach
    final void closeFilters() {
        filters.close();
    }

    /** A 64x64 16-bit CT (12 bits stored) with bright speckles, as the viewer opens it. */
    static OpenedImage speckledCt() throws IOException {
        return OpenedImage.decode(new ImageOrigin.LocalFile(Path.of("ct.dcm")),
                SyntheticDicom.speckledCt(64, "2.25.1617"));
    }
}
