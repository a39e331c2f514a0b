package org.medjava.store.core.index;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.medjava.codec.ImageFormat;
import org.medjava.store.core.storage.ObjectStorage;
import org.medjava.store.core.storage.StorageEntry;

/**
 * The rebuild of the index from the stored objects: every DICOM object is indexed again, and the entries without a
 * good object behind them are removed (see {@link DicomIndex#rebuild}).
 */
final class IndexRebuild {
    private static final System.Logger LOG = System.getLogger(DicomIndex.class.getName());

    private final IndexSession session;
    private final IndexWriter writer;
    private final IndexQueries queries;

    IndexRebuild(IndexSession session, IndexWriter writer, IndexQueries queries) {
        this.session = session;
        this.writer = writer;
        this.queries = queries;
    }

    /** See {@link DicomIndex#rebuild}. */
    RebuildReport rebuild(ObjectStorage storage) {
        session.ensureOpen();
        long start = System.nanoTime();
        SortedMap<String, String> failed = new TreeMap<>();
        SortedMap<String, StorageEntry> objects = walk(storage);
        Set<String> indexed = new HashSet<>();
        Map<String, long[]> trashed = session.read("reading the trash", IndexTrash::marks);
        int skipped = 0;
        for (Map.Entry<String, StorageEntry> entry : objects.entrySet()) {
            String path = entry.getKey();
            long size = entry.getValue().size();
            long[] mark = trashed.get(path);
            if (mark != null && mark[0] == size && mark[1] == entry.getValue().modified().toEpochMilli()) {
                skipped++; // in the trash: restored or purged there, not indexed here
                continue;
            }
            try {
                if (!isDicom(storage, path, size)) {
                    skipped++;
                    continue;
                }
                try (InputStream in = storage.open(path, 0, size)) {
                    ParsedInstance.preScan(path, in, size);
                }
                ParsedInstance parsed;
                try (InputStream in = storage.open(path, 0, size)) {
                    parsed = ParsedInstance.parse(path, in, size, entry.getValue().modified().toEpochMilli());
                }
                session.write("indexing " + path,
                        em -> writer.upsertAll(em, List.of(new IndexWriter.PendingPut(path, parsed))));
                indexed.add(path);
            } catch (IOException e) {
                failed.put(path, "cannot read the file: " + e);
            } catch (IndexException e) {
                String message = e.getMessage();
                failed.put(path, message.startsWith(path + ": ") ? message.substring(path.length() + 2) : message);
            } catch (RuntimeException e) {
                // one object the parser or the database chokes on is reported, never the end of the rebuild
                LOG.log(System.Logger.Level.WARNING, "indexing " + path + " failed", e);
                failed.put(path, "cannot be indexed: its header could not be read (the server log has the details)");
            }
        }
        // Entries without a good object behind them. One that is DICOM now but was not walked was PUT meanwhile.
        List<String> stale = new ArrayList<>();
        for (String path : queries.allPaths()) {
            if (!indexed.contains(path) && (failed.containsKey(path) || !isIndexableFile(storage, path))) {
                stale.add(path);
            }
        }
        int removed = 0;
        for (int from = 0; from < stale.size(); from += IndexQueries.IN_CHUNK) {
            List<String> chunk = stale.subList(from, Math.min(stale.size(), from + IndexQueries.IN_CHUNK));
            removed += session.write("removing stale entries", em -> writer.removeAll(em, chunk));
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        LOG.log(System.Logger.Level.INFO, "DICOM index rebuilt from {0}: {1} files indexed, {2} not DICOM, {3} failed,"
                + " {4} stale entries removed, in {5} ms", storage.describe(), indexed.size(), skipped, failed.size(),
                removed, elapsed.toMillis());
        return new RebuildReport(indexed.size(), skipped, failed, removed, elapsed);
    }

    /** See {@link DicomIndex#reindex}. */
    boolean reindex(ObjectStorage storage, String storePath) throws IOException {
        session.ensureOpen();
        String path = StorePaths.file(storePath);
        ParsedInstance parsed = parseStored(storage, path);
        if (parsed != null) {
            ParsedInstance instance = parsed;
            session.write("indexing " + path,
                    em -> writer.upsertAll(em, List.of(new IndexWriter.PendingPut(path, instance))));
            return true;
        }
        session.write("removing " + path, em -> writer.removeAll(em, List.of(path)));
        return false;
    }

    /**
     * The header of the DICOM object stored at {@code path}, parsed for the index; null when there is none there,
     * it is not DICOM, or it is damaged (logged).
     *
     * @throws IOException when the storage cannot be read (nothing is decided)
     */
    ParsedInstance parseStored(ObjectStorage storage, String path) throws IOException {
        Optional<StorageEntry> entry = storage.stat(path);
        if (entry.isEmpty() || entry.get().directory() || !isDicom(storage, path, entry.get().size())) {
            return null;
        }
        long size = entry.get().size();
        try {
            try (InputStream in = storage.open(path, 0, size)) {
                ParsedInstance.preScan(path, in, size); // before PixelMed recurses into hostile nesting
            }
            try (InputStream in = storage.open(path, 0, size)) {
                return ParsedInstance.parse(path, in, size, entry.get().modified().toEpochMilli());
            }
        } catch (IndexException e) { // a damaged object is not indexed, as by a rebuild
            LOG.log(System.Logger.Level.WARNING, "{0} cannot be indexed ({1})", path, e.getMessage());
            return null;
        }
    }

    /** The objects in {@code storage} by store path (the storage leaves out hidden files and directories). */
    private static SortedMap<String, StorageEntry> walk(ObjectStorage storage) {
        SortedMap<String, StorageEntry> objects = new TreeMap<>();
        try {
            storage.walk("", entry -> {
                if (!entry.directory()) {
                    objects.put(entry.key(), entry);
                }
            });
        } catch (IOException e) {
            throw new IndexException("cannot rebuild the DICOM index: cannot list " + storage.describe() + ": " + e,
                    e);
        }
        return objects;
    }

    /** Whether the object at {@code key}, of {@code size} bytes, is DICOM Part 10 ("DICM" at offset 128). */
    private static boolean isDicom(ObjectStorage storage, String key, long size) throws IOException {
        try (InputStream head = storage.open(key, 0, Math.min(ImageFormat.SNIFF_LENGTH, size))) {
            return ParsedInstance.isDicom(head);
        }
    }

    /** Whether the object at {@code storePath} in {@code storage} is one that a rebuild indexes. */
    private static boolean isIndexableFile(ObjectStorage storage, String storePath) {
        for (String segment : storePath.split("/")) {
            if (segment.startsWith(".")) {
                return false;
            }
        }
        try {
            Optional<StorageEntry> entry = storage.stat(storePath);
            return entry.isPresent() && !entry.get().directory() && isDicom(storage, storePath, entry.get().size());
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
