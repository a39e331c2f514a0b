package org.medjava.store.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.glassfish.grizzly.Connection;
import org.junit.jupiter.api.Test;

/**
 * The header clock of {@link SlowHeaders}: bytes with no request in progress start it, a request whose headers were
 * read stops it, and a sweep closes only the connections past their deadline. A zero timeout makes every running
 * clock past its deadline at once, so no test waits.
 */
class SlowHeadersTest {

    /** A connection that records whether it was closed, and calls its close listeners then. */
    private static final class FakeConnection {
        boolean closed;
        final List<Connection.CloseListener> listeners = new ArrayList<>();
        final Connection<?> connection = (Connection<?>) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, m, args) -> switch (m.getName()) {
                    case "addCloseListener" -> {
                        listeners.add((Connection.CloseListener) args[0]);
                        yield null;
                    }
                    case "closeSilently" -> {
                        closed = true;
                        for (Connection.CloseListener l : listeners) {
                            l.onClosed((Connection) proxy, Connection.CloseType.LOCALLY);
                        }
                        yield null;
                    }
                    case "getPeerAddress" -> "127.0.0.1:1234";
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new UnsupportedOperationException(m.getName());
                });
    }

    @Test
    void headersThatNeverCompleteGetTheConnectionClosed() {
        try (SlowHeaders guard = new SlowHeaders(Duration.ZERO)) {
            FakeConnection slow = new FakeConnection();
            guard.received(slow.connection);
            guard.received(slow.connection); // another byte: the clock does not restart
            assertThat(guard.sweep()).isTrue();
            assertThat(slow.closed).isTrue();
            assertThat(slow.listeners).hasSize(1);
            assertThat(guard.watched()).isZero();
        }
    }

    @Test
    void aRequestInProgressIsNeverCutAndTheClockRestartsAfterIt() {
        try (SlowHeaders guard = new SlowHeaders(Duration.ZERO)) {
            FakeConnection c = new FakeConnection();
            guard.received(c.connection);
            guard.started(c.connection); // headers read
            guard.received(c.connection); // body bytes, however slow: not the header clock's business
            assertThat(guard.sweep()).isFalse();
            guard.ended(c.connection);
            assertThat(guard.sweep()).isFalse(); // idle between requests: the idle timeout's business
            assertThat(c.closed).isFalse();
            guard.received(c.connection); // the next request's first bytes
            assertThat(guard.sweep()).isTrue();
            assertThat(c.closed).isTrue();
            assertThat(c.listeners).hasSize(1); // one listener per connection, not per request
        }
    }

    @Test
    void http2StreamsCountOneByOne() {
        try (SlowHeaders guard = new SlowHeaders(Duration.ZERO)) {
            FakeConnection c = new FakeConnection();
            guard.received(c.connection);
            guard.started(c.connection);
            guard.started(c.connection);
            guard.ended(c.connection);
            guard.received(c.connection); // a frame of the stream still running
            assertThat(guard.sweep()).isFalse();
            assertThat(c.closed).isFalse();
        }
    }

    @Test
    void aConnectionWithinItsTimeIsLeftAlone() {
        try (SlowHeaders guard = new SlowHeaders(Duration.ofHours(1))) {
            FakeConnection c = new FakeConnection();
            guard.received(c.connection);
            assertThat(guard.sweep()).isFalse();
            assertThat(c.closed).isFalse();
            assertThat(guard.watched()).isEqualTo(1);
        }
    }
}
