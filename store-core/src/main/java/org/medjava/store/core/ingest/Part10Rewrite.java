package org.medjava.store.core.ingest;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.DicomInputStream;
import com.pixelmed.dicom.FileMetaInformation;
import com.pixelmed.dicom.TagFromName;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import org.medjava.codec.dicom.PixelMedInput;
import org.medjava.store.core.memory.SmallReads;

/**
 * A stored Part 10 file written again with an edited data set, in its own transfer syntax, its Pixel Data element
 * byte for byte: encapsulated pixel data are not parsed but copied from the file as they are (fragments, padding and
 * offset table), native ones are written back unchanged. The file meta information is made anew for the edited data
 * set. Shared by the writers that change a stored object's attributes and never its pixels (de-identification,
 * corrections).
 */
public final class Part10Rewrite {

    /** What is done to the data set read (without its encapsulated pixel data): the data set to write. */
    @FunctionalInterface
    public interface Edit<E extends Exception> {
        AttributeList apply(AttributeList source) throws E;
    }

    /** Attributes other than padding and signatures follow encapsulated pixel data: they could not be kept. */
    public static final class AfterPixelData extends IOException {
        private static final long serialVersionUID = 1L;

        AfterPixelData(Path file) {
            super(file + ": attributes follow its encapsulated pixel data");
        }
    }

    private static final Set<String> NATIVE = Set.of("1.2.840.10008.1.2", "1.2.840.10008.1.2.1",
            "1.2.840.10008.1.2.1.99", "1.2.840.10008.1.2.2");

    private Part10Rewrite() {
    }

    /**
     * Reads {@code file}, hands its data set to {@code edit} and writes what it gives back to {@code out} (left
     * open). Nothing is written when {@code edit} throws.
     *
     * @throws AfterPixelData when attributes other than padding and signatures follow encapsulated pixel data
     * @throws IOException    when the file cannot be read as DICOM or the result cannot be written
     */
    public static <E extends Exception> void rewrite(Path file, OutputStream out, Edit<E> edit) throws IOException, E {
        AttributeList source = new AttributeList();
        source.setDecompressPixelData(false);
        long[] pixelData = {-1};
        try (DicomInputStream in = PixelMedInput.open(SmallReads.open(file))) {
            // encapsulated pixel data are not parsed: their bytes are copied from the file
            source.read(in, (list, tag, offset) -> {
                if (list == source && tag.equals(TagFromName.PixelData) && encapsulated(list)) {
                    pixelData[0] = offset;
                    return true;
                }
                return false;
            });
        } catch (DicomException e) {
            throw new IOException(file + " does not parse: " + e.getMessage(), e);
        }
        String ts = Attribute.getSingleStringValueOrEmptyString(source, TagFromName.TransferSyntaxUID).strip();
        if (ts.isEmpty()) {
            throw new IOException(file + " has no transfer syntax in its file meta information");
        }
        long[] copy = pixelData[0] < 0 ? null : encapsulatedPixelData(file, pixelData[0]);
        AttributeList edited = edit.apply(source);
        OutputStream kept = new FilterOutputStream(out) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
            }

            @Override
            public void close() throws IOException {
                flush(); // the caller's stream stays open: the pixel data follow
            }
        };
        try {
            edited.removeGroupLengthAttributes();
            edited.removeMetaInformationHeaderAttributes();
            FileMetaInformation.addFileMetaInformation(edited, ts, "MEDJAVA");
            edited.write(kept, ts, true, true);
        } catch (DicomException e) {
            throw new IOException("cannot write " + file.getFileName() + " again: " + e.getMessage(), e);
        }
        if (copy != null) {
            try (InputStream in = SmallReads.open(file)) {
                in.skipNBytes(copy[0]);
                SmallReads.bounded(in).transferTo(new FilterOutputStream(out) {
                    private long left = copy[1] - copy[0];

                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        int n = (int) Math.min(len, left);
                        out.write(b, off, n);
                        left -= n;
                    }
                });
            }
        }
        out.flush();
    }

    private static boolean encapsulated(AttributeList list) {
        return !NATIVE.contains(Attribute.getSingleStringValueOrEmptyString(list, TagFromName.TransferSyntaxUID)
                .strip());
    }

    /**
     * Where the encapsulated Pixel Data element is in the file, from its tag to the end of its sequence delimiter
     * (PS3.5 A.4): {start, end}.
     *
     * @param near where PixelMed's reader met it (its tag, or just after)
     */
    private static long[] encapsulatedPixelData(Path file, long near) throws IOException {
        byte[] header = {(byte) 0xE0, 0x7F, 0x10, 0x00, 'O', 'B', 0, 0, -1, -1, -1, -1};
        long size = Files.size(file);
        try (FileChannel ch = FileChannel.open(file)) {
            long start = -1;
            for (long at : new long[] {near, near - 4}) {
                byte[] found = at < 0 ? null : read(ch, at, 12);
                if (found != null && found[5] == 'W') {
                    found[5] = 'B'; // some writers label encapsulated pixel data OW
                }
                if (Arrays.equals(found, header)) {
                    start = at;
                }
            }
            if (start < 0) {
                throw new IOException(file + ": the encapsulated Pixel Data element is not where it was read");
            }
            long at = start + 12;
            while (true) {
                ByteBuffer item = ByteBuffer.wrap(read(ch, at, 8)).order(ByteOrder.LITTLE_ENDIAN);
                int tag = item.getInt(0);
                long length = Integer.toUnsignedLong(item.getInt(4));
                at += 8;
                if (tag == 0xE0DDFFFE) {
                    break;
                }
                if (tag != 0xE000FFFE || at + length > size) {
                    throw new IOException(file + ": encapsulated Pixel Data are not a sequence of items");
                }
                at += length;
            }
            if (at < size && (Short.toUnsignedInt(ByteBuffer.wrap(read(ch, at, 2))
                    .order(ByteOrder.LITTLE_ENDIAN).getShort()) < 0xFFFA)) {
                throw new AfterPixelData(file);
            }
            return new long[] {start, at};
        }
    }

    private static byte[] read(FileChannel ch, long at, int n) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(n);
        while (b.hasRemaining()) {
            if (ch.read(b, at + b.position()) < 0) {
                throw new java.io.EOFException("the file ends inside its pixel data");
            }
        }
        return b.array();
    }
}
