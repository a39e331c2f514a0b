package org.medjava.bench.zmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The plan both ends of a perf pair get: the text the C programs parse, and the counts scaled by size. */
class PerfPlanTest {
    @Test
    void bigMessagesGetFewerButBoundedCounts() {
        PerfPlan p = PerfPlan.scaled(List.of(1, 65536), 1_000_000, 10_000, 1L << 30);
        // the first size warms up as long as it measures (JIT, connection), the others a tenth
        assertThat(p.steps()).containsExactly(new PerfPlan.Step(1, 1_000_000, 1_000_000),
                new PerfPlan.Step(65536, 1_638, 16_384));
        assertThat(p.toString()).isEqualTo("1:1000000:1000000,65536:1638:16384");
        assertThat(PerfPlan.parse(p.toString())).isEqualTo(p);
        assertThat(PerfPlan.scaled(List.of(65536), 100, 30, 1024).steps().get(0).count()).isEqualTo(30);
    }

    @Test
    void everyPlanCoversTheWhitepapersSizes() {
        for (MessagingPlan plan : List.of(MessagingPlan.full(), MessagingPlan.quick())) {
            assertThat(plan.latency().steps()).extracting(PerfPlan.Step::size).containsExactlyElementsOf(MessagingPlan.SIZES);
            assertThat(plan.throughput().steps()).extracting(PerfPlan.Step::size)
                    .containsExactlyElementsOf(MessagingPlan.SIZES);
        }
        assertThat(MessagingPlan.quick().smokeTest()).isTrue();
        assertThat(MessagingPlan.full().runs()).isGreaterThan(1);
    }

    @Test
    void aMalformedPlanIsRefused() {
        assertThatThrownBy(() -> PerfPlan.parse("64:10")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PerfPlan.parse("0:1:1")).isInstanceOf(IllegalArgumentException.class);
    }
}
