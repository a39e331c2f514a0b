package org.medjava.bench.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Both Java transports deliver every byte, including a last chunk smaller than the buffer. */
class TransfersTest {

    @Test
    void everyByteArrives() throws Exception {
        long total = (3L << 20) + 123;
        for (Transfer t : List.of(new StreamTransfer(), new NioTransfer())) {
            for (int buffer : List.of(1024, 65536)) {
                Transfer.Result r = t.transfer(buffer, total);
                assertThat(r.bytes()).as("%s at %d", t.id(), buffer).isEqualTo(total);
                assertThat(r.seconds()).isPositive();
            }
        }
    }
}
