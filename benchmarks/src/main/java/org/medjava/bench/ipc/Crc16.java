package org.medjava.bench.ipc;

/**
 * CRC-16/CCITT-FALSE (polynomial 0x1021, initial value 0xFFFF, not reflected, no final xor; the check value of
 * "123456789" is 0x29B1), table-driven: the same algorithm as {@code src/main/c/ipc/blocks.c}.
 */
public final class Crc16 {
    public static final int CHECK_VALUE = 0x29B1;
    private static final int[] TABLE = new int[256];

    static {
        for (int i = 0; i < 256; i++) {
            int c = i << 8;
            for (int b = 0; b < 8; b++) {
                c = (c & 0x8000) != 0 ? ((c << 1) ^ 0x1021) & 0xFFFF : (c << 1) & 0xFFFF;
            }
            TABLE[i] = c;
        }
    }

    private Crc16() {
    }

    public static int of(byte[] data, int offset, int length) {
        int crc = 0xFFFF;
        for (int i = offset; i < offset + length; i++) {
            crc = ((crc << 8) ^ TABLE[((crc >>> 8) ^ data[i]) & 0xFF]) & 0xFFFF;
        }
        return crc;
    }
}
