package org.medjava.store.server.front;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A front connection on which nothing moves either way is closed; one that reads or writes now and then is not. */
class SilenceTest {

    private static EmbeddedChannel connection() {
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.freezeTime();
        channel.pipeline().addLast(new Silence(10, TimeUnit.SECONDS));
        return channel;
    }

    private static void waitFor(EmbeddedChannel channel, int seconds) {
        for (int i = 0; i < seconds; i++) {
            channel.advanceTimeBy(1, TimeUnit.SECONDS);
            channel.runScheduledPendingTasks();
        }
    }

    @Test
    void aSilentConnectionIsClosedAfterTheLimitAndNotBefore() {
        EmbeddedChannel channel = connection();
        waitFor(channel, 9);
        assertThat(channel.isOpen()).isTrue();
        waitFor(channel, 3); // looked at every fifth of the limit: closed by 1.2 times it
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void readsAndWritesNowAndThenKeepItOpen() {
        EmbeddedChannel channel = connection();
        for (int i = 0; i < 5; i++) {
            waitFor(channel, 6);
            if (i % 2 == 0) {
                channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {1}));
            } else {
                channel.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {2}));
            }
        }
        assertThat(channel.isOpen()).isTrue();
        waitFor(channel, 12);
        assertThat(channel.isOpen()).as("silent since the last write").isFalse();
        channel.finishAndReleaseAll();
    }
}
