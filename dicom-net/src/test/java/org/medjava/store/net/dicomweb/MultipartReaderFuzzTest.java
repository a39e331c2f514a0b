package org.medjava.store.net.dicomweb;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Coverage-guided fuzzing (Jazzer) of STOW-RS's multipart/related reader. The property: whatever the body and however
 * it trickles in, reading every part to its end either succeeds or fails with the reader's documented
 * {@link IOException} — never a RuntimeException or StackOverflowError — and finishes within the {@link Timeout}. The
 * committed inputs (under {@code src/test/resources/org/medjava/store/net/dicomweb/MultipartReaderFuzzTestInputs/}) are
 * replayed in every test run; {@code ./medjava fuzz} fuzzes.
 */
class MultipartReaderFuzzTest {
    static final String BOUNDARY = "MEDJAVA-fuzz";

    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    @FuzzTest(maxDuration = "15s")
    void multipartRelated(FuzzedDataProvider data) {
        int chunk = data.consumeInt(1, 4096); // how much one read() hands over, as a network would
        byte[] body = data.consumeRemainingAsBytes();
        MultipartReader reader = new MultipartReader(new Trickle(body, chunk), BOUNDARY);
        byte[] sink = new byte[8192];
        try {
            for (MultipartReader.Part part; (part = reader.next()) != null; ) {
                part.contentType();
                while (part.body().read(sink, 0, 1 + (sink.length - 1) * (body.length % 2)) >= 0) {
                    // read it all, in small or large steps
                }
            }
        } catch (IOException e) {
            // the documented refusal of a malformed body
        }
    }

    /** A body that arrives at most {@code chunk} bytes per read. */
    private static final class Trickle extends InputStream {
        private final ByteArrayInputStream in;
        private final int chunk;

        Trickle(byte[] body, int chunk) {
            this.in = new ByteArrayInputStream(body);
            this.chunk = chunk;
        }

        @Override
        public int read() {
            return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) {
            return in.read(b, off, Math.min(len, chunk));
        }
    }
}
