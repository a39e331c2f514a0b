package org.medjava.store.core.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.testkit.Samples;

/** The file meta information walk that finds what to send and where the data set starts. */
class Part10FileTest {

    @Test
    void readsTheUidsAndFindsTheDataSet() throws IOException {
        Part10File f = Part10File.read(Samples.dicom("MR_small_jpeg_ls_lossless.dcm"));
        assertThat(f.sopClassUid()).isEqualTo("1.2.840.10008.5.1.4.1.1.4");
        assertThat(f.sopInstanceUid()).isEqualTo("1.3.6.1.4.1.5962.1.1.4.1.1.20040826185059.5457");
        assertThat(f.transferSyntaxUid()).isEqualTo("1.2.840.10008.1.2.4.80");
        try (InputStream in = f.openDataSet()) {
            byte[] first = in.readNBytes(2);
            assertThat(first).containsExactly(0x08, 0x00); // group 0008, little endian: the data set begins
        }
    }

    @Test
    void filesWithoutMetaInformationAreRefused(@TempDir Path dir) throws IOException {
        assertThatThrownBy(() -> Part10File.read(Samples.dicom("no_meta.dcm"))).hasMessageContaining("Part 10");
        assertThatThrownBy(() -> Part10File.read(Samples.dicom("meta_missing_tsyntax.dcm")))
                .hasMessageContaining("transfer syntax");
        Path empty = Files.createFile(dir.resolve("empty.dcm"));
        assertThatThrownBy(() -> Part10File.read(empty)).isInstanceOf(IOException.class);
    }
}
