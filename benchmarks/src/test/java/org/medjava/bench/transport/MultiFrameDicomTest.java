package org.medjava.bench.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.codec.dicom.DicomCodec;
import org.medjava.codec.dicom.DicomImage;

/** The store's upload payload passes the checks the store runs on every DICOM upload (structure, frame 0 decodes). */
class MultiFrameDicomTest {

    @Test
    void isAValidMultiFrameDicomOfTheRequestedSize(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("payload.dcm");
        MultiFrameDicom.write(file, 3, 7);
        byte[] bytes = Files.readAllBytes(file);
        assertThat(bytes.length).isBetween(3 << 20, (3 << 20) + 2048);

        DicomCodec.checkStructure(bytes);
        DicomImage image = DicomCodec.read(bytes, 2, 1L << 24);
        assertThat(image.width()).isEqualTo(MultiFrameDicom.SIDE);
        assertThat(image.height()).isEqualTo(MultiFrameDicom.SIDE);
        assertThat(image.frameCount()).isEqualTo(3);
        assertThat(image.isGrey()).isTrue();
    }

    @Test
    void aSixteenBitFrameForWadoRs(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("frame.dcm");
        MultiFrameDicom.write(file, 1, 512, 16, 9);
        byte[] bytes = Files.readAllBytes(file);
        assertThat(bytes.length).isBetween(512 * 512 * 2, 512 * 512 * 2 + 2048);

        DicomCodec.checkStructure(bytes);
        DicomImage image = DicomCodec.read(bytes, 0, 1L << 24);
        assertThat(image.width()).isEqualTo(512);
        assertThat(image.height()).isEqualTo(512);
        assertThat(image.frameCount()).isEqualTo(1);
        assertThat(image.isGrey()).isTrue();
        assertThat(image.bitsStored()).isEqualTo(16);
    }
}
