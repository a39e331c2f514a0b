package org.medjava.store.core.testsupport;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;

/**
 * A valid PNG of any size whose pixels are all 0, written to a file as it is made (no row is held in memory but
 * one chunk of zeros): the "small input, large cost" case — a 16384 x 16384 RGB image is about 780 KB, a
 * 268,000,000 x 1 grey one about 260 KB.
 */
public final class BlankPng {

    private BlankPng() {
    }

    /** @param colourType 0 grey, 2 RGB (8 bits per sample) */
    public static Path write(Path file, int width, int height, int colourType) throws IOException {
        int channels = colourType == 2 ? 3 : 1;
        try (DataOutputStream out = new DataOutputStream(new java.io.BufferedOutputStream(
                Files.newOutputStream(file), 1 << 16))) {
            out.write(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'});
            java.io.ByteArrayOutputStream ihdr = new java.io.ByteArrayOutputStream();
            DataOutputStream h = new DataOutputStream(ihdr);
            h.writeInt(width);
            h.writeInt(height);
            h.write(new byte[] {8, (byte) colourType, 0, 0, 0});
            chunk(out, "IHDR", ihdr.toByteArray());
            java.io.ByteArrayOutputStream idat = new java.io.ByteArrayOutputStream();
            Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION);
            try (OutputStream z = new DeflaterOutputStream(idat, deflater, 1 << 16)) {
                byte[] zeros = new byte[1 << 20];
                long rowBytes = 1 + (long) width * channels; // filter byte 0 (None) and the samples
                long left = rowBytes * height;
                while (left > 0) {
                    int n = (int) Math.min(zeros.length, left);
                    z.write(zeros, 0, n);
                    left -= n;
                }
            } finally {
                deflater.end();
            }
            chunk(out, "IDAT", idat.toByteArray());
            chunk(out, "IEND", new byte[0]);
        }
        return file;
    }

    private static void chunk(DataOutputStream out, String type, byte[] data) throws IOException {
        byte[] name = type.getBytes(StandardCharsets.US_ASCII);
        out.writeInt(data.length);
        out.write(name);
        out.write(data);
        CRC32 crc = new CRC32();
        crc.update(name);
        crc.update(data);
        out.writeInt((int) crc.getValue());
    }
}
