package org.medjava.bench.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The serve step's overload cell: what its wrk script (statuses.lua) printed under wrk 4.1.0 against the store. */
class StatusesTest {

    private static String captured(String name) throws IOException {
        try (InputStream in = StatusesTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void everyAnswerAccepted() throws IOException {
        String out = captured("wrk-store-overload.txt");
        Statuses s = Statuses.fromWrk(out);
        assertThat(s.counts()).containsExactly(Map.entry(200, 176401L));
        assertThat(s.noRetryAfter()).isZero();
        assertThat(s.errors()).isZero();
        assertThat(s.total()).isEqualTo(WrkResult.parse(out).requests());
    }

    /** The store with two relayed requests at most (medjava.http.max-relayed=2), 512 connections on thumbnails. */
    @Test
    void refusedAnswersAreCountedAndAre503WithRetryAfter() throws IOException {
        String out = captured("wrk-store-overload-503.txt");
        Statuses s = Statuses.fromWrk(out);
        assertThat(s.text()).isEqualTo("200=42 503=20642");
        assertThat(s.count(503)).isEqualTo(WrkResult.parse(out).non2xx());
        assertThat(s.errors()).as("a 503 with Retry-After is no error").isZero();
        assertThat(WrkResult.parse(out).socketErrors()).isEqualTo(1376);
    }

    @Test
    void otherStatusesAndA503WithoutRetryAfterAreErrors() {
        Statuses s = Statuses.parse("200=10 401=4 503=196").withNoRetryAfter(3);
        assertThat(s.errors()).isEqualTo(4 + 3);
        assertThat(Statuses.parse(s.text())).isEqualTo(Statuses.parse("200=10 401=4 503=196"));
        assertThat(Statuses.parse("").total()).isZero();
    }

    @Test
    void anOutputWithoutTheScriptsLinesIsAnError() throws IOException {
        assertThatThrownBy(() -> Statuses.fromWrk(captured("wrk-nginx-39k.txt")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("statuses.lua");
    }
}
