package org.medjava.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** A stored file's format by its name's extension, in any case, and only by the last segment's. */
class ImageFormatTest {

    @Test
    void byTheLastSegmentsExtensionInAnyCase() {
        assertThat(ImageFormat.fromFileName("ct/CT_small.DCM")).contains(ImageFormat.DICOM);
        assertThat(ImageFormat.fromFileName("a.b/photo.JpEg")).contains(ImageFormat.JPEG);
        assertThat(ImageFormat.fromFileName("x.pnm")).contains(ImageFormat.PPM);
        assertThat(ImageFormat.fromFileName(Path.of("dir", "x.gif"))).contains(ImageFormat.GIF);
        assertThat(ImageFormat.fromFileName("a.dcm/noextension")).isEmpty();
        assertThat(ImageFormat.fromFileName("x.dcmx")).isEmpty();
        assertThat(ImageFormat.fromFileName("x.")).isEmpty();
        assertThat(ImageFormat.fromFileName("png")).isEmpty();
    }
}
