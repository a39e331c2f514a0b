package org.medjava.store.core.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;
import org.medjava.store.core.BusyException;

/** {@link UploadSlots}: large uploads beyond the cap are 503 with Retry-After; small ones never wait. */
class UploadSlotsTest {

    @Test
    void largeUploadsBeyondTheCapAreBusySmallOnesPass() {
        UploadSlots slots = new UploadSlots(1000, 2);
        try (UploadSlots.Slot a = slots.admit(1000); UploadSlots.Slot b = slots.admit(5000)) {
            assertThat(slots.inUse()).isEqualTo(2);
            assertThatThrownBy(() -> slots.admit(1000)).isInstanceOfSatisfying(BusyException.class,
                    e -> assertThat(e.retryAfterSeconds()).isPositive())
                    .hasMessageContaining("2 large uploads").hasMessageContaining("medjava.upload.max-concurrent-large");
            try (UploadSlots.Slot small = slots.admit(999)) {
                assertThat(small.held()).isFalse();
            }
        }
        assertThat(slots.inUse()).isZero();
        slots.admit(1000).close();
    }

    @Test
    void aChunkedBodyTakesASlotOnceItGrowsLarge() throws IOException {
        UploadSlots slots = new UploadSlots(1000, 1);
        try (UploadSlots.Slot chunked = slots.admit(-1)) {
            InputStream body = chunked.watch(new ByteArrayInputStream(new byte[3000]));
            body.readNBytes(999);
            assertThat(slots.inUse()).isZero();
            body.readNBytes(10);
            assertThat(slots.inUse()).isEqualTo(1);
            try (UploadSlots.Slot other = slots.admit(-1)) {
                InputStream second = other.watch(new ByteArrayInputStream(new byte[3000]));
                assertThatThrownBy(second::readAllBytes).isInstanceOf(BusyException.class);
            }
            body.readAllBytes();
        }
        assertThat(slots.inUse()).isZero();
    }
}
