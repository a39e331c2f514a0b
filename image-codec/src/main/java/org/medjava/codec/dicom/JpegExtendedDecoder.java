package org.medjava.codec.dicom;

import org.medjava.codec.ImageDecodeException;

/**
 * Sequential DCT JPEG with Huffman coding at 12-bit sample precision (ISO/IEC 10918-1 process 4, DICOM JPEG Extended
 * 1.2.840.10008.1.2.4.51 with Bits Allocated 16), which the JDK's decoder does not read. The inverse DCT is IJG's
 * "islow" integer transform (jidctint.c, 64-bit intermediates as IJG's INT32 is on LP64) with its range limiting,
 * so the output matches DCMTK's dcmdjpeg, whose 12-bit decoder is IJG 6b. Components must all have the same
 * sampling factors (grey, or colour without subsampling); samples come back as they are coded, without any colour
 * conversion, pixel-interleaved.
 */
final class JpegExtendedDecoder {
    private static final int[] ZIGZAG = {
        0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14,
        21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53,
        60, 61, 54, 47, 55, 62, 63};

    /** A decoded frame: {@code samples} pixel-interleaved, each in 0 .. 2^precision-1. */
    record Frame(int width, int height, int components, int precision, int[] samples) {
    }

    private final byte[] data;
    private int pos;
    private final int[][] quant = new int[4][];
    private final Huffman[] dcTables = new Huffman[4];
    private final Huffman[] acTables = new Huffman[4];
    private int restartInterval;
    private int precision;
    private int width;
    private int height;
    private Component[] components;
    private int hMax;
    private int vMax;
    private int mcusX;
    private int mcusY;

    private static final class Component {
        int id;
        int h;
        int v;
        int tq;
        int blocksX; // blocks a row in the coefficient buffer (whole MCUs)
        int blocksY;
        int[] coefficients;
        int dcTable;
        int acTable;
        int pred;
    }

    private final int expectedWidth;
    private final int expectedHeight;

    private JpegExtendedDecoder(byte[] data, int expectedWidth, int expectedHeight) {
        this.data = data;
        this.expectedWidth = expectedWidth;
        this.expectedHeight = expectedHeight;
    }

    /**
     * Decodes a frame that must be {@code width} x {@code height} (what the DICOM header says): another size is
     * refused at the frame header, before any memory is spent on it.
     */
    static Frame decode(byte[] codestream, int width, int height) throws ImageDecodeException {
        try {
            return new JpegExtendedDecoder(codestream, width, height).run();
        } catch (ArrayIndexOutOfBoundsException e) {
            throw new ImageDecodeException("JPEG data is truncated or damaged");
        }
    }

    private Frame run() throws ImageDecodeException {
        if (u8() != 0xFF || u8() != 0xD8) {
            throw new ImageDecodeException("JPEG data does not start with an SOI marker");
        }
        boolean scanned = false;
        while (true) {
            int marker = nextMarker();
            switch (marker) {
                case 0xC0, 0xC1 -> readFrameHeader();
                case 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF -> throw new ImageDecodeException(
                        "JPEG process SOF" + (marker - 0xC0) + " is not a sequential Huffman DCT process (only "
                                + "baseline and extended, processes 1, 2 and 4, are decoded here)");
                case 0xC4 -> readHuffmanTables();
                case 0xDB -> readQuantTables();
                case 0xDD -> {
                    segmentLength();
                    restartInterval = u16();
                }
                case 0xDA -> {
                    if (components == null) {
                        throw new ImageDecodeException("JPEG scan before its frame header");
                    }
                    readScan();
                    scanned = true;
                }
                case 0xD9 -> {
                    if (!scanned) {
                        throw new ImageDecodeException("JPEG data holds no scan");
                    }
                    return output();
                }
                default -> {
                    int length = segmentLength();
                    pos += length - 2; // APPn, COM, DNL and others: skipped
                }
            }
        }
    }

    private int nextMarker() throws ImageDecodeException {
        while (pos < data.length) {
            if ((data[pos] & 0xFF) == 0xFF && pos + 1 < data.length && (data[pos + 1] & 0xFF) != 0xFF
                    && (data[pos + 1] & 0xFF) != 0) {
                int marker = data[pos + 1] & 0xFF;
                pos += 2;
                return marker;
            }
            pos++;
        }
        throw new ImageDecodeException("JPEG data ends without an EOI marker (truncated)");
    }

    private int segmentLength() throws ImageDecodeException {
        int length = u16();
        if (length < 2 || pos + length - 2 > data.length) {
            throw new ImageDecodeException("JPEG marker segment runs past the end of the data");
        }
        return length;
    }

    private void readFrameHeader() throws ImageDecodeException {
        segmentLength();
        precision = u8();
        height = u16();
        width = u16();
        int count = u8();
        if (precision != 8 && precision != 12) {
            throw new ImageDecodeException("JPEG sample precision " + precision + " (8 or 12 expected)");
        }
        if (height == 0 || width == 0 || count < 1 || count > 4) {
            throw new ImageDecodeException("JPEG frame header: " + width + "x" + height + ", " + count
                    + " components");
        }
        if (width != expectedWidth || height != expectedHeight) {
            throw new ImageDecodeException("JPEG frame is " + width + "x" + height + ", the DICOM header says "
                    + expectedWidth + "x" + expectedHeight);
        }
        components = new Component[count];
        for (int i = 0; i < count; i++) {
            Component c = new Component();
            c.id = u8();
            int hv = u8();
            c.h = hv >> 4;
            c.v = hv & 15;
            c.tq = u8() & 3;
            if (c.h < 1 || c.v < 1 || c.h > 4 || c.v > 4) {
                throw new ImageDecodeException("JPEG sampling factors " + c.h + "x" + c.v);
            }
            components[i] = c;
            hMax = Math.max(hMax, c.h);
            vMax = Math.max(vMax, c.v);
        }
        for (Component c : components) {
            if (c.h != hMax || c.v != vMax) {
                throw new ImageDecodeException("JPEG components with different sampling factors (chroma "
                        + "subsampling) are not decoded at 12 bits");
            }
        }
        mcusX = (width + 8 * hMax - 1) / (8 * hMax);
        mcusY = (height + 8 * vMax - 1) / (8 * vMax);
        for (Component c : components) {
            c.blocksX = mcusX * c.h;
            c.blocksY = mcusY * c.v;
            c.coefficients = new int[c.blocksX * c.blocksY * 64];
        }
    }

    private void readHuffmanTables() throws ImageDecodeException {
        int length = segmentLength();
        int end = pos + length - 2;
        while (pos < end) {
            int tcth = u8();
            int[] counts = new int[17];
            int total = 0;
            for (int i = 1; i <= 16; i++) {
                counts[i] = u8();
                total += counts[i];
            }
            if (total > 256 || pos + total > end) {
                throw new ImageDecodeException("JPEG Huffman table is damaged");
            }
            int[] values = new int[total];
            for (int i = 0; i < total; i++) {
                values[i] = u8();
            }
            Huffman table = new Huffman(counts, values);
            if ((tcth >> 4) == 0) {
                dcTables[tcth & 3] = table;
            } else {
                acTables[tcth & 3] = table;
            }
        }
    }

    private void readQuantTables() throws ImageDecodeException {
        int length = segmentLength();
        int end = pos + length - 2;
        while (pos < end) {
            int pq = u8();
            int[] table = new int[64];
            for (int i = 0; i < 64; i++) {
                table[ZIGZAG[i]] = (pq >> 4) == 0 ? u8() : u16();
            }
            quant[pq & 3] = table;
        }
    }

    private void readScan() throws ImageDecodeException {
        segmentLength();
        int count = u8();
        Component[] scan = new Component[count];
        for (int i = 0; i < count; i++) {
            int id = u8();
            int tables = u8();
            for (Component c : components) {
                if (c.id == id) {
                    scan[i] = c;
                }
            }
            if (scan[i] == null) {
                throw new ImageDecodeException("JPEG scan names component " + id + ", which the frame lacks");
            }
            scan[i].dcTable = tables >> 4 & 3;
            scan[i].acTable = tables & 3;
            if (dcTables[scan[i].dcTable] == null || acTables[scan[i].acTable] == null) {
                throw new ImageDecodeException("JPEG scan uses a Huffman table that was not defined");
            }
        }
        pos += 3; // Ss, Se, Ah/Al: fixed for sequential DCT
        for (Component c : scan) {
            c.pred = 0;
        }
        BitReader bits = new BitReader();
        // one component alone: its own block grid, cropped to the image; several: whole MCUs
        int unitsX = count == 1 ? (int) Math.ceil(Math.ceil(width * (double) scan[0].h / hMax) / 8) : mcusX;
        int unitsY = count == 1 ? (int) Math.ceil(Math.ceil(height * (double) scan[0].v / vMax) / 8) : mcusY;
        int units = unitsX * unitsY;
        int[] block = new int[64];
        for (int unit = 0; unit < units; unit++) {
            if (restartInterval > 0 && unit > 0 && unit % restartInterval == 0) {
                bits.restart();
                for (Component c : scan) {
                    c.pred = 0;
                }
            }
            int ux = unit % unitsX;
            int uy = unit / unitsX;
            for (Component c : scan) {
                int bh = count == 1 ? 1 : c.h;
                int bv = count == 1 ? 1 : c.v;
                for (int y = 0; y < bv; y++) {
                    for (int x = 0; x < bh; x++) {
                        decodeBlock(bits, c, block);
                        int bx = ux * bh + x;
                        int by = uy * bv + y;
                        System.arraycopy(block, 0, c.coefficients, (by * c.blocksX + bx) * 64, 64);
                    }
                }
            }
        }
        pos = bits.end();
    }

    private void decodeBlock(BitReader bits, Component c, int[] block) throws ImageDecodeException {
        java.util.Arrays.fill(block, 0);
        int t = dcTables[c.dcTable].decode(bits);
        int diff = t == 0 ? 0 : extend(bits.bits(t), t);
        c.pred += diff;
        block[0] = c.pred;
        Huffman ac = acTables[c.acTable];
        for (int k = 1; k < 64; ) {
            int rs = ac.decode(bits);
            int r = rs >> 4;
            int s = rs & 15;
            if (s == 0) {
                if (r != 15) {
                    break;
                }
                k += 16;
                continue;
            }
            k += r;
            if (k > 63) {
                throw new ImageDecodeException("JPEG block has more than 64 coefficients (damaged data)");
            }
            block[ZIGZAG[k]] = extend(bits.bits(s), s);
            k++;
        }
    }

    private static int extend(int v, int t) {
        return v < 1 << (t - 1) ? v - (1 << t) + 1 : v;
    }

    private Frame output() throws ImageDecodeException {
        int n = components.length;
        int[] samples = new int[width * height * n];
        int[] pixels = new int[64];
        for (int ci = 0; ci < n; ci++) {
            Component c = components[ci];
            int[] q = quant[c.tq];
            if (q == null) {
                throw new ImageDecodeException("JPEG quantization table " + c.tq + " was not defined");
            }
            for (int by = 0; by < c.blocksY; by++) {
                for (int bx = 0; bx < c.blocksX; bx++) {
                    if (bx * 8 >= width || by * 8 >= height) {
                        continue;
                    }
                    idct(c.coefficients, (by * c.blocksX + bx) * 64, q, pixels);
                    for (int y = 0; y < 8 && by * 8 + y < height; y++) {
                        for (int x = 0; x < 8 && bx * 8 + x < width; x++) {
                            samples[((by * 8 + y) * width + bx * 8 + x) * n + ci] = pixels[y * 8 + x];
                        }
                    }
                }
            }
        }
        return new Frame(width, height, n, precision, samples);
    }

    // IJG jidctint.c (islow), for the frame's precision
    private static final int CONST_BITS = 13;
    private static final int LOOKAHEAD = 9;
    private static final long FIX_0_298631336 = 2446;
    private static final long FIX_0_390180644 = 3196;
    private static final long FIX_0_541196100 = 4433;
    private static final long FIX_0_765366865 = 6270;
    private static final long FIX_0_899976223 = 7373;
    private static final long FIX_1_175875602 = 9633;
    private static final long FIX_1_501321110 = 12299;
    private static final long FIX_1_847759065 = 15137;
    private static final long FIX_1_961570560 = 16069;
    private static final long FIX_2_053119869 = 16819;
    private static final long FIX_2_562915447 = 20995;
    private static final long FIX_3_072711026 = 25172;

    private final int[] workspace = new int[64];
    private final long[] row8 = new long[8];

    private void idct(int[] coef, int offset, int[] q, int[] out) {
        int pass1 = precision == 8 ? 2 : 1;
        int maxSample = (1 << precision) - 1;
        int center = 1 << (precision - 1);
        int rangeBits = precision + 2; // IJG's RANGE_MASK is 4 * (MAXJSAMPLE + 1) - 1
        int[] ws = workspace;
        for (int col = 0; col < 8; col++) {
            boolean acZero = true;
            for (int row = 1; row < 8; row++) {
                if (coef[offset + row * 8 + col] != 0) {
                    acZero = false;
                    break;
                }
            }
            if (acZero) {
                int dc = coef[offset + col] * q[col] << pass1;
                for (int row = 0; row < 8; row++) {
                    ws[row * 8 + col] = dc;
                }
                continue;
            }
            long[] r = oneDimension(row8,
                    (long) coef[offset + col] * q[col], (long) coef[offset + 8 + col] * q[8 + col],
                    (long) coef[offset + 16 + col] * q[16 + col], (long) coef[offset + 24 + col] * q[24 + col],
                    (long) coef[offset + 32 + col] * q[32 + col], (long) coef[offset + 40 + col] * q[40 + col],
                    (long) coef[offset + 48 + col] * q[48 + col], (long) coef[offset + 56 + col] * q[56 + col]);
            for (int row = 0; row < 8; row++) {
                ws[row * 8 + col] = (int) descale(r[row], CONST_BITS - pass1);
            }
        }
        for (int row = 0; row < 8; row++) {
            int b = row * 8;
            boolean acZero = true;
            for (int i = 1; i < 8; i++) {
                if (ws[b + i] != 0) {
                    acZero = false;
                    break;
                }
            }
            if (acZero) {
                int v = limit(descale(ws[b], pass1 + 3), rangeBits, center, maxSample);
                for (int i = 0; i < 8; i++) {
                    out[b + i] = v;
                }
                continue;
            }
            long[] r = oneDimension(row8, ws[b], ws[b + 1], ws[b + 2], ws[b + 3], ws[b + 4], ws[b + 5], ws[b + 6],
                    ws[b + 7]);
            for (int i = 0; i < 8; i++) {
                out[b + i] = limit(descale(r[i], CONST_BITS + pass1 + 3), rangeBits, center, maxSample);
            }
        }
    }

    /** IJG's even/odd butterfly on one row or column; results before descaling, in output order 0..7. */
    private static long[] oneDimension(long[] out, long d0, long d1, long d2, long d3, long d4, long d5, long d6,
            long d7) {
        long z2 = d2;
        long z3 = d6;
        long z1 = (z2 + z3) * FIX_0_541196100;
        long tmp2 = z1 + z3 * -FIX_1_847759065;
        long tmp3 = z1 + z2 * FIX_0_765366865;
        long tmp0 = (d0 + d4) << CONST_BITS;
        long tmp1 = (d0 - d4) << CONST_BITS;
        long tmp10 = tmp0 + tmp3;
        long tmp13 = tmp0 - tmp3;
        long tmp11 = tmp1 + tmp2;
        long tmp12 = tmp1 - tmp2;
        tmp0 = d7;
        tmp1 = d5;
        tmp2 = d3;
        tmp3 = d1;
        z1 = tmp0 + tmp3;
        z2 = tmp1 + tmp2;
        z3 = tmp0 + tmp2;
        long z4 = tmp1 + tmp3;
        long z5 = (z3 + z4) * FIX_1_175875602;
        tmp0 *= FIX_0_298631336;
        tmp1 *= FIX_2_053119869;
        tmp2 *= FIX_3_072711026;
        tmp3 *= FIX_1_501321110;
        z1 *= -FIX_0_899976223;
        z2 *= -FIX_2_562915447;
        z3 *= -FIX_1_961570560;
        z4 *= -FIX_0_390180644;
        z3 += z5;
        z4 += z5;
        tmp0 += z1 + z3;
        tmp1 += z2 + z4;
        tmp2 += z2 + z3;
        tmp3 += z1 + z4;
        out[0] = tmp10 + tmp3;
        out[1] = tmp11 + tmp2;
        out[2] = tmp12 + tmp1;
        out[3] = tmp13 + tmp0;
        out[4] = tmp13 - tmp0;
        out[5] = tmp12 - tmp1;
        out[6] = tmp11 - tmp2;
        out[7] = tmp10 - tmp3;
        return out;
    }

    private static long descale(long x, int n) {
        return (x + (1L << (n - 1))) >> n;
    }

    /** IJG's post-IDCT range limit: the value wraps at RANGE_MASK, then is clamped around the centre. */
    private static int limit(long v, int rangeBits, int center, int maxSample) {
        int m = (int) (v & ((1 << rangeBits) - 1));
        int signed = m >= 1 << (rangeBits - 1) ? m - (1 << rangeBits) : m;
        return Math.max(0, Math.min(maxSample, signed + center));
    }

    private int u8() {
        return data[pos++] & 0xFF;
    }

    private int u16() {
        return u8() << 8 | u8();
    }

    /** Canonical Huffman decoding (ISO/IEC 10918-1 F.2.2.3). */
    private static final class Huffman {
        private final int[] maxCode = new int[18];
        private final int[] valPtr = new int[17];
        private final int[] minCode = new int[17];
        private final int[] values;
        private final int[] lookahead = new int[1 << LOOKAHEAD];

        Huffman(int[] counts, int[] values) {
            this.values = values;
            int code = 0;
            int k = 0;
            for (int len = 1; len <= 16; len++) {
                valPtr[len] = k;
                minCode[len] = code;
                code += counts[len];
                k += counts[len];
                maxCode[len] = counts[len] == 0 ? -1 : code - 1;
                code <<= 1;
            }
            maxCode[17] = Integer.MAX_VALUE;
            // codes of up to LOOKAHEAD bits: (length << 8 | value) for every LOOKAHEAD-bit prefix starting with them
            for (int len = 1; len <= LOOKAHEAD; len++) {
                for (int i = 0; maxCode[len] >= 0 && i <= maxCode[len] - minCode[len]; i++) {
                    int prefix = (minCode[len] + i) << (LOOKAHEAD - len);
                    for (int fill = 0; fill < 1 << (LOOKAHEAD - len); fill++) {
                        lookahead[prefix | fill] = len << 8 | values[valPtr[len] + i];
                    }
                }
            }
        }

        int decode(BitReader bits) throws ImageDecodeException {
            int peek = bits.peek16();
            int fast = lookahead[peek >>> (16 - LOOKAHEAD)];
            if (fast != 0) {
                bits.skip(fast >>> 8);
                return fast & 0xFF;
            }
            for (int len = LOOKAHEAD + 1; len <= 16; len++) {
                int code = peek >>> (16 - len);
                if (maxCode[len] >= 0 && code <= maxCode[len]) {
                    bits.skip(len);
                    return values[valPtr[len] + code - minCode[len]];
                }
            }
            throw new ImageDecodeException("JPEG data holds a Huffman code no table defines (damaged data)");
        }
    }

    /** Entropy-coded bits, with 0xFF00 unstuffed; a marker ends the data (zeros are read past it, as IJG does). */
    private final class BitReader {
        private long buffer; // the next bits, right-aligned: the lowest `count` bits are unread
        private int count;
        private int at = pos;
        private boolean atMarker;

        int bit() {
            if (count == 0) {
                fill();
            }
            count--;
            return (int) (buffer >>> count) & 1;
        }

        int bits(int n) {
            if (count < n) {
                fill();
            }
            count -= n;
            return (int) (buffer >>> count) & ((1 << n) - 1);
        }

        /** The next 16 bits without consuming them. */
        int peek16() {
            if (count < 16) {
                fill();
            }
            return (int) (buffer >>> (count - 16)) & 0xFFFF;
        }

        void skip(int n) {
            count -= n;
        }

        /** Tops the buffer up to at least 48 bits. */
        private void fill() {
            while (count <= 48) {
                int b = 0;
                if (!atMarker && at < data.length) {
                    b = data[at] & 0xFF;
                    if (b == 0xFF) {
                        int next = at + 1 < data.length ? data[at + 1] & 0xFF : 0xD9;
                        if (next == 0) {
                            at += 2;
                        } else {
                            atMarker = true;
                            b = 0;
                        }
                    } else {
                        at++;
                    }
                }
                buffer = buffer << 8 | b;
                count += 8;
            }
        }

        /** Skips to just after the RSTn marker that should come next (buffered bits are dropped). */
        void restart() throws ImageDecodeException {
            count = 0;
            buffer = 0;
            while (at + 1 < data.length && !((data[at] & 0xFF) == 0xFF && (data[at + 1] & 0xFF) >= 0xD0
                    && (data[at + 1] & 0xFF) <= 0xD7)) {
                at++;
            }
            if (at + 1 >= data.length) {
                throw new ImageDecodeException("JPEG restart marker missing (truncated data)");
            }
            at += 2;
            atMarker = false;
        }

        int end() {
            return at;
        }
    }
}
