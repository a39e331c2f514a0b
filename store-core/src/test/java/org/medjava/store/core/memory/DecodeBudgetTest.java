package org.medjava.store.core.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.medjava.store.core.BusyException;
import org.medjava.store.core.StoreException;

/** {@link DecodeBudget}: a byte semaphore; 413 for what never fits, 503 with Retry-After while busy. */
class DecodeBudgetTest {

    private static final long MIB = 1 << 20;

    @Test
    void decodesWithinTheBudgetRunTogetherAndGiveTheirBytesBack() {
        DecodeBudget budget = new DecodeBudget(100 * MIB, 0);
        try (DecodeBudget.Permit a = budget.admit(60 * MIB, "a"); DecodeBudget.Permit b = budget.admit(40 * MIB, "b")) {
            assertThat(budget.inUse()).isEqualTo(100 * MIB);
        }
        assertThat(budget.inUse()).isZero();
    }

    @Test
    void closingTwiceGivesBackOnce() {
        DecodeBudget budget = new DecodeBudget(100 * MIB, 0);
        DecodeBudget.Permit a = budget.admit(60 * MIB, "a");
        DecodeBudget.Permit b = budget.admit(10 * MIB, "b");
        a.close();
        a.close();
        assertThat(budget.inUse()).isEqualTo(10 * MIB);
        b.close();
    }

    @Test
    void whatCanNeverFitIsRefusedWith413AndTheNumbers() {
        DecodeBudget budget = new DecodeBudget(100 * MIB, 0);
        assertThatThrownBy(() -> budget.admit(2048 * MIB, "this PNG 268000000x1"))
                .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.kind())
                        .isEqualTo(StoreException.Kind.TOO_LARGE))
                .hasMessageContaining("this PNG 268000000x1 needs about 2048 MiB")
                .hasMessageContaining("decode budget of 100 MiB")
                .hasMessageContaining("medjava.memory.decode-budget-bytes");
        assertThat(budget.inUse()).isZero();
    }

    @Test
    void aFullBudgetAnswers503WithRetryAfterOnceTheWaitIsOver() {
        DecodeBudget budget = new DecodeBudget(100 * MIB, 20);
        try (DecodeBudget.Permit held = budget.admit(90 * MIB, "held")) {
            assertThatThrownBy(() -> budget.admit(20 * MIB, "another"))
                    .isInstanceOfSatisfying(BusyException.class, e -> {
                        assertThat(e.kind()).isEqualTo(StoreException.Kind.UNAVAILABLE);
                        assertThat(e.retryAfterSeconds()).isPositive();
                    })
                    .hasMessageContaining("try again");
            assertThat(budget.inUse()).isEqualTo(90 * MIB);
        }
    }

    @Test
    void aWaitingDecodeProceedsWhenBytesAreGivenBack() throws Exception {
        DecodeBudget budget = new DecodeBudget(100 * MIB, TimeUnit.SECONDS.toMillis(30));
        DecodeBudget.Permit held = budget.admit(90 * MIB, "held");
        CompletableFuture<Long> waiting = CompletableFuture.supplyAsync(() -> {
            try (DecodeBudget.Permit p = budget.admit(20 * MIB, "waiting")) {
                return budget.inUse();
            }
        });
        held.close();
        assertThat(waiting.get(30, TimeUnit.SECONDS)).isEqualTo(20 * MIB);
    }

    @Test
    void theDefaultIsAQuarterOfTheHeap() {
        assertThat(DecodeBudget.defaultCapacity()).isEqualTo(Runtime.getRuntime().maxMemory() / 4);
    }
}
