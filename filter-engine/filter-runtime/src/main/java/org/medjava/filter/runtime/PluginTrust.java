package org.medjava.filter.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.KeyStoreException;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Whose plugins a host runs: the certificates of the publishers it trusts (each trusted directly, or as the
 * authority that issued a publisher's certificate) and what happens to a JAR that is not signed by one of them.
 * Immutable; a host builds a new one when its administrator changes the trust store.
 */
public final class PluginTrust {

    /** What a host does with a plugin JAR whose signature does not check out. */
    public enum Policy {
        /** Refused: it is not loaded and the host keeps nothing of it. */
        REQUIRE,
        /** Refused as with REQUIRE, but the host keeps the JAR aside (not loaded) for an administrator to inspect. */
        QUARANTINE,
        /** No check: every plugin JAR is loaded as before signatures existed (tools, tests, opt-in hosts). */
        OFF;

        /** {@code require}, {@code quarantine} or {@code off}, in any case. */
        public static Policy parse(String text) {
            try {
                return valueOf(text.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException | NullPointerException e) {
                throw new IllegalArgumentException("plugin signature policy \"" + text
                        + "\": write require, quarantine or off");
            }
        }
    }

    private static final PluginTrust OFF = new PluginTrust(Policy.OFF, List.of(), Clock.systemUTC());

    private final Policy policy;
    private final List<X509Certificate> publishers;
    private final Clock clock;

    private PluginTrust(Policy policy, List<X509Certificate> publishers, Clock clock) {
        this.policy = policy;
        this.publishers = List.copyOf(publishers);
        this.clock = clock;
    }

    /** No checks at all (a registry's default). */
    public static PluginTrust off() {
        return OFF;
    }

    public static PluginTrust of(Policy policy, List<X509Certificate> publishers) {
        return new PluginTrust(policy, publishers, Clock.systemUTC());
    }

    /** The trusted certificate entries of a key store (key entries' certificates count too). */
    public static PluginTrust of(Policy policy, KeyStore store) throws KeyStoreException {
        List<X509Certificate> certificates = new ArrayList<>();
        for (String alias : Collections.list(store.aliases())) {
            if (store.getCertificate(alias) instanceof X509Certificate certificate) {
                certificates.add(certificate);
            }
        }
        return of(policy, certificates);
    }

    /**
     * The certificates in {@code location}: a directory of {@code *.pem}, {@code *.crt}, {@code *.cer} files (PEM or
     * DER, several certificates per PEM file allowed), or one such file. A missing location trusts no one.
     *
     * @throws IOException when a file cannot be read or holds no certificate (the message names it)
     */
    public static PluginTrust load(Policy policy, Path location) throws IOException {
        List<X509Certificate> certificates = new ArrayList<>();
        if (Files.isDirectory(location)) {
            try (Stream<Path> files = Files.list(location)) {
                for (Path file : files.filter(PluginTrust::isCertificateFile).sorted().toList()) {
                    certificates.addAll(read(file));
                }
            }
        } else if (Files.isRegularFile(location)) {
            certificates.addAll(read(location));
        }
        return of(policy, certificates);
    }

    /** Whether {@code file}'s name says it holds certificates ({@code .pem}, {@code .crt}, {@code .cer}). */
    public static boolean isCertificateFile(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        return Files.isRegularFile(file) && (name.endsWith(".pem") || name.endsWith(".crt") || name.endsWith(".cer"));
    }

    private static List<X509Certificate> read(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            List<X509Certificate> found = new ArrayList<>();
            for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                found.add((X509Certificate) c);
            }
            if (found.isEmpty()) {
                throw new IOException(file + " holds no certificate");
            }
            return found;
        } catch (CertificateException e) {
            throw new IOException(file + " is not a PEM or DER certificate: " + e.getMessage(), e);
        }
    }

    /** The same trust, judging certificate validity by {@code clock} (tests). */
    public PluginTrust withClock(Clock clock) {
        return new PluginTrust(policy, publishers, clock);
    }

    public Policy policy() {
        return policy;
    }

    /** Whether plugin JARs are checked at all. */
    public boolean checks() {
        return policy != Policy.OFF;
    }

    public List<X509Certificate> publishers() {
        return publishers;
    }

    Clock clock() {
        return clock;
    }

    @Override
    public String toString() {
        return policy.name().toLowerCase(Locale.ROOT) + ", " + publishers.size() + " trusted publisher certificate"
                + (publishers.size() == 1 ? "" : "s");
    }
}
