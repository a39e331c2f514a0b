package org.medjava.store.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** {@link SessionCodec}: what it signs comes back intact, anything else is refused with its reason. */
class SessionCodecTest {

    static final byte[] KEY = filled(32, 7);
    static final Instant T0 = Instant.parse("2026-03-01T08:00:00Z");
    static final SessionToken TOKEN = new SessionToken("rita", "AAAAbbbbCCCCdddd1234", T0, T0.plusSeconds(60),
            T0.plusSeconds(1860), "fp-of-rita");

    private final SessionCodec codec = new SessionCodec(KEY);

    @Test
    void aTokenComesBackAsItWasSignedUntilItExpires() {
        String text = codec.encode(TOKEN);
        assertThat(text).matches("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+"); // a valid cookie value, nothing to escape
        SessionCodec.Decoded d = codec.decode(text, T0.plusSeconds(1859));
        assertThat(d.valid()).isTrue();
        assertThat(d.token()).isEqualTo(TOKEN);

        SessionCodec.Decoded late = codec.decode(text, T0.plusSeconds(1860));
        assertThat(late.valid()).isFalse();
        assertThat(late.problem()).isEqualTo("the session expired");
    }

    @Test
    void aChangedPayloadIsRefusedEvenWithItsOwnSignature() {
        String text = codec.encode(TOKEN);
        String payload = new String(Base64.getUrlDecoder().decode(text.substring(0, text.indexOf('.'))),
                StandardCharsets.UTF_8);
        assertThat(payload).contains("rita").doesNotContain("admin");
        String forged = Base64.getUrlEncoder().withoutPadding().encodeToString(
                payload.replace("rita", "admin").getBytes(StandardCharsets.UTF_8)) + text.substring(text.indexOf('.'));
        SessionCodec.Decoded d = codec.decode(forged, T0.plusSeconds(100));
        assertThat(d.valid()).isFalse();
        assertThat(d.problem()).contains("wrong signature");

        String longer = payload.replace("\n" + (T0.getEpochSecond() + 1860) + "\n", "\n" + (T0.getEpochSecond()
                + 999_999) + "\n");
        assertThat(longer).isNotEqualTo(payload);
        String extended = Base64.getUrlEncoder().withoutPadding().encodeToString(longer.getBytes(
                StandardCharsets.UTF_8)) + text.substring(text.indexOf('.'));
        assertThat(codec.decode(extended, T0.plusSeconds(100)).problem()).contains("wrong signature");
    }

    @Test
    void aFlippedSignatureBitOrAnotherKeyIsRefused() {
        String text = codec.encode(TOKEN);
        char last = text.charAt(text.length() - 2);
        String flipped = text.substring(0, text.length() - 2) + (last == 'A' ? 'B' : 'A') + text.charAt(text.length()
                - 1);
        assertThat(codec.decode(flipped, T0).problem()).contains("wrong signature");
        assertThat(new SessionCodec(filled(32, 8)).decode(text, T0).problem()).contains("wrong signature");
    }

    @Test
    void garbageIsRefusedWithoutAnException() {
        for (String bad : new String[] {null, "", "abc", "a.b.c", ".sig", "!!!.###", "x".repeat(5000),
                codec.encode(TOKEN) + "."}) {
            SessionCodec.Decoded d = codec.decode(bad, T0);
            assertThat(d.valid()).as(String.valueOf(bad)).isFalse();
            assertThat(d.problem()).isNotBlank();
        }
    }

    @Test
    void onlyPlainNamesAndIdsAreSignedAndKeysAreLongEnough() {
        assertThatThrownBy(() -> codec.encode(new SessionToken("a\nb", "AAAAbbbbCCCC", T0, T0, T0, "f")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SessionCodec(new byte[16])).hasMessageContaining("32 bytes");
    }

    @Test
    void digestsDependOnEveryPartAndOnTheKey() {
        String d = codec.digest("account", "rita", "reader", "hash1");
        assertThat(d).isEqualTo(codec.digest("account", "rita", "reader", "hash1"));
        assertThat(d).isNotEqualTo(codec.digest("account", "rita", "uploader", "hash1"))
                .isNotEqualTo(codec.digest("account", "rita", "reader", "hash2"))
                .isNotEqualTo(new SessionCodec(filled(32, 9)).digest("account", "rita", "reader", "hash1"));
    }

    static byte[] filled(int n, int value) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) value);
        return b;
    }

    @Test
    void aSingleSignOnCarriesItsRoleAndProjects() {
        SessionToken sso = new SessionToken("rita@hospital.example", "AAAAbbbbCCCCdddd1234", T0, T0, T0.plusSeconds(60),
                SessionToken.SINGLE_SIGN_ON, Role.UPLOADER, java.util.Set.of("cardiology", "research 2"));

        SessionCodec.Decoded d = codec.decode(codec.encode(sso), T0);

        assertThat(d.token()).isEqualTo(sso);
        assertThat(d.token().singleSignOn()).isTrue();
    }

    @Test
    void aShareLinksSessionCarriesItsShareAndIsNoSingleSignOn() {
        SessionToken shared = new SessionToken("share:AAAAbbbbCCCCddddEEEEffff", "AAAAbbbbCCCCdddd1234", T0, T0,
                T0.plusSeconds(60), SessionToken.SHARE, Role.READER, java.util.Set.of(), "AAAAbbbbCCCCddddEEEEffff");

        SessionCodec.Decoded d = codec.decode(codec.encode(shared), T0);

        assertThat(d.token()).isEqualTo(shared);
        assertThat(d.token().singleSignOn()).isFalse();
        assertThatThrownBy(() -> codec.encode(new SessionToken("x", "AAAAbbbbCCCC", T0, T0, T0, SessionToken.SHARE,
                Role.READER, java.util.Set.of(), "not\nan id"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aTokenOfTheSecondVersionIsStillRead() {
        String body = Base64.getUrlEncoder().withoutPadding().encodeToString(String.join("\n", "s2", "rita",
                "AAAAbbbbCCCCdddd1234", Long.toString(T0.getEpochSecond()), Long.toString(T0.getEpochSecond()),
                Long.toString(T0.plusSeconds(60).getEpochSecond()), SessionToken.SINGLE_SIGN_ON, "reader",
                "cardiology").getBytes(StandardCharsets.UTF_8));
        String text = body + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(mac(body));

        SessionCodec.Decoded d = codec.decode(text, T0);

        assertThat(d.problem()).isNull();
        assertThat(d.token().singleSignOn()).isTrue();
        assertThat(d.token().projects()).containsExactly("cardiology");
        assertThat(d.token().share()).isNull();
    }

    @Test
    void aTokenOfTheFirstVersionIsStillRead() {
        String body = Base64.getUrlEncoder().withoutPadding().encodeToString(String.join("\n", "s1", "rita",
                "AAAAbbbbCCCCdddd1234", Long.toString(T0.getEpochSecond()), Long.toString(T0.getEpochSecond()),
                Long.toString(T0.plusSeconds(60).getEpochSecond()), "fp").getBytes(StandardCharsets.UTF_8));
        String text = body + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(mac(body));

        SessionCodec.Decoded d = codec.decode(text, T0);

        assertThat(d.problem()).isNull();
        assertThat(d.token().singleSignOn()).isFalse();
        assertThat(d.token().user()).isEqualTo("rita");
    }

    private static byte[] mac(String text) {
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec(KEY, "HmacSHA256"));
            return mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
        } catch (java.security.GeneralSecurityException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aProjectWithACommaCannotBeSigned() {
        assertThatThrownBy(() -> codec.encode(new SessionToken("x", "AAAAbbbbCCCC", T0, T0, T0,
                SessionToken.SINGLE_SIGN_ON, Role.READER, java.util.Set.of("a,b"))))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
