package org.medjava.store.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.core.index.Share;
import org.medjava.store.core.testsupport.MovableClock;

/** Share links against a real (embedded H2) index: their tokens, expiry, revocation and the switch that turns them off. */
class ShareLinksTest {

    @TempDir
    Path tmp;
    DicomIndex index;
    MovableClock clock;
    ShareLinks links;

    @BeforeEach
    void open() {
        index = new DicomIndex(IndexDatabase.h2(tmp.resolve("index")));
        clock = new MovableClock(Instant.parse("2026-03-01T08:00:00Z"));
        links = new ShareLinks(SessionCodecTest.KEY, index, Duration.ofDays(30), clock);
    }

    @AfterEach
    void close() {
        index.close();
    }

    @Test
    void aLinkOpensItsStudyUntilItExpires() {
        Share share = links.create("1.2.3.4", "ulf", Duration.ofHours(2), " for Dr Weber ");
        assertThat(share.note()).isEqualTo("for Dr Weber");
        String token = links.token(share);
        assertThat(token).matches("[A-Za-z0-9_-]{24}\\.[A-Za-z0-9_-]{22}");

        ShareLinks.Opened opened = links.open(token);
        assertThat(opened.live()).isTrue();
        assertThat(opened.share().studyUid()).isEqualTo("1.2.3.4");
        assertThat(index.share(share.id()).orElseThrow().opens()).isEqualTo(1);
        assertThat(links.problem(share.id(), clock.instant())).isNull();
        assertThat(links.studyOf(share.id())).hasValue("1.2.3.4");

        clock.advance(Duration.ofHours(2));
        assertThat(links.open(token).status()).isEqualTo(410);
        assertThat(links.open(token).problem()).contains("expired");
        assertThat(links.problem(share.id(), clock.instant())).isEqualTo("the share link expired");
    }

    @Test
    void aForgedOrUnknownTokenOpensNothing() {
        Share share = links.create("1.2.3.4", "ulf", Duration.ofHours(2), null);
        String token = links.token(share);
        String otherKey = new ShareLinks(SessionCodecTest.filled(32, 9), index, Duration.ofDays(30), clock)
                .token(share);
        for (String bad : new String[] {otherKey, token.substring(0, 25) + "A".repeat(22), "A".repeat(24) + "."
                + token.substring(25), "", null, token + "="}) {
            assertThat(links.open(bad).status()).as(String.valueOf(bad)).isEqualTo(404);
        }
        assertThat(index.share(share.id()).orElseThrow().opens()).isZero();
        assertThat(links.problem("nothing", clock.instant())).isEqualTo("the share link is gone");
    }

    @Test
    void aRevocationHoldsAtOnceOnThisNode() {
        Share share = links.create("1.2.3.4", "ulf", Duration.ofHours(2), null);
        assertThat(links.problem(share.id(), clock.instant())).isNull(); // now in the node's second-long memory
        assertThat(links.revoke(share.id(), "admin")).isTrue();
        assertThat(links.problem(share.id(), clock.instant())).isEqualTo("the share link was revoked");
        assertThat(links.open(links.token(share)).status()).isEqualTo(410);
        assertThat(links.revoke(share.id(), "admin")).isFalse();
    }

    @Test
    void theLongestValidityIsTheStoresAndZeroTurnsLinksOff() {
        assertThatThrownBy(() -> links.create("1.2.3.4", "ulf", Duration.ofDays(31), null))
                .isInstanceOf(StoreException.class).hasMessageContaining("30 days");
        assertThatThrownBy(() -> links.create("1.2.3.4", "ulf", Duration.ZERO, null))
                .isInstanceOf(StoreException.class);
        Share share = links.create("1.2.3.4", "ulf", Duration.ofDays(30), null);

        ShareLinks off = new ShareLinks(SessionCodecTest.KEY, index, Duration.ZERO, clock);
        assertThat(off.enabled()).isFalse();
        assertThatThrownBy(() -> off.create("1.2.3.4", "ulf", Duration.ofHours(1), null))
                .isInstanceOf(StoreException.class).hasMessageContaining("off");
        assertThat(off.open(links.token(share)).status()).isEqualTo(410);
        assertThat(off.problem(share.id(), clock.instant())).contains("off");
    }
}
