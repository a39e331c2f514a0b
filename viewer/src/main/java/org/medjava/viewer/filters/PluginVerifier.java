package org.medjava.viewer.filters;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/** Checks a downloaded plugin JAR against the SHA-256 the store's manifest promised, before anything loads it. */
public final class PluginVerifier {
    private PluginVerifier() {
    }

    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    /**
     * @throws SecurityException naming both digests when they differ (or the manifest gave none)
     */
    public static void verify(String pluginId, byte[] jar, String expectedSha256) {
        if (expectedSha256 == null || !expectedSha256.matches("(?i)[0-9a-f]{64}")) {
            throw new SecurityException("plugin " + pluginId + ": the manifest gives no valid SHA-256 (\""
                    + expectedSha256 + "\"); not loaded");
        }
        String actual = sha256(jar);
        if (!actual.equals(expectedSha256.toLowerCase(Locale.ROOT))) {
            throw new SecurityException("plugin " + pluginId + ": downloaded JAR has SHA-256 " + actual
                    + " but the manifest says " + expectedSha256 + "; not loaded (changed in transit or replaced"
                    + " meanwhile; the next manifest check retries)");
        }
    }
}
