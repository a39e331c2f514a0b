package org.medjava.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CancellationTest {

    @Test
    void aThreadWithoutTokenPassesEveryCheck() {
        assertThat(Cancellation.current()).isNull();
        Cancellation.check();
        assertThat(Cancellation.isCancelled()).isFalse();
    }

    @Test
    void aCancelledTokenStopsTheNextCheckWithTheFirstReason() {
        Cancellation.Token token = new Cancellation.Token();
        try (Cancellation.Scope bound = Cancellation.bind(token)) {
            Cancellation.check();
            assertThat(token.cancel("deadline passed")).isTrue();
            assertThat(token.cancel("client went away")).isFalse();
            assertThatThrownBy(Cancellation::check).isInstanceOf(FilterCancelledException.class)
                    .hasMessage("deadline passed");
        }
        assertThat(Cancellation.current()).isNull();
        Cancellation.check(); // unbound again
    }

    @Test
    void bindingRestoresTheOuterToken() {
        Cancellation.Token outer = new Cancellation.Token();
        Cancellation.Token inner = new Cancellation.Token();
        try (Cancellation.Scope a = Cancellation.bind(outer)) {
            try (Cancellation.Scope b = Cancellation.bind(inner)) {
                assertThat(Cancellation.current()).isSameAs(inner);
            }
            assertThat(Cancellation.current()).isSameAs(outer);
        }
    }

    @Test
    void rowBandsRunTheirHelpersWithTheCallersToken() {
        Cancellation.Token token = new Cancellation.Token();
        Set<Cancellation.Token> seen = ConcurrentHashMap.newKeySet();
        try (Cancellation.Scope bound = Cancellation.bind(token)) {
            RowBands.run(0, 4000, 1, (from, to) -> {
                seen.add(Cancellation.current() == null ? new Cancellation.Token() : Cancellation.current());
            });
        }
        assertThat(seen).containsExactly(token); // every band, on whichever thread, saw the caller's token
    }

    @Test
    void aCancelledCallStopsEveryBandAndRowBandsRethrows() {
        Cancellation.Token token = new Cancellation.Token();
        AtomicInteger rows = new AtomicInteger();
        try (Cancellation.Scope bound = Cancellation.bind(token)) {
            assertThatThrownBy(() -> RowBands.run(0, 100_000, 1, (from, to) -> {
                for (int y = from; y < to; y++) {
                    Cancellation.check();
                    if (rows.incrementAndGet() == 10) {
                        token.cancel("stop");
                    }
                }
            })).isInstanceOf(FilterCancelledException.class).hasMessage("stop");
        }
        assertThat(rows.get()).isLessThan(100_000);
    }
}
