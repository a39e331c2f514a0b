package org.medjava.store.core.index;

import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.DicomInputStream;
import com.pixelmed.dicom.TagFromName;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Indexes test files as the store does: each file parsed once (its header, up to Pixel Data) into an
 * {@link IndexEntry}, then {@link DicomIndex#put(IndexEntry, long, long) put} with the file's size and time.
 */
public final class IndexFiles {

    private IndexFiles() {
    }

    /** Indexes {@code file} at {@code storePath}; see {@link #entry}. */
    public static InstanceSummary put(DicomIndex index, String storePath, Path file) {
        try {
            return index.put(entry(storePath, file), Files.size(file), Files.getLastModifiedTime(file).toMillis());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The index entry of {@code file} at {@code storePath}.
     *
     * @throws IndexException           when the header lacks a study, series or SOP Instance UID
     * @throws IllegalArgumentException when {@code storePath} is not a valid store path
     */
    public static IndexEntry entry(String storePath, Path file) {
        return IndexEntry.of(storePath, header(file));
    }

    /** The header of {@code file}, up to (not including) Pixel Data. */
    public static AttributeList header(Path file) {
        AttributeList list = new AttributeList();
        list.setDecompressPixelData(false);
        try (DicomInputStream in = new DicomInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
            list.read(in, TagFromName.PixelData);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (DicomException e) {
            throw new IllegalStateException(file + ": " + e.getMessage(), e);
        }
        return list;
    }
}
