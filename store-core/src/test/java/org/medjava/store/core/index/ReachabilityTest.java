package org.medjava.store.core.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.medjava.store.testkit.peers.LocalPostgres;

/**
 * The index on a real PostgreSQL that goes away and comes back: the first query after it went fails within a
 * second, the following ones at once (no wait per caller), and queries work again soon after it is back,
 * without a manual step.
 */
class ReachabilityTest {

    @Test
    void onceTheServerIsKnownToBeAwayQueriesFailAtOnceAndWorkAgainWhenItIsBack() throws Exception {
        try (LocalPostgres own = LocalPostgres.start(); DicomIndex index = new DicomIndex(IndexDatabase.of(
                own.jdbcUrl(), own.user(), own.password()))) {
            index.ping();
            own.stopServer();
            long t0 = System.nanoTime();
            assertThatThrownBy(index::ping).isInstanceOf(IndexException.class);
            long first = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            // the pool is waited for in slices: a refused connection ends the first one (250 ms), not the whole wait
            assertThat(first).as("the first caller is refused within a second").isLessThan(1_000);
            t0 = System.nanoTime();
            assertThatThrownBy(index::ping).isInstanceOfSatisfying(IndexException.class,
                    e -> assertThat(e.getMessage()).contains("unreachable since", "medjava.db.url"));
            long next = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertThat(next).as("the next ones are refused at once").isLessThan(200);
            System.out.printf("ReachabilityTest: PostgreSQL down: first query refused after %d ms, the next after %d"
                    + " ms%n", first, next);

            own.startAgain();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            boolean back = false;
            while (!back && System.nanoTime() < end) {
                try {
                    index.ping();
                    back = true;
                } catch (IndexException e) {
                    Thread.sleep(100);
                }
            }
            assertThat(back).as("queries work again once the server is back").isTrue();
        }
    }

    @Test
    void aStaleFailureToConnectDoesNotMarkAServerThatAnswersAway() throws Exception {
        // what the pool may still carry after a restart: its last failure, from while the server was down
        java.sql.SQLException stale = new java.sql.SQLTransientConnectionException("medjava-index - Connection is not"
                + " available, request timed out after 250ms", "08001",
                new java.sql.SQLException("Connection refused", "08001", new java.net.ConnectException("refused")));
        try (LocalPostgres own = LocalPostgres.start();
             Reachability reachability = new Reachability(IndexDatabase.of(own.jdbcUrl(), own.user(),
                     own.password()))) {
            assertThat(reachability.confirmAway(stale)).as("a fresh connection is made and succeeds").isFalse();
            assertThat(reachability.reachable()).isTrue();
            own.stopServer();
            Thread.sleep(Reachability.CONFIRM.toMillis() + 50);
            assertThat(reachability.confirmAway(stale)).as("now the fresh connection is refused too").isTrue();
            assertThat(reachability.reachable()).isFalse();
            own.startAgain();
        }
    }

    @Test
    void aServerThatDropsPacketsIsFoundAwayWithinASecond() throws Exception {
        // TEST-NET-1 (RFC 5737): never routed, so a connection either hangs or is refused by the network at once
        java.sql.SQLException timedOut = new java.sql.SQLTransientConnectionException("timed out", "08001",
                new java.net.SocketTimeoutException("connect timed out"));
        try (Reachability reachability = new Reachability(IndexDatabase.of("jdbc:postgresql://192.0.2.1:5432/x",
                "u", "p"))) {
            long t0 = System.nanoTime();
            assertThat(reachability.confirmAway(timedOut)).isTrue();
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertThat(ms).as("a TCP connection is given %s", Reachability.TCP_CONNECT).isLessThan(1_000);
            assertThat(reachability.reachable()).isFalse();
        }
    }

    @Test
    void onlyAFailureToConnectSaysTheServerIsAway() {
        assertThat(Reachability.isUnreachable(new java.sql.SQLException("refused", "08001"))).isTrue();
        assertThat(Reachability.isUnreachable(new RuntimeException(new java.net.ConnectException("refused"))))
                .isTrue();
        assertThat(Reachability.isUnreachable(new java.sql.SQLException("syntax", "42601"))).isFalse();
        assertThat(Reachability.isUnreachable(new java.sql.SQLTransientConnectionException("pool busy")))
                .as("a busy pool is not an absent server").isFalse();
    }
}
