package org.medjava.codec.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.medjava.codec.ImageDecodeException;
import org.medjava.codec.dicom.DicomCodec;
import org.medjava.codec.dicom.DicomPreScan;
import org.medjava.codec.dicom.DicomStructureException;

/**
 * Coverage-guided fuzzing (Jazzer) of the DICOM reader: the pre-scan, then PixelMed's parse and pixel decoding, as
 * every door of the store reads DICOM. The property: whatever the input, only the codec's documented refusal
 * ({@link ImageDecodeException} and its subclasses) comes out — never a StackOverflowError, OutOfMemoryError,
 * RuntimeException or other IOException — and each input finishes within the {@link Timeout} (libFuzzer's per-input
 * timeout while fuzzing). A plain test run replays the committed inputs under
 * {@code src/test/resources/org/medjava/codec/fuzz/DicomReaderFuzzTestInputs/dicomReader/}; {@code ./medjava fuzz}
 * fuzzes (docs/operations/limits-and-guarantees.md, "Parsers: depth and size limits, fuzzing"). One fuzz test a
 * class: Jazzer fuzzes one a JVM.
 */
class DicomReaderFuzzTest {
    /** Frames larger than this are refused before decoding, as the store's pixel limit does, to keep inputs quick. */
    static final long MAX_PIXELS = 1 << 20;

    /** The fuzzer's bytes follow a fixed preamble and "DICM", so that it need not find them. */
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    @FuzzTest(maxDuration = "15s")
    void dicomReader(byte[] afterPreamble) throws IOException {
        byte[] file = new byte[132 + afterPreamble.length];
        file[128] = 'D';
        file[129] = 'I';
        file[130] = 'C';
        file[131] = 'M';
        System.arraycopy(afterPreamble, 0, file, 132, afterPreamble.length);
        try {
            DicomPreScan.checkPart10(file);
        } catch (DicomStructureException e) {
            return; // refused before parsing, as the store does
        }
        try {
            DicomCodec.read(file, 0, MAX_PIXELS);
        } catch (ImageDecodeException e) {
            // the documented refusal
        }
    }
}
