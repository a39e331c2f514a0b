package org.medjava.store.core.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.core.StoreException;

/** The free-space floor: what is refused, what is let through, and what the refusal says. */
class DiskSpaceGuardTest {

    private static final long GIB = 1L << 30;
    private static final Path IMAGES = Path.of("/data/images");
    private static final Path DATA = Path.of("/data");

    private static DiskSpaceGuard guard(long floor, Map<Path, Long> free) {
        return new DiskSpaceGuard(floor, List.copyOf(free.keySet()), dir -> {
            long bytes = free.get(dir);
            if (bytes < 0) {
                throw new IOException("statfs failed");
            }
            return bytes;
        });
    }

    @Test
    void belowTheFloorAWriteIsRefusedWith507SayingHowMuchIsFreeAndTheFloor() {
        DiskSpaceGuard guard = guard(GIB, Map.of(IMAGES, 512L << 20));

        assertThatThrownBy(guard::checkWritable).isInstanceOfSatisfying(StoreException.class, e -> {
            assertThat(e.kind()).isEqualTo(StoreException.Kind.INSUFFICIENT_STORAGE);
            assertThat(e.kind().status).isEqualTo(507);
            assertThat(e.getMessage()).startsWith("disk nearly full: 512.0 MiB free, floor 1.0 GiB; writes are refused")
                    .contains("536870912 bytes free on the disk of /data/images", "floor of 1073741824 bytes",
                            "medjava.storage.min-free-bytes", "reads go on");
        });
        assertThat(guard.status().writable()).isFalse();
    }

    @Test
    void atOrAboveTheFloorWritesGoAhead() {
        assertThatCode(() -> guard(GIB, Map.of(IMAGES, GIB)).checkWritable()).doesNotThrowAnyException();
        assertThatCode(() -> guard(GIB, Map.of(IMAGES, 5 * GIB)).checkWritable()).doesNotThrowAnyException();
        assertThat(guard(GIB, Map.of(IMAGES, GIB)).status().writable()).isTrue();
    }

    @Test
    void aBodyThatWouldTakeTheDiskBelowTheFloorIsRefusedBeforeItIsWritten() {
        DiskSpaceGuard guard = guard(GIB, Map.of(IMAGES, GIB + 1000));

        assertThatCode(() -> guard.checkWritable(1000)).doesNotThrowAnyException();
        assertThatThrownBy(() -> guard.checkWritable(1001)).isInstanceOfSatisfying(StoreException.class,
                e -> assertThat(e.getMessage()).startsWith("disk nearly full: a body of 1001 bytes would leave 1024.0 MiB;"));
        assertThatCode(() -> guard.checkWritable(-1)).as("unknown length: only the floor counts")
                .doesNotThrowAnyException();
    }

    @Test
    void theDirectoryWithTheLeastFreeSpaceDecides() {
        DiskSpaceGuard guard = guard(GIB, Map.of(IMAGES, 10 * GIB, DATA, 100L << 20));

        DiskSpaceGuard.Status status = guard.status();
        assertThat(status.directory()).isEqualTo(DATA);
        assertThat(status.freeBytes()).isEqualTo(100L << 20);
        assertThatThrownBy(guard::checkWritable).hasMessageContaining("disk of /data,");
    }

    @Test
    void whenTheFreeSpaceCannotBeReadWritesGoAhead() {
        DiskSpaceGuard guard = guard(GIB, Map.of(IMAGES, -1L));

        assertThatCode(guard::checkWritable).doesNotThrowAnyException();
        assertThat(guard.status().freeBytes()).isEqualTo(-1);
        assertThat(guard.status().writable()).isTrue();
        assertThat(guard.status().describe()).contains("cannot be read");
    }

    @Test
    void aFloorOfZeroNeverRefuses() {
        assertThatCode(() -> guard(0, Map.of(IMAGES, 0L)).checkWritable(1L << 40)).doesNotThrowAnyException();
        assertThatCode(() -> DiskSpaceGuard.none().checkWritable(1L << 40)).doesNotThrowAnyException();
    }

    @Test
    void aNegativeFloorIsRefusedNamingTheSetting() {
        assertThatThrownBy(() -> new DiskSpaceGuard(-1, List.of(IMAGES)))
                .hasMessageContaining("medjava.storage.min-free-bytes");
    }

    @Test
    void theRealFileSystemIsRead(@TempDir Path dir) {
        DiskSpaceGuard.Status status = new DiskSpaceGuard(1, List.of(dir)).status();

        assertThat(status.freeBytes()).isPositive();
        assertThat(status.directory()).isEqualTo(dir);
    }

    @Test
    void outOfSpaceIsRecognisedInACauseChain() {
        IOException enospc = new IOException("No space left on device");

        assertThat(DiskSpaceGuard.isOutOfSpace(enospc)).isTrue();
        assertThat(DiskSpaceGuard.isOutOfSpace(new java.io.UncheckedIOException(enospc))).isTrue();
        assertThat(DiskSpaceGuard.isOutOfSpace(new IOException("Disk quota exceeded"))).isTrue();
        assertThat(DiskSpaceGuard.isOutOfSpace(new IOException("Connection reset"))).isFalse();
    }
}
