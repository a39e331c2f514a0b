package org.medjava.store.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AcceptEncodingTest {

    @Test
    void gzipIsAcceptedWhenNamedOrByAStarWithAWeightAboveZero() {
        assertThat(AcceptEncoding.gzip("gzip")).isTrue();
        assertThat(AcceptEncoding.gzip("gzip, deflate, br, zstd")).isTrue(); // Chromium's
        assertThat(AcceptEncoding.gzip("br;q=1.0, GZIP;q=0.5")).isTrue();
        assertThat(AcceptEncoding.gzip("x-gzip")).isTrue();
        assertThat(AcceptEncoding.gzip("*")).isTrue();
        assertThat(AcceptEncoding.gzip("br, *;q=0.1")).isTrue();
    }

    @Test
    void gzipIsNotAcceptedWhenAbsentRefusedOrOnlyIdentity() {
        assertThat(AcceptEncoding.gzip(null)).isFalse();
        assertThat(AcceptEncoding.gzip("")).isFalse();
        assertThat(AcceptEncoding.gzip("identity")).isFalse();
        assertThat(AcceptEncoding.gzip("br, deflate")).isFalse();
        assertThat(AcceptEncoding.gzip("gzip;q=0")).isFalse();
        assertThat(AcceptEncoding.gzip("*, gzip;q=0")).isFalse();
        assertThat(AcceptEncoding.gzip("gzip;q=0.0, *")).isFalse();
        assertThat(AcceptEncoding.gzip("gzip;q=nonsense")).isFalse();
    }
}
