package org.medjava.filter.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.security.CodeSigner;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.CertPath;
import java.security.cert.CertPathValidator;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Collections;
import java.util.Date;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;

/**
 * Checks a plugin JAR's standard JAR signature (as {@code jarsigner} writes it) against a {@link PluginTrust}, before
 * any of its code runs. A JAR passes when every entry is signed, unchanged since, and signed by one publisher whose
 * certificate the host trusts (directly, or through a trusted issuer: PKIX, revocation not checked) and is valid
 * now. The JDK does the cryptography ({@link JarFile} verification, {@link CertPathValidator}).
 */
public final class PluginSignatures {

    private static final String HOW = "; a plugin is signed with jarsigner by its publisher, whose certificate an "
            + "administrator adds to the host's trusted publishers (docs/filters.md, \"Signed plugins\")";

    private PluginSignatures() {
    }

    /** Who signed a plugin: the publisher's certificate subject and its SHA-256 fingerprint (as keytool shows). */
    public record Signer(String subject, String fingerprint, Instant notAfter) {
        @Override
        public String toString() {
            return subject + " (SHA-256 " + fingerprint + ")";
        }
    }

    /**
     * @return the publisher that signed every entry of {@code jar}; null when {@code trust} checks nothing
     * @throws RegistryException.PluginLoadException saying exactly what is wrong (not signed, an entry unsigned or
     *                                               changed after signing, an untrusted publisher, a certificate
     *                                               out of its validity period), without the plugin id
     */
    public static Signer verify(Path jar, PluginTrust trust) {
        if (!trust.checks()) {
            return null;
        }
        Date now = Date.from(trust.clock().instant());
        Map<X509Certificate, String> verdicts = new HashMap<>(); // signer certificate -> null (trusted) or why not
        Set<X509Certificate> common = null; // trusted signers present on every entry so far
        try (JarFile file = new JarFile(jar.toFile(), true)) {
            boolean signatureFiles = Collections.list(file.entries()).stream()
                    .anyMatch(e -> isSignatureFile(e.getName()) && e.getName().toUpperCase(Locale.ROOT).endsWith(".SF"));
            if (!signatureFiles) {
                throw failure("the JAR is not signed" + HOW, null);
            }
            byte[] buffer = new byte[1 << 14];
            for (JarEntry entry : Collections.list(file.entries())) {
                if (entry.isDirectory() || isSignatureFile(entry.getName())) {
                    continue;
                }
                try (InputStream in = file.getInputStream(entry)) {
                    while (in.read(buffer) >= 0) {
                        // reading to the end is what makes JarFile check the entry against its signed digest
                    }
                } catch (SecurityException e) {
                    throw failure("the JAR was changed after it was signed (" + entry.getName() + ": "
                            + e.getMessage() + ")", e);
                }
                CodeSigner[] signers = entry.getCodeSigners();
                if (signers == null || signers.length == 0) {
                    throw failure("only partly signed: entry " + entry.getName() + " is not signed (added or "
                            + "changed after signing)" + HOW, null);
                }
                Set<X509Certificate> trusted = new LinkedHashSet<>();
                String why = null;
                for (CodeSigner signer : signers) {
                    X509Certificate certificate = leaf(signer.getSignerCertPath());
                    String verdict = verdicts.computeIfAbsent(certificate,
                            c -> judge(signer.getSignerCertPath(), trust, now));
                    if (verdict.isEmpty()) {
                        trusted.add(certificate);
                    } else if (why == null) {
                        why = verdict;
                    }
                }
                if (trusted.isEmpty()) {
                    throw failure(why, null);
                }
                if (common == null) {
                    common = trusted;
                } else {
                    common.retainAll(trusted);
                    if (common.isEmpty()) {
                        throw failure("its entries are not all signed by the same trusted publisher (entry "
                                + entry.getName() + " is signed by " + subjects(trusted) + " only)", null);
                    }
                }
            }
        } catch (IOException e) {
            throw failure("not a readable JAR: " + e.getMessage(), e);
        } catch (SecurityException e) { // a signature block that does not verify at all
            throw failure("the JAR's signature does not verify (" + e.getMessage() + ")", e);
        }
        if (common == null) {
            throw failure("the JAR holds nothing signed" + HOW, null);
        }
        X509Certificate publisher = common.iterator().next();
        return new Signer(publisher.getSubjectX500Principal().getName(), fingerprint(publisher),
                publisher.getNotAfter().toInstant());
    }

    /** Empty when the signer is trusted and valid at {@code now}, else why not. */
    private static String judge(CertPath path, PluginTrust trust, Date now) {
        X509Certificate certificate = leaf(path);
        String who = "signed by " + certificate.getSubjectX500Principal().getName() + " (SHA-256 "
                + fingerprint(certificate) + ")";
        if (trust.publishers().contains(certificate)) {
            try {
                certificate.checkValidity(now);
                return "";
            } catch (CertificateExpiredException e) {
                return who + ", whose certificate expired on " + certificate.getNotAfter().toInstant();
            } catch (CertificateNotYetValidException e) {
                return who + ", whose certificate is not valid before " + certificate.getNotBefore().toInstant();
            }
        }
        if (!trust.publishers().isEmpty()) {
            try {
                PKIXParameters parameters = new PKIXParameters(trust.publishers().stream()
                        .map(c -> new TrustAnchor(c, null)).collect(Collectors.toSet()));
                parameters.setRevocationEnabled(false);
                parameters.setDate(now);
                CertPathValidator.getInstance("PKIX").validate(path, parameters);
                return "";
            } catch (CertPathValidatorException e) {
                if (e.getReason() == CertPathValidatorException.BasicReason.EXPIRED
                        || e.getReason() == CertPathValidatorException.BasicReason.NOT_YET_VALID) {
                    return who + ", whose certificate chain is outside its validity period (" + e.getMessage() + ")";
                }
            } catch (GeneralSecurityException e) {
                return who + ", whose certificate chain cannot be checked (" + e.getMessage() + ")";
            }
        }
        return who + ", a publisher this host does not trust (it trusts " + trust.publishers().size()
                + " publisher certificate" + (trust.publishers().size() == 1 ? "" : "s") + ")" + HOW;
    }

    /** The JAR's own signature machinery: the manifest and META-INF/*.SF, *.RSA, *.DSA, *.EC, SIG-*. */
    static boolean isSignatureFile(String name) {
        String upper = name.toUpperCase(Locale.ROOT);
        if (!upper.startsWith("META-INF/")) {
            return false;
        }
        String rest = upper.substring("META-INF/".length());
        return rest.equals("MANIFEST.MF") || (rest.indexOf('/') < 0 && (rest.endsWith(".SF")
                || rest.endsWith(".RSA") || rest.endsWith(".DSA") || rest.endsWith(".EC") || rest.startsWith("SIG-")));
    }

    private static X509Certificate leaf(CertPath path) {
        return (X509Certificate) path.getCertificates().get(0);
    }

    private static String subjects(Set<X509Certificate> certificates) {
        return certificates.stream().map(c -> c.getSubjectX500Principal().getName()).collect(Collectors.joining(", "));
    }

    /** SHA-256 of the DER certificate, as {@code keytool -list -v} prints it. */
    public static String fingerprint(X509Certificate certificate) {
        try {
            return HexFormat.ofDelimiter(":").withUpperCase()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded()));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    private static RegistryException.PluginLoadException failure(String reason, Throwable cause) {
        return new RegistryException.PluginLoadException(reason, cause);
    }
}
