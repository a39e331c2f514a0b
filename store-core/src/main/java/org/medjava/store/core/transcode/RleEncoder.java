package org.medjava.store.core.transcode;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * RLE Lossless (PS3.5 Annex G): per frame a 64-byte header and one PackBits segment per sample and byte of the
 * sample, most significant byte first; each row is encoded on its own and every segment has an even length.
 */
final class RleEncoder {

    private RleEncoder() {
    }

    static byte[] encode(NativeFrames image, int frame) {
        int bytes = image.bitsAllocated() / 8;
        int spp = image.samplesPerPixel();
        int segments = spp * bytes;
        int[] samples = image.samples()[frame];
        ByteArrayOutputStream body = new ByteArrayOutputStream(samples.length * bytes);
        int[] offsets = new int[segments];
        byte[] row = new byte[image.columns()];
        for (int s = 0; s < spp; s++) {
            for (int b = bytes - 1; b >= 0; b--) {
                offsets[s * bytes + (bytes - 1 - b)] = 64 + body.size();
                for (int y = 0; y < image.rows(); y++) {
                    for (int x = 0; x < image.columns(); x++) {
                        row[x] = (byte) (samples[(y * image.columns() + x) * spp + s] >>> (8 * b));
                    }
                    packBits(row, body);
                }
                if (body.size() % 2 != 0) {
                    body.write(0);
                }
            }
        }
        ByteBuffer header = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        header.putInt(segments);
        for (int offset : offsets) {
            header.putInt(offset);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 + body.size());
        out.writeBytes(header.array());
        out.writeBytes(body.toByteArray());
        return out.toByteArray();
    }

    /** PackBits: runs of 2 to 128 equal bytes as (1 - n, byte), anything else as literals (n - 1, n bytes). */
    private static void packBits(byte[] row, ByteArrayOutputStream out) {
        int i = 0;
        int n = row.length;
        while (i < n) {
            int run = 1;
            while (i + run < n && run < 128 && row[i + run] == row[i]) {
                run++;
            }
            if (run >= 2) {
                out.write(1 - run);
                out.write(row[i]);
                i += run;
                continue;
            }
            int start = i;
            int literal = 0;
            while (i < n && literal < 128 && !(i + 1 < n && row[i + 1] == row[i])) {
                i++;
                literal++;
            }
            out.write(literal - 1);
            out.write(row, start, literal);
        }
    }
}
