package org.medjava.store.server.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Base64;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link PasswordHasher}: salted PBKDF2 hashes in the {@code pbkdf2-sha256$iterations$salt$hash} form. */
class PasswordHasherTest {

    /** Low enough that the tests are quick; the stored count is what {@code verify} uses. */
    private static final int FAST = 1_000;

    @Test
    void rightPasswordVerifies() {
        String stored = PasswordHasher.hash("correct horse".toCharArray(), FAST);

        assertThat(PasswordHasher.verify("correct horse".toCharArray(), stored)).isTrue();
    }

    @Test
    void wrongPasswordDoesNot() {
        String stored = PasswordHasher.hash("correct horse".toCharArray(), FAST);

        assertThat(PasswordHasher.verify("correct hors".toCharArray(), stored)).isFalse();
        assertThat(PasswordHasher.verify("Correct horse".toCharArray(), stored)).isFalse();
        assertThat(PasswordHasher.verify("correct horse ".toCharArray(), stored)).isFalse();
        assertThat(PasswordHasher.verify(new char[0], stored)).isFalse();
    }

    @Test
    void formatIsPrefixIterationsSaltHash() {
        String stored = PasswordHasher.hash("secret-password".toCharArray(), FAST);

        assertThat(stored).matches("pbkdf2-sha256\\$1000\\$[A-Za-z0-9+/]{22}==\\$[A-Za-z0-9+/]{43}=");
        String[] parts = stored.split("\\$");
        assertThat(Base64.getDecoder().decode(parts[2])).hasSize(16);
        assertThat(Base64.getDecoder().decode(parts[3])).hasSize(32);
    }

    @Test
    void defaultHashUsesTheRecommendedIterationCount() {
        String stored = PasswordHasher.hash("secret-password".toCharArray());

        assertThat(stored).startsWith("pbkdf2-sha256$" + PasswordHasher.ITERATIONS + "$");
        assertThat(PasswordHasher.ITERATIONS).isGreaterThanOrEqualTo(600_000);
        assertThat(PasswordHasher.verify("secret-password".toCharArray(), stored)).isTrue();
    }

    @Test
    void saltsDifferSoEqualPasswordsHashDifferently() {
        Set<String> salts = new HashSet<>();
        Set<String> hashes = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            String[] parts = PasswordHasher.hash("same password".toCharArray(), FAST).split("\\$");
            salts.add(parts[2]);
            hashes.add(parts[3]);
        }
        assertThat(salts).hasSize(20);
        assertThat(hashes).hasSize(20);
    }

    @Test
    void verifyUsesTheIterationCountStoredWithTheHash() {
        String stored = PasswordHasher.hash("pw-12345".toCharArray(), 1_234);
        String tampered = stored.replace("$1234$", "$1235$");

        assertThat(PasswordHasher.verify("pw-12345".toCharArray(), stored)).isTrue();
        assertThat(PasswordHasher.verify("pw-12345".toCharArray(), tampered)).isFalse();
    }

    @Test
    void otherSchemesAndShapesAreRejected() {
        String stored = PasswordHasher.hash("pw-12345".toCharArray(), FAST);

        assertThat(PasswordHasher.verify("pw-12345".toCharArray(), stored.replace("pbkdf2-sha256", "pbkdf2-sha1")))
                .isFalse();
        assertThat(PasswordHasher.verify("pw-12345".toCharArray(), "pw-12345")).isFalse();
        assertThat(PasswordHasher.verify("pw-12345".toCharArray(), "")).isFalse();
        assertThat(PasswordHasher.verify("pw-12345".toCharArray(), stored + "$extra")).isFalse();
    }

    @Test
    void randomPasswordsAreLongUrlSafeAndDifferent() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            String p = PasswordHasher.randomPassword();
            assertThat(p).hasSize(24).matches("[A-Za-z0-9_-]+");
            seen.add(p);
        }
        assertThat(seen).hasSize(50);
    }
}
