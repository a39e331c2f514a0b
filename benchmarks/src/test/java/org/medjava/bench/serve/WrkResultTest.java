package org.medjava.bench.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** wrk's reports as wrk 4.1.0 (Debian) printed them on this project's runs, parsed into numbers. */
class WrkResultTest {

    private static String captured(String name) throws IOException {
        try (InputStream in = WrkResultTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void nginxSmallFileMicrosecondsAndGigabytes() throws IOException {
        WrkResult r = WrkResult.parse(captured("wrk-nginx-39k.txt"));
        assertThat(r.requests()).isEqualTo(174902);
        assertThat(r.seconds()).isCloseTo(2.03, within(1e-9));
        assertThat(r.requestsPerSecond()).isCloseTo(86150.56, within(1e-6));
        assertThat(r.mebibytesPerSecond()).isCloseTo(3.17 * 1024, within(1e-6));
        assertThat(r.p50Ms()).isCloseTo(0.151, within(1e-9));
        assertThat(r.p99Ms()).isCloseTo(47.45, within(1e-9));
        assertThat(r.non2xx()).isZero();
        assertThat(r.socketErrors()).isZero();
        assertThat(r.clean()).isTrue();
    }

    @Test
    void storeColdMillisecondsAndMegabytes() throws IOException {
        WrkResult r = WrkResult.parse(captured("wrk-store-39k-cold.txt"));
        assertThat(r.requests()).isEqualTo(2910);
        assertThat(r.requestsPerSecond()).isCloseTo(569.93, within(1e-6));
        assertThat(r.mebibytesPerSecond()).isCloseTo(21.43, within(1e-9));
        assertThat(r.p50Ms()).isCloseTo(23.76, within(1e-9));
        assertThat(r.p99Ms()).isCloseTo(143.03, within(1e-9));
    }

    @Test
    void largeFileOneConnection() throws IOException {
        WrkResult r = WrkResult.parse(captured("wrk-store-16mib.txt"));
        assertThat(r.requests()).isEqualTo(493);
        assertThat(r.seconds()).isCloseTo(6.12, within(1e-9));
        assertThat(r.mebibytesPerSecond()).isCloseTo(1.26 * 1024, within(1e-6));
        assertThat(r.p50Ms()).isCloseTo(10.23, within(1e-9));
    }

    @Test
    void non2xxResponsesMakeTheCellUnclean() throws IOException {
        WrkResult r = WrkResult.parse(captured("wrk-nginx-404.txt"));
        assertThat(r.non2xx()).isEqualTo(238913).isEqualTo(r.requests());
        assertThat(r.p50Ms()).isCloseTo(0.090, within(1e-9));
        assertThat(r.mebibytesPerSecond()).isCloseTo(35.05, within(1e-9));
        assertThat(r.clean()).isFalse();
        assertThat(r.summary()).contains("238913 non-2xx");
    }

    @Test
    void socketErrorsAreCountedAndBytesMayBePlain() throws IOException {
        WrkResult r = WrkResult.parse(captured("wrk-connection-closed.txt"));
        assertThat(r.requests()).isZero();
        assertThat(r.socketErrors()).isEqualTo(46415);
        assertThat(r.bytesPerSecond()).isZero();
        assertThat(r.clean()).isFalse();
    }

    @Test
    void anOutputWithoutAReportIsAnErrorThatQuotesIt() {
        assertThatThrownBy(() -> WrkResult.parse("unable to connect to 127.0.0.1:18932 Connection refused\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Connection refused");
    }

    @Test
    void unitsOfTimeAndSize() {
        assertThat(WrkResult.millis("1.5", "s")).isEqualTo(1500);
        assertThat(WrkResult.millis("2", "m")).isEqualTo(120_000);
        assertThat(WrkResult.millis("250", "us")).isEqualTo(0.25);
        assertThat(WrkResult.bytes("1", "KB")).isEqualTo(1024);
        assertThat(WrkResult.bytes("2", "GB")).isEqualTo(2.0 * (1 << 30));
    }
}
