package org.medjava.store.core.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link CachedStorage} held to the {@link ObjectStorageContract} (over the file system standing in for S3), and
 * its cache: a hit asks the storage below nothing, the least recently used copies go at the bound, a write drops
 * the copy and tells the coherence, a copy begun before an invalidation is not kept, and nothing is served while
 * the coherence does not trust the cache.
 */
class CachedStorageTest extends ObjectStorageContract {
    private static final long BOUND = 4096;

    private Path below;
    private CachedStorage cached;
    private final List<String> told = new ArrayList<>();
    private volatile boolean trusted = true;

    @Override
    protected ObjectStorage newStorage(Path tempDir) throws IOException {
        below = tempDir.resolve("images");
        cached = new CachedStorage(new LocalFileStorage(below), new ObjectCache(tempDir.resolve("cache"), BOUND,
                BOUND / 4));
        cached.coherence(new CacheCoherence() {
            @Override
            public boolean trusted() {
                return trusted;
            }

            @Override
            public void changed(String key) {
                told.add(key);
            }
        });
        return cached;
    }

    private byte[] readWhole(String key) throws IOException {
        try (ObjectRead r = storage.read(key).orElseThrow()) {
            return r.body().readAllBytes();
        }
    }

    /** Changes the object below the cache, as another node's write that was not heard of would. */
    private void behindItsBack(String key, byte[] bytes) throws IOException {
        Files.write(below.resolve(key), bytes);
    }

    @Test
    void aReadKeepsACopyAndTheNextIsServedFromItWithoutTheStorage() throws IOException {
        StorageEntry written = put("a/x.gif", bytes("version one"));
        assertThat(storage.cached("a/x.gif")).as("nothing copied by a write").isEmpty();
        assertThat(readWhole("a/x.gif")).isEqualTo(bytes("version one"));
        behindItsBack("a/x.gif", bytes("VERSION TWO"));
        assertThat(readWhole("a/x.gif")).as("the copy, not the storage").isEqualTo(bytes("version one"));
        assertThat(storage.stat("a/x.gif").orElseThrow().etag()).isEqualTo(written.etag());
        assertThat(read(storage.open("a/x.gif", 8, 3))).isEqualTo(bytes("one"));
        try (ObjectCache.Open open = storage.cached("a/x.gif").orElseThrow()) {
            assertThat(open.object().etag()).isEqualTo(written.etag());
            ByteBuffer all = ByteBuffer.allocate(32);
            open.channel().read(all, 0);
            assertThat(all.position()).isEqualTo(11);
        }
        assertThat(cached.cache().stats().misses()).isEqualTo(1);
        assertThat(cached.cache().stats().hits()).isEqualTo(3);
    }

    @Test
    void aWriteOrADeleteDropsTheCopyAndTellsTheOtherNodesBeforeItReturns() throws IOException {
        put("a/x.gif", bytes("version one"));
        readWhole("a/x.gif");
        told.clear();
        StorageEntry second = put("a/x.gif", bytes("version two"));
        assertThat(told).containsExactly("a/x.gif");
        assertThat(storage.cached("a/x.gif")).isEmpty();
        assertThat(readWhole("a/x.gif")).isEqualTo(bytes("version two"));
        assertThat(storage.stat("a/x.gif").orElseThrow().etag()).isEqualTo(second.etag());
        assertThat(storage.delete("a/x.gif")).isTrue();
        assertThat(told).containsExactly("a/x.gif", "a/x.gif");
        assertThat(storage.stat("a/x.gif")).isEmpty();
        assertThat(storage.read("a/x.gif")).isEmpty();
        assertThat(cached.cache().stats().invalidated()).isEqualTo(2);
    }

    @Test
    void theLeastRecentlyUsedCopiesGoAtTheBoundAndLargeObjectsAreNotCopied() throws IOException {
        byte[] kilobyte = new byte[1000];
        for (int i = 0; i < 5; i++) {
            put("k/" + i, kilobyte);
            readWhole("k/" + i);
            if (i == 3) {
                readWhole("k/0"); // used again: k/1 is now the least recently used
            }
        }
        ObjectCache.Stats stats = cached.cache().stats();
        assertThat(stats.bytes()).isEqualTo(4000).isLessThanOrEqualTo(BOUND);
        assertThat(stats.evictions()).isEqualTo(1);
        assertThat(storage.cached("k/1")).isEmpty();
        for (String kept : List.of("k/0", "k/2", "k/3", "k/4")) {
            try (ObjectCache.Open open = storage.cached(kept).orElseThrow()) {
                assertThat(open.object().size()).as(kept).isEqualTo(1000);
            }
        }
        put("big", new byte[(int) BOUND / 4 + 1]);
        assertThat(readWhole("big")).hasSize((int) BOUND / 4 + 1);
        assertThat(storage.cached("big")).isEmpty();
        try (var files = Files.list(tempDir.resolve("cache"))) {
            assertThat(files.count()).as("one file per copy kept, none left behind").isEqualTo(4);
        }
    }

    @Test
    void aCopyBegunBeforeAnInvalidationIsNotKept() throws IOException {
        ObjectCache cache = cached.cache();
        StorageEntry old = new StorageEntry("a/x.gif", false, 3, java.time.Instant.now(), "\"old\"");
        long generation = cache.generation("a/x.gif");
        cache.invalidate("a/x.gif"); // the write that replaced it came while the old one was being read
        ObjectCache.Copy copy = cache.copy("a/x.gif", old, new ByteArrayInputStream(bytes("old")), generation);
        assertThat(copy.kept()).isFalse();
        assertThat(cache.peek("a/x.gif")).isEmpty();
        ObjectCache.release(copy.file());
        long now = cache.generation("a/x.gif");
        assertThat(cache.copy("a/x.gif", old, new ByteArrayInputStream(bytes("old")), now).kept()).isTrue();
        cache.invalidateAll();
        assertThat(cache.peek("a/x.gif")).isEmpty();
    }

    @Test
    void nothingIsServedFromTheCacheWhileTheCoherenceDoesNotTrustIt() throws IOException {
        put("a/x.gif", bytes("version one"));
        readWhole("a/x.gif");
        trusted = false; // this node stopped hearing of the others' writes
        behindItsBack("a/x.gif", bytes("VERSION TWO"));
        assertThat(storage.cached("a/x.gif")).isEmpty();
        assertThat(readWhole("a/x.gif")).isEqualTo(bytes("VERSION TWO"));
        assertThat(read(storage.open("a/x.gif", 0, 7))).isEqualTo(bytes("VERSION"));
    }

}
