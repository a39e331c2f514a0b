package org.medjava.store.server.front;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The front's small-file cache: served again without opening the file while its ETag holds, never after. */
class SmallFileCacheTest {

    @TempDir
    Path dir;

    private final AtomicInteger opens = new AtomicInteger();

    private SmallFileCache.Opener file(Path path) {
        return () -> {
            opens.incrementAndGet();
            return FileChannel.open(path, StandardOpenOption.READ);
        };
    }

    private static String text(ByteBuf bytes) {
        try {
            return bytes.toString(StandardCharsets.UTF_8);
        } finally {
            bytes.release();
        }
    }

    @Test
    void aFileIsReadOnceWhileItsEtagHoldsAndAgainWhenItChanges() throws IOException {
        Path a = Files.writeString(dir.resolve("a"), "first");
        SmallFileCache cache = new SmallFileCache(1024, 64);
        assertThat(text(cache.bytes("a", "\"1\"", 5, file(a), ByteBufAllocator.DEFAULT))).isEqualTo("first");
        assertThat(text(cache.bytes("a", "\"1\"", 5, file(a), ByteBufAllocator.DEFAULT))).isEqualTo("first");
        assertThat(opens).hasValue(1);
        Files.writeString(a, "second!");
        assertThat(text(cache.bytes("a", "\"2\"", 7, file(a), ByteBufAllocator.DEFAULT))).isEqualTo("second!");
        assertThat(opens).hasValue(2);
        cache.clear();
    }

    @Test
    void holdsNoMoreThanItsBudgetNorLargeFiles() throws IOException {
        SmallFileCache cache = new SmallFileCache(10, 8);
        assertThat(cache.holds(8)).isTrue();
        assertThat(cache.holds(9)).isFalse();
        assertThat(new SmallFileCache(0, 8).holds(1)).as("a budget of 0: no cache").isFalse();
        Path a = Files.writeString(dir.resolve("a"), "aaaaaa");
        Path b = Files.writeString(dir.resolve("b"), "bbbbbb");
        text(cache.bytes("a", "\"a\"", 6, file(a), ByteBufAllocator.DEFAULT));
        text(cache.bytes("b", "\"b\"", 6, file(b), ByteBufAllocator.DEFAULT)); // 12 > 10: one of them goes
        text(cache.bytes("a", "\"a\"", 6, file(a), ByteBufAllocator.DEFAULT));
        text(cache.bytes("b", "\"b\"", 6, file(b), ByteBufAllocator.DEFAULT));
        assertThat(opens.get()).as("never both held").isGreaterThanOrEqualTo(3);
        cache.clear();
    }

    @Test
    void aCallersBufferOutlivesTheEntry() throws IOException {
        Path a = Files.writeString(dir.resolve("a"), "kept");
        SmallFileCache cache = new SmallFileCache(1024, 64);
        ByteBuf held = cache.bytes("a", "\"1\"", 4, file(a), ByteBufAllocator.DEFAULT);
        cache.clear(); // the application stops while an answer is on its way
        assertThat(text(held)).isEqualTo("kept");
    }
}
