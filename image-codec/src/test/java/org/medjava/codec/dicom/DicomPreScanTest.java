package org.medjava.codec.dicom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.DicomInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.medjava.filter.Raster;
import org.medjava.filter.testkit.ByteSearch;
import org.medjava.filter.testkit.NestedDicom;
import org.medjava.filter.testkit.NestedDicom.Syntax;

/** The pre-scan refuses what would overflow PixelMed's recursion, and passes every real sample PixelMed reads. */
class DicomPreScanTest {

    static Stream<Arguments> encodings() {
        List<Arguments> all = new ArrayList<>();
        for (Syntax syntax : Syntax.values()) {
            all.add(Arguments.of(syntax, false));
            all.add(Arguments.of(syntax, true));
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0}, undefined lengths {1}")
    @MethodSource("encodings")
    void nestingAtTheLimitPassesAndPixelMedReadsIt(Syntax syntax, boolean undefined) throws Exception {
        byte[] file = NestedDicom.part10(DicomPreScan.MAX_DEPTH, syntax, undefined, "1.2.3.4");
        DicomPreScan.checkPart10(file);
        DicomImage image = DicomCodec.read(file, 0, Raster.MAX_PIXELS);
        assertThat(image.attributes().sopInstanceUid()).isEqualTo("1.2.3.4.3");
    }

    @ParameterizedTest(name = "{0}, undefined lengths {1}")
    @MethodSource("encodings")
    void nestingBeyondTheLimitIsRefusedWithItsReason(Syntax syntax, boolean undefined) {
        for (int depth : new int[] {DicomPreScan.MAX_DEPTH + 1, 2000}) {
            byte[] file = NestedDicom.part10(depth, syntax, undefined, "1.2.3.4");
            assertThatThrownBy(() -> DicomCodec.read(file, 0, Raster.MAX_PIXELS))
                    .isInstanceOf(DicomStructureException.class)
                    .hasMessage("DICOM sequence nesting deeper than 64 levels");
        }
    }

    @Test
    void aReaderStoppingAtPixelDataIsCheckedUpToThere() throws IOException {
        byte[] file = NestedDicom.part10(3000, Syntax.EXPLICIT_LE, true, "1.2.3.4");
        assertThatThrownBy(() -> DicomPreScan.checkPart10(new ByteArrayInputStream(file), file.length, true))
                .hasMessageContaining("deeper than 64");
    }

    @Test
    void everySampleThatPixelMedReadsPasses() throws IOException {
        List<Path> samples = new ArrayList<>();
        for (Path dir : List.of(Path.of("src/test/resources/dicom"),
                Path.of(System.getProperty("medjava.root", "..")).resolve("../shared/testdata/dicom"))) {
            if (Files.isDirectory(dir)) {
                try (Stream<Path> files = Files.list(dir)) {
                    files.filter(p -> p.toString().endsWith(".dcm")).forEach(samples::add);
                }
            }
        }
        assertThat(samples).hasSizeGreaterThanOrEqualTo(20);
        int read = 0;
        for (Path sample : samples) {
            byte[] file = Files.readAllBytes(sample);
            if (!DicomCodec.isDicom(file) || !pixelMedReads(file)) {
                continue;
            }
            if (sample.getFileName().toString().equals("MR_truncated.dcm")) {
                // PixelMed reads a value cut short by the end of the file without complaint; the scan refuses it
                assertThatThrownBy(() -> DicomPreScan.checkPart10(file)).hasMessageContaining("truncated");
                continue;
            }
            read++;
            assertThatCode(() -> DicomPreScan.checkPart10(file)).as(sample.toString()).doesNotThrowAnyException();
        }
        assertThat(read).isGreaterThanOrEqualTo(18);
    }

    @Test
    void aLengthBeyondTheDataIsRefused() {
        byte[] file = NestedDicom.part10(0, Syntax.EXPLICIT_LE, false, "1.2.3.4");
        byte[] cut = Arrays.copyOf(file, file.length - 2); // the last value (Pixel Data) is cut short
        assertThatThrownBy(() -> DicomPreScan.checkPart10(cut)).isInstanceOf(DicomStructureException.class)
                .hasMessageContaining("4 bytes declared").hasMessageContaining("only 2 remain");
    }

    @Test
    void anItemLongerThanItsSequenceIsRefused() {
        byte[] file = NestedDicom.part10(2, Syntax.EXPLICIT_LE, false, "1.2.3.4");
        // the outer sequence's item claims 4 bytes more than the sequence holds
        int seq = ByteSearch.indexOf(file, new byte[] {0x40, 0, 0x30, (byte) 0xA7, 'S', 'Q'});
        int itemLength = seq + 12 + 4;
        file[itemLength] += 4;
        assertThatThrownBy(() -> DicomPreScan.checkPart10(file)).isInstanceOf(DicomStructureException.class)
                .hasMessageContaining("damaged or truncated");
    }

    @Test
    void aDeflateBombIsRefusedAtTheBound() throws IOException {
        byte[] zeros = new byte[4 << 20];
        ByteArrayOutputStream dataSet = new ByteArrayOutputStream();
        dataSet.writeBytes(new byte[] {0x09, 0, 0x10, 0, 'U', 'N', 0, 0}); // (0009,0010) UN of 4 MiB zeros
        dataSet.writeBytes(new byte[] {0, 0, 0x40, 0});
        dataSet.writeBytes(zeros);
        byte[] file = NestedDicom.withMeta(NestedDicom.SECONDARY_CAPTURE, "1.2.3", Syntax.DEFLATED_LE.uid,
                NestedDicom.deflate(dataSet.toByteArray(), Deflater.BEST_COMPRESSION));
        assertThat(file.length).isLessThan(64 << 10);
        assertThatThrownBy(() -> DicomPreScan.checkPart10(new ByteArrayInputStream(file), file.length, false,
                1 << 20)).isInstanceOf(DicomStructureException.class)
                .hasMessage("DICOM deflated data set inflates to more than 1048576 bytes");
        DicomPreScan.checkPart10(new ByteArrayInputStream(file), file.length, false, 8 << 20);
    }

    @Test
    void tooManyItemsInOneSequenceAreRefused() {
        // 1,000,001 empty items of undefined length: 16 bytes each
        int items = DicomPreScan.MAX_ITEMS + 1;
        ByteArrayOutputStream seq = new ByteArrayOutputStream(items * 16 + 32);
        seq.writeBytes(new byte[] {0x40, 0, 0x30, (byte) 0xA7, 'S', 'Q', 0, 0, -1, -1, -1, -1});
        byte[] item = {-2, -1, 0, -32, -1, -1, -1, -1, -2, -1, 0x0D, -32, 0, 0, 0, 0};
        for (int i = 0; i < items; i++) {
            seq.write(item, 0, item.length);
        }
        seq.writeBytes(new byte[] {-2, -1, -35, -32, 0, 0, 0, 0});
        byte[] file = NestedDicom.withMeta(NestedDicom.SECONDARY_CAPTURE, "1.2.3", Syntax.EXPLICIT_LE.uid,
                seq.toByteArray());
        assertThatThrownBy(() -> DicomPreScan.checkPart10(file)).isInstanceOf(DicomStructureException.class)
                .hasMessageContaining("more than 1000000 items");
    }

    @Test
    void aPrivateSequenceUnknownToTheDictionaryIsWalkedToo() {
        // implicit VR: the outermost Content Sequence becomes private (0009,1010), which no dictionary calls SQ
        byte[] file = NestedDicom.part10(100, Syntax.IMPLICIT_LE, false, "1.2.3.4");
        int outer = ByteSearch.indexOf(file, new byte[] {0x40, 0, 0x30, (byte) 0xA7});
        file[outer] = 0x09;
        file[outer + 2] = 0x10;
        file[outer + 3] = 0x10;
        assertThatThrownBy(() -> DicomPreScan.checkPart10(file)).hasMessageContaining("deeper than 64");
    }

    @Test
    void aDataSetWithoutMetaIsCheckedInItsTransferSyntax() {
        byte[] file = NestedDicom.part10(100, Syntax.IMPLICIT_LE, false, "1.2.3.4");
        int start = ByteSearch.indexOf(file, new byte[] {0x08, 0, 0x16, 0});
        byte[] dataSet = Arrays.copyOfRange(file, start, file.length);
        assertThatThrownBy(() -> DicomPreScan.checkDataSet(dataSet, Syntax.IMPLICIT_LE.uid))
                .hasMessageContaining("deeper than 64");
    }

    private static boolean pixelMedReads(byte[] file) {
        try (DicomInputStream in = new DicomInputStream(new ByteArrayInputStream(file))) {
            AttributeList list = new AttributeList();
            list.setDecompressPixelData(false);
            list.read(in);
            return true;
        } catch (Exception e) {
            return false;
        }
    }
}
