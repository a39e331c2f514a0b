package org.medjava.codec.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.medjava.codec.ImageCodec;
import org.medjava.codec.ImageDecodeException;

/**
 * Coverage-guided fuzzing (Jazzer) of GIF, PNG and JPEG decoding (told apart by content, as uploads are) through
 * ImageIO to a raster. Same property as {@link DicomReaderFuzzTest}: only {@link ImageDecodeException} comes out, and
 * each input finishes within the {@link Timeout}. The JDK's ImageIO decoders are not instrumented (Jazzer leaves
 * java.* alone), so coverage guides through the codec's own code only; the mutations still reach the decoders.
 * Corpus: {@code src/test/resources/org/medjava/codec/fuzz/ImageDecoderFuzzTestInputs/imageDecoder/}.
 */
class ImageDecoderFuzzTest {

    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    @FuzzTest(maxDuration = "15s")
    void imageDecoder(byte[] data) throws IOException {
        try {
            ImageCodec.read(new ByteArrayInputStream(data), DicomReaderFuzzTest.MAX_PIXELS);
        } catch (ImageDecodeException e) {
            // the documented refusal
        }
    }
}
