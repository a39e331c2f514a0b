package org.medjava.bench.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** h2load's reports and log files as h2load 1.52 (Debian, nghttp2-client) wrote them against the store. */
class H2loadResultTest {

    private static String captured(String name) throws IOException {
        try (InputStream in = H2loadResultTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void aTimedRunOfOneConnectionWithAHundredStreams() throws IOException {
        H2loadResult r = H2loadResult.parse(captured("h2load-store-39k.txt"), List.of());
        assertThat(r.requests()).isEqualTo(66099);
        assertThat(r.seconds()).isCloseTo(5.01, within(1e-9));
        assertThat(r.requestsPerSecond()).isCloseTo(13219.80, within(1e-9));
        assertThat(r.bytesPerSecond()).isCloseTo(499.04 * 1024 * 1024, within(1e-3));
        assertThat(r.failed()).isZero();
        assertThat(r.errored()).isZero();
        assertThat(r.clean()).isTrue();
        assertThat(r.p99Ms()).as("no log: no percentiles").isNaN();
    }

    @Test
    void percentilesAndStatusesComeFromTheLogFile() throws IOException {
        H2loadResult r = H2loadResult.parse(captured("h2load-store-300.txt"),
                captured("h2load-store-300.log").lines().toList());
        assertThat(r.requests()).isEqualTo(300);
        assertThat(r.statuses().counts()).containsExactly(java.util.Map.entry(200, 300L));
        // nearest rank over the 300 durations in µs: the 150th and the 297th
        assertThat(r.p50Ms()).isCloseTo(151.988, within(1e-9));
        assertThat(r.p99Ms()).isCloseTo(834.733, within(1e-9));
        assertThat(r.summary()).contains("statuses 200=300");
    }

    @Test
    void failedRequestsAndTheirStatuses() throws IOException {
        H2loadResult r = H2loadResult.parse(captured("h2load-store-wrong-password.txt"),
                captured("h2load-store-wrong-password.log").lines().toList());
        assertThat(r.requests()).isEqualTo(200);
        assertThat(r.failed()).isEqualTo(200);
        assertThat(r.errored()).isZero();
        assertThat(r.non2xx()).isEqualTo(200);
        assertThat(r.clean()).isFalse();
        assertThat(r.statuses().text()).isEqualTo("401=4 503=196");
        assertThat(r.requestsPerSecond()).isCloseTo(169.88, within(1e-9));
        assertThat(r.bytesPerSecond()).isCloseTo(19.67 * 1024, within(1e-9));
        assertThat(r.p50Ms()).as("no 2xx answer").isNaN();
    }

    @Test
    void anOutputWithoutTotalsIsAnErrorThatQuotesIt() {
        assertThatThrownBy(() -> H2loadResult.parse("starting benchmark...\nNo protocol negotiated\n", List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("No protocol negotiated");
    }
}
