package org.medjava.viewer.filters;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PluginVerifierTest {
    private static final byte[] JAR = "pretend this is a jar".getBytes(StandardCharsets.UTF_8);

    @Test
    void acceptsTheAdvertisedDigestInEitherCase() {
        String sha = PluginVerifier.sha256(JAR);
        assertThatCode(() -> PluginVerifier.verify("blur", JAR, sha)).doesNotThrowAnyException();
        assertThatCode(() -> PluginVerifier.verify("blur", JAR, sha.toUpperCase())).doesNotThrowAnyException();
    }

    @Test
    void refusesADifferentDigestNamingBoth() {
        String other = PluginVerifier.sha256("another jar".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> PluginVerifier.verify("blur", JAR, other)).isInstanceOf(SecurityException.class)
                .hasMessageContaining(other).hasMessageContaining(PluginVerifier.sha256(JAR))
                .hasMessageContaining("not loaded");
    }

    @Test
    void refusesAManifestWithoutADigest() {
        assertThatThrownBy(() -> PluginVerifier.verify("blur", JAR, null)).isInstanceOf(SecurityException.class);
        assertThatThrownBy(() -> PluginVerifier.verify("blur", JAR, "abc")).isInstanceOf(SecurityException.class);
    }
}
