package org.medjava.store.core.storage;

import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * Write times that strictly increase from install to install, in microseconds, so that the ETag derived from them
 * differs for every write even where a clock is coarse or the same bytes are written twice.
 */
final class WriteClock {
    private long lastMicros;

    synchronized Instant next() {
        Instant now = Instant.now();
        long micros = TimeUnit.SECONDS.toMicros(now.getEpochSecond()) + now.getNano() / 1000;
        lastMicros = Math.max(micros, lastMicros + 1);
        return Instant.ofEpochSecond(lastMicros / 1_000_000, (lastMicros % 1_000_000) * 1000);
    }
}
