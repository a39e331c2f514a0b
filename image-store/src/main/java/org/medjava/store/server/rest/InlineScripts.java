package org.medjava.store.server.rest;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Content-Security-Policy sources ({@code 'sha256-…'}) of a page's inline scripts, so that a page whose build
 * inlines a few bootstrap lines (OHIF's index.html) runs them without {@code 'unsafe-inline'}, which would let any
 * injected script run too. Computed from the bytes served, so an updated build needs no hand-kept list.
 */
final class InlineScripts {
    private static final Pattern SCRIPT = Pattern.compile("<script(\\s[^>]*)?>(.*?)</script\\s*>",
            Pattern.DOTALL | Pattern.CASE_INSENSITIVE);
    private static final Pattern SRC = Pattern.compile("\\ssrc\\s*=", Pattern.CASE_INSENSITIVE);

    private InlineScripts() {
    }

    /** The hash sources of the inline scripts in {@code html} (UTF-8), space-separated; empty when there are none. */
    static String hashSources(byte[] html) {
        Set<String> sources = new LinkedHashSet<>();
        Matcher m = SCRIPT.matcher(new String(html, StandardCharsets.UTF_8));
        while (m.find()) {
            String attributes = m.group(1) == null ? "" : m.group(1);
            if (SRC.matcher(attributes).find() || m.group(2).isEmpty()) {
                continue; // a script from a file: 'self' covers it
            }
            sources.add("'sha256-" + Base64.getEncoder().encodeToString(sha256(m.group(2))) + "'");
        }
        return String.join(" ", sources);
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
