package org.medjava.store.server.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.medjava.store.core.testsupport.MovableClock;

/**
 * {@link LoginThrottle}: counting failures per address and per account and address, the doubling delay and its cap,
 * forgetting, the bounded maps, and the bounded number of concurrent password checks. Time is a settable clock.
 */
class LoginThrottleTest {

    private static final String ATTACKER = "203.0.113.7";
    private static final String REAL_USER = "198.51.100.20";

    private final MovableClock clock = new MovableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final AtomicInteger checks = new AtomicInteger();

    private LoginThrottle throttle(int maxFailures, int maxAddressFailures, int maxEntries) {
        return new LoginThrottle(maxFailures, maxAddressFailures, Duration.ofMinutes(5), maxEntries, 2,
                Duration.ofMillis(50), clock);
    }

    /** A password check counting its runs: right when the password is "right". */
    private LoginThrottle.Attempt<String> login(LoginThrottle t, String address, String account, String password) {
        return t.attempt(address, account, false, () -> {
            checks.incrementAndGet();
            return password.equals("right") ? Optional.of(account) : Optional.empty();
        });
    }

    @Test
    void afterMaxFailuresTheNextCheckIsRefusedWithoutRunningEvenWithTheRightPassword() {
        LoginThrottle t = throttle(5, 20, 100);
        for (int i = 0; i < 5; i++) {
            assertThat(login(t, ATTACKER, "alice", "guess" + i).outcome()).isEqualTo(LoginThrottle.Outcome.REJECTED);
        }
        assertThat(checks).hasValue(5);

        LoginThrottle.Attempt<String> refused = login(t, ATTACKER, "alice", "right");

        assertThat(refused.outcome()).isEqualTo(LoginThrottle.Outcome.THROTTLED);
        assertThat(refused.retryAfterSeconds()).isEqualTo(1);
        assertThat(checks).hasValue(5); // no hashing for a throttled attempt
    }

    @Test
    void theDelayDoublesWithEachFurtherFailureUpToTheCap() {
        LoginThrottle t = throttle(3, 1000, 100);
        long[] expected = {1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300};
        for (int i = 0; i < 2; i++) {
            login(t, ATTACKER, "alice", "wrong");
        }
        for (long seconds : expected) {
            assertThat(login(t, ATTACKER, "alice", "wrong").outcome()).isEqualTo(LoginThrottle.Outcome.REJECTED);
            assertThat(t.retryAfter(ATTACKER, "alice")).isEqualTo(seconds);
            clock.advance(Duration.ofMillis(seconds * 1000 - 500));
            assertThat(login(t, ATTACKER, "alice", "wrong").outcome()).isEqualTo(LoginThrottle.Outcome.THROTTLED);
            assertThat(t.retryAfter(ATTACKER, "alice")).isEqualTo(1); // half a second left, rounded up
            clock.advance(Duration.ofMillis(500));
        }
    }

    @Test
    void aSuccessClearsTheAccountsCountButNotTheAddresss() {
        LoginThrottle t = throttle(3, 5, 100);
        login(t, ATTACKER, "alice", "wrong");
        login(t, ATTACKER, "alice", "wrong");
        assertThat(login(t, ATTACKER, "alice", "right").outcome()).isEqualTo(LoginThrottle.Outcome.ACCEPTED);

        login(t, ATTACKER, "alice", "wrong");
        login(t, ATTACKER, "alice", "wrong");
        assertThat(t.retryAfter(ATTACKER, "alice")).isZero(); // 2 failures since the success: under 3

        login(t, ATTACKER, "alice", "wrong"); // the address's fifth failure
        assertThat(login(t, ATTACKER, "bob", "right").outcome()).isEqualTo(LoginThrottle.Outcome.THROTTLED);
    }

    @Test
    void theRealUserFromAnotherAddressLogsInWhileTheAttackerIsThrottled() {
        LoginThrottle t = throttle(5, 20, 100);
        for (int i = 0; i < 10; i++) {
            login(t, ATTACKER, "alice", "guess" + i);
        }
        assertThat(login(t, ATTACKER, "alice", "right").outcome()).isEqualTo(LoginThrottle.Outcome.THROTTLED);

        LoginThrottle.Attempt<String> real = login(t, REAL_USER, "alice", "right");

        assertThat(real.outcome()).isEqualTo(LoginThrottle.Outcome.ACCEPTED);
        assertThat(real.value()).isEqualTo("alice");
    }

    @Test
    void sprayingNamesFromOneAddressIsThrottledByTheAddresssCount() {
        LoginThrottle t = throttle(5, 20, 100);
        for (int i = 0; i < 20; i++) {
            assertThat(login(t, ATTACKER, "user" + i, "wrong").outcome()).isEqualTo(LoginThrottle.Outcome.REJECTED);
        }

        assertThat(login(t, ATTACKER, "user-new", "wrong").outcome()).isEqualTo(LoginThrottle.Outcome.THROTTLED);
        assertThat(login(t, REAL_USER, "user-new", "right").outcome()).isEqualTo(LoginThrottle.Outcome.ACCEPTED);
    }

    @Test
    void failuresAreForgottenAfterTheWindow() {
        LoginThrottle t = throttle(3, 20, 100);
        login(t, ATTACKER, "alice", "wrong");
        login(t, ATTACKER, "alice", "wrong");
        clock.advance(LoginThrottle.WINDOW);

        login(t, ATTACKER, "alice", "wrong");
        login(t, ATTACKER, "alice", "wrong");

        assertThat(t.retryAfter(ATTACKER, "alice")).isZero();
        assertThat(t.size()).isEqualTo(2); // the address and the pair, counted afresh
    }

    @Test
    void aSprayOfAddressesAndNamesKeepsTheMapsBoundedForgettingTheOldest() {
        LoginThrottle t = throttle(1, 1, 50);
        for (int i = 0; i < 10_000; i++) {
            login(t, "10.0." + (i / 256) + "." + (i % 256), "name" + i, "wrong");
        }

        assertThat(t.size()).isEqualTo(100); // 50 addresses + 50 pairs
        assertThat(t.retryAfter("10.0.39.15", "name9999")).isPositive(); // the newest is kept
        assertThat(t.retryAfter("10.0.0.0", "name0")).isZero(); // the oldest was forgotten
    }

    @Test
    void aCheckFindingEveryPermitBusyIsRefusedWithoutRunning() throws Exception {
        LoginThrottle t = throttle(5, 20, 100);
        CountDownLatch running = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<?>[] slow = new Future<?>[2];
            for (int i = 0; i < 2; i++) {
                String user = "slow" + i;
                slow[i] = pool.submit(() -> t.attempt(REAL_USER, user, false, () -> {
                    running.countDown();
                    await(release);
                    return Optional.of(user);
                }));
            }
            assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();

            LoginThrottle.Attempt<String> busy = login(t, REAL_USER, "alice", "right");
            LoginThrottle.Attempt<String> cached = t.attempt(REAL_USER, "bob", true, () -> Optional.of("bob"));

            assertThat(busy.outcome()).isEqualTo(LoginThrottle.Outcome.BUSY);
            assertThat(busy.retryAfterSeconds()).isEqualTo(1);
            assertThat(checks).hasValue(0);
            assertThat(cached.outcome()).isEqualTo(LoginThrottle.Outcome.ACCEPTED); // answered from memory
            release.countDown();
            for (Future<?> f : slow) {
                f.get(10, TimeUnit.SECONDS);
            }
            assertThat(login(t, REAL_USER, "alice", "right").outcome()).isEqualTo(LoginThrottle.Outcome.ACCEPTED);
            assertThat(t.retryAfter(REAL_USER, "alice")).isZero(); // being busy is no failure
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
