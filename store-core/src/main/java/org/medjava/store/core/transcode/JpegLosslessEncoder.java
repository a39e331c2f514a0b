package org.medjava.store.core.transcode;

import java.io.ByteArrayOutputStream;

/**
 * JPEG Lossless, Non-Hierarchical, First-Order Prediction (process 14, selection value 1: the sample to the left;
 * ITU-T T.81 Annex H), the DICOM default lossless JPEG (1.2.840.10008.1.2.4.70). One scan with every component
 * interleaved, one Huffman table built for the frame (T.81 Annex K.2), point transform 0. Precision is the bits
 * allocated (8 or 16), so every stored bit pattern, signed or not, comes back as it was.
 */
final class JpegLosslessEncoder {

    private JpegLosslessEncoder() {
    }

    static byte[] encode(NativeFrames image, int frame) {
        int precision = image.bitsAllocated();
        int spp = image.samplesPerPixel();
        int width = image.columns();
        int height = image.rows();
        int[] s = image.samples()[frame];
        int[] categories = new int[s.length];
        int[] differences = new int[s.length];
        long[] frequency = new long[17];
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                for (int c = 0; c < spp; c++) {
                    int i = (y * width + x) * spp + c;
                    int prediction;
                    if (x > 0) {
                        prediction = s[i - spp];
                    } else if (y > 0) {
                        prediction = s[i - width * spp];
                    } else {
                        prediction = 1 << (precision - 1);
                    }
                    int diff = (s[i] - prediction) & 0xFFFF; // modulo 2^16 (H.1.2.1)
                    if (diff > 32768) {
                        diff -= 65536;
                    }
                    int category = diff == 0 ? 0
                            : diff == 32768 ? 16 : 32 - Integer.numberOfLeadingZeros(Math.abs(diff));
                    categories[i] = category;
                    differences[i] = diff;
                    frequency[category]++;
                }
            }
        }
        Huffman table = Huffman.build(frequency);
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length + 1024);
        marker(out, 0xD8); // SOI
        marker(out, 0xC3); // SOF3
        int lf = 8 + 3 * spp;
        out.write(lf >> 8);
        out.write(lf);
        out.write(precision);
        out.write(height >> 8);
        out.write(height);
        out.write(width >> 8);
        out.write(width);
        out.write(spp);
        for (int c = 0; c < spp; c++) {
            out.write(c + 1);
            out.write(0x11);
            out.write(0);
        }
        table.writeDht(out);
        marker(out, 0xDA); // SOS
        int ls = 6 + 2 * spp;
        out.write(ls >> 8);
        out.write(ls);
        out.write(spp);
        for (int c = 0; c < spp; c++) {
            out.write(c + 1);
            out.write(0x00);
        }
        out.write(1); // Ss: predictor 1
        out.write(0); // Se
        out.write(0); // Ah, Al: no point transform
        BitWriter bits = new BitWriter(out);
        for (int i = 0; i < s.length; i++) {
            int category = categories[i];
            bits.write(table.code[category], table.length[category]);
            if (category > 0 && category < 16) {
                int diff = differences[i];
                int extra = diff > 0 ? diff : diff - 1;
                bits.write(extra & ((1 << category) - 1), category);
            }
        }
        bits.flush();
        marker(out, 0xD9); // EOI
        return out.toByteArray();
    }

    private static void marker(ByteArrayOutputStream out, int code) {
        out.write(0xFF);
        out.write(code);
    }

    /** Writes bits most significant first, stuffing a 0 after every 0xFF byte, padding the last byte with 1s. */
    private static final class BitWriter {
        private final ByteArrayOutputStream out;
        private long buffer;
        private int count;

        BitWriter(ByteArrayOutputStream out) {
            this.out = out;
        }

        void write(int value, int n) {
            buffer = (buffer << n) | (value & ((1L << n) - 1));
            count += n;
            while (count >= 8) {
                int b = (int) (buffer >>> (count - 8)) & 0xFF;
                out.write(b);
                if (b == 0xFF) {
                    out.write(0);
                }
                count -= 8;
            }
        }

        void flush() {
            if (count > 0) {
                write((1 << (8 - count)) - 1, 8 - count);
            }
        }
    }

    /** A Huffman table for the 17 difference categories, code lengths at most 16 (T.81 K.2, C.2). */
    static final class Huffman {
        final int[] code = new int[17];
        final int[] length = new int[17];
        private final int[] bits = new int[17];
        private final int[] values;

        private Huffman(int[] values) {
            this.values = values;
        }

        static Huffman build(long[] counts) {
            int symbols = counts.length;
            long[] freq = new long[symbols + 1];
            System.arraycopy(counts, 0, freq, 0, symbols);
            freq[symbols] = 1; // reserved, so that no code is all 1 bits
            int[] codeSize = new int[symbols + 1];
            int[] others = new int[symbols + 1];
            java.util.Arrays.fill(others, -1);
            while (true) {
                int v1 = -1;
                int v2 = -1;
                for (int i = 0; i <= symbols; i++) { // least frequency, the largest value on ties
                    if (freq[i] > 0 && (v1 < 0 || freq[i] <= freq[v1])) {
                        v1 = i;
                    }
                }
                for (int i = 0; i <= symbols; i++) {
                    if (i != v1 && freq[i] > 0 && (v2 < 0 || freq[i] <= freq[v2])) {
                        v2 = i;
                    }
                }
                if (v2 < 0) {
                    break;
                }
                freq[v1] += freq[v2];
                freq[v2] = 0;
                codeSize[v1]++;
                int k = v1;
                while (others[k] >= 0) {
                    k = others[k];
                    codeSize[k]++;
                }
                others[k] = v2;
                codeSize[v2]++;
                k = v2;
                while (others[k] >= 0) {
                    k = others[k];
                    codeSize[k]++;
                }
            }
            int[] bitsBySize = new int[64];
            for (int i = 0; i <= symbols; i++) {
                if (codeSize[i] > 0) {
                    bitsBySize[codeSize[i]]++;
                }
            }
            for (int i = 63; i > 16; i--) { // Adjust_BITS
                while (bitsBySize[i] > 0) {
                    int j = i - 2;
                    while (bitsBySize[j] == 0) {
                        j--;
                    }
                    bitsBySize[i] -= 2;
                    bitsBySize[i - 1]++;
                    bitsBySize[j + 1] += 2;
                    bitsBySize[j]--;
                }
            }
            int last = 16;
            while (bitsBySize[last] == 0) {
                last--;
            }
            bitsBySize[last]--; // drop the reserved symbol's code
            java.util.List<Integer> order = new java.util.ArrayList<>();
            for (int size = 1; size < 64; size++) {
                for (int i = 0; i < symbols; i++) {
                    if (codeSize[i] == size) {
                        order.add(i);
                    }
                }
            }
            int used = 0;
            for (int size = 1; size <= 16; size++) {
                used += bitsBySize[size];
            }
            Huffman h = new Huffman(order.subList(0, used).stream().mapToInt(Integer::intValue).toArray());
            System.arraycopy(bitsBySize, 0, h.bits, 0, 17);
            int next = 0;
            int k = 0;
            for (int size = 1; size <= 16; size++) {
                for (int n = 0; n < h.bits[size]; n++) {
                    h.code[h.values[k]] = next++;
                    h.length[h.values[k]] = size;
                    k++;
                }
                next <<= 1;
            }
            return h;
        }

        void writeDht(ByteArrayOutputStream out) {
            marker(out, 0xC4);
            int lh = 2 + 1 + 16 + values.length;
            out.write(lh >> 8);
            out.write(lh);
            out.write(0x00); // class 0 (DC/lossless), table 0
            for (int size = 1; size <= 16; size++) {
                out.write(bits[size]);
            }
            for (int v : values) {
                out.write(v);
            }
        }
    }
}
