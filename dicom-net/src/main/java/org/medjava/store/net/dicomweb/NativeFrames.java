package org.medjava.store.net.dicomweb;

import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.DicomInputStream;
import com.pixelmed.dicom.TagFromName;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import org.medjava.store.core.index.InstanceSummary;
import org.medjava.store.core.transcode.TransferSyntaxes;

/**
 * Where the frames of an uncompressed little-endian instance lie in its stored file, so that they are sent as they
 * lie there (their bytes are already what WADO-RS sends) instead of being parsed, converted and copied. The size of
 * Pixel Data follows from the index (rows, columns, bits, frames); its element header stands right before the file's
 * last bytes with that very length (8 or 12 bytes read, no parsing), or, when something follows it (trailing
 * padding), where PixelMed stops reading the header before it. Anything else (big endian, deflate, 1-bit, a size
 * other than the index says) is not located here and takes PixelMed's path.
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
        long pixelData = -2; // where PixelMed finds it, once asked (-1: nowhere)
        for (int samples : new int[] {1, 3}) { // monochrome or palette, then colour
            long frame = (long) i.rows() * i.columns() * samples * (i.bitsAllocated() / 8);
            long value = frame * count;
            long length = value + (value & 1);
            if (frame == 0 || length > 0xFFFFFFFEL || size - length - header < 0) {
                continue;
            }
            if (isHeader(file, b, size - length - header, explicit, length)) {
                return new Layout(size - length, frame, count);
            }
            if (pixelData == -2) {
                pixelData = pixelDataElement(file);
            }
            if (pixelData >= 0 && pixelData + header + length <= size
                    && isHeader(file, b, pixelData, explicit, length)) {
                return new Layout(pixelData + header, frame, count);
            }
        }
        return null;
    }

    /** Whether Pixel Data's element header, with a value of {@code length} bytes, is at {@code at}. */
    private static boolean isHeader(FileChannel file, ByteBuffer b, long at, boolean explicit, long length)
            throws IOException {
        b.clear();
        while (b.hasRemaining()) {
            if (file.read(b, at + b.position()) < 0) {
                return false;
            }
        }
        return b.getShort(0) == GROUP && b.getShort(2) == ELEMENT && (explicit ? b.get(4) == 'O'
                && (b.get(5) == 'W' || b.get(5) == 'B') && b.getShort(6) == 0
                && Integer.toUnsignedLong(b.getInt(8)) == length
                : Integer.toUnsignedLong(b.getInt(4)) == length);
    }

    /**
     * Where the top-level Pixel Data element begins, as PixelMed reads the data set up to it (it stops just past
     * the element's tag); -1 when it does not find it.
     */
    private static long pixelDataElement(FileChannel file) throws IOException {
        AttributeList list = new AttributeList();
        try {
            DicomInputStream in = new DicomInputStream(new BufferedInputStream(Channels.newInputStream(
                    file.position(0)), 16 * 1024));
            long stopped = list.read(in, TagFromName.PixelData);
            return list.get(TagFromName.PixelData) == null && stopped >= 4 ? stopped - 4 : -1;
        } catch (DicomException e) {
            return -1;
        }
    }
}
