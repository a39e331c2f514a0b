package org.medjava.store.dicomweb;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import org.medjava.store.index.InstanceSummary;
import org.medjava.store.transcode.TransferSyntaxes;

/**
 * Where the frames of an uncompressed little-endian instance lie in its stored file, so that they are sent as they
 * lie there (their bytes are already what WADO-RS sends) instead of being parsed, converted and copied. The size of
 * Pixel Data follows from the index (rows, columns, bits, frames); its element header must then stand right before
 * the file's last bytes with that very length — 8 or 12 bytes read, no parsing. Anything else (data after Pixel
 * Data, big endian, deflate, 1-bit or an unexpected size) is not located here and takes PixelMed's path.
 */
final class NativeFrames {

    /** The first frame's offset in the file, one frame's length, and how many there are. */
    record Layout(long offset, long frameLength, int count) {
    }

    private static final short GROUP = 0x7FE0;
    private static final short ELEMENT = 0x0010;

    private NativeFrames() {
    }

    /** The frames' layout, or null when it is not located as described above. */
    static Layout locate(FileChannel file, InstanceSummary i) throws IOException {
        String ts = i.transferSyntaxUid() == null ? TransferSyntaxes.EXPLICIT_LE : i.transferSyntaxUid();
        boolean explicit = ts.equals(TransferSyntaxes.EXPLICIT_LE);
        if (!explicit && !ts.equals(TransferSyntaxes.IMPLICIT_LE) || i.rows() == null || i.columns() == null
                || i.bitsAllocated() == null || i.bitsAllocated() % 8 != 0 || i.bitsAllocated() == 0) {
            return null;
        }
        int count = i.numberOfFrames() == null ? 1 : Math.max(1, i.numberOfFrames());
        long size = file.size();
        int header = explicit ? 12 : 8;
        ByteBuffer b = ByteBuffer.allocate(header).order(ByteOrder.LITTLE_ENDIAN);
        for (int samples : new int[] {1, 3}) { // monochrome or palette, then colour
            long frame = (long) i.rows() * i.columns() * samples * (i.bitsAllocated() / 8);
            long value = frame * count;
            long length = value + (value & 1);
            long at = size - length - header;
            if (frame == 0 || at < 0 || length > 0xFFFFFFFEL) {
                continue;
            }
            b.clear();
            while (b.hasRemaining()) {
                if (file.read(b, at + b.position()) < 0) {
                    return null;
                }
            }
            if (b.getShort(0) == GROUP && b.getShort(2) == ELEMENT && (explicit ? b.get(4) == 'O'
                    && (b.get(5) == 'W' || b.get(5) == 'B') && b.getShort(6) == 0
                    && Integer.toUnsignedLong(b.getInt(8)) == length
                    : Integer.toUnsignedLong(b.getInt(4)) == length)) {
                return new Layout(at + header, frame, count);
            }
        }
        return null;
    }
}
