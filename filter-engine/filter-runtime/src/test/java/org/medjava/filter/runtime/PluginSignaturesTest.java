package org.medjava.filter.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.filter.testkit.PluginJarBuilder;
import org.medjava.filter.testkit.TestPublisher;

/** Signed, unsigned, tampered, partly signed, untrusted and out-of-date plugin JARs against a trust store. */
class PluginSignaturesTest {
    static final TestPublisher PUBLISHER = TestPublisher.standard();
    static final PluginTrust TRUST = PluginTrust.of(PluginTrust.Policy.REQUIRE, List.of(PUBLISHER.certificate()));

    @TempDir
    Path dir;

    private Path jar(String name, UnaryOperator<PluginJarBuilder> how) throws IOException {
        String pkg = "test.sig." + name.replace("-", "");
        return how.apply(PluginJarBuilder.plugin("sig").version("1")
                .source(pkg + ".Provider", TestPlugins.fillProvider(pkg, "sig-fill", 7, "", ""))
                .provider(pkg + ".Provider")).build(dir.resolve(name + ".jar"));
    }

    @Test
    void aJarSignedByATrustedPublisherNamesItsSigner() throws IOException {
        PluginSignatures.Signer signer = PluginSignatures.verify(jar("good", b -> b), TRUST);

        assertThat(signer.subject()).contains("CN=MedJava test publisher");
        assertThat(signer.fingerprint()).isEqualTo(PluginSignatures.fingerprint(PUBLISHER.certificate()))
                .matches("([0-9A-F]{2}:){31}[0-9A-F]{2}");
    }

    @Test
    void anUnsignedJarIsRefused() throws IOException {
        Path unsigned = jar("unsigned", PluginJarBuilder::unsigned);

        assertThatThrownBy(() -> PluginSignatures.verify(unsigned, TRUST))
                .isInstanceOf(RegistryException.PluginLoadException.class)
                .hasMessageStartingWith("the JAR is not signed").hasMessageContaining("jarsigner");
    }

    @Test
    void aClassChangedAfterSigningIsRefused() throws IOException {
        Path jar = jar("tampered", b -> b);
        rewrite(jar, (name, bytes) -> name.endsWith("Provider.class") ? flipLastByte(bytes) : bytes, null);

        assertThatThrownBy(() -> PluginSignatures.verify(jar, TRUST))
                .hasMessageStartingWith("the JAR was changed after it was signed")
                .hasMessageContaining("Provider.class");
    }

    @Test
    void aManifestWhoseMainAttributesChangedAfterSigningIsRefused() throws IOException {
        Path jar = jar("relabelled", b -> b);
        rewrite(jar, (name, bytes) -> name.equals("META-INF/MANIFEST.MF") ? new String(bytes, StandardCharsets.UTF_8)
                .replace("Plugin-Version: 1", "Plugin-Version: 9").getBytes(StandardCharsets.UTF_8) : bytes, null);

        assertThatThrownBy(() -> PluginSignatures.verify(jar, TRUST))
                .isInstanceOf(RegistryException.PluginLoadException.class)
                .hasMessageContaining("Manifest main attributes");
    }

    @Test
    void anEntryAddedAfterSigningMakesThePluginPartlySignedAndRefused() throws IOException {
        Path jar = jar("partly", b -> b);
        rewrite(jar, (name, bytes) -> bytes, "test/sig/Extra.class");

        assertThatThrownBy(() -> PluginSignatures.verify(jar, TRUST))
                .hasMessageStartingWith("only partly signed: entry test/sig/Extra.class is not signed");
    }

    @Test
    void aPublisherTheHostDoesNotTrustIsRefusedWithItsFingerprint() throws IOException {
        TestPublisher stranger = TestPublisher.create("CN=Somebody else");
        Path jar = jar("stranger", b -> b.signedBy(stranger));

        assertThatThrownBy(() -> PluginSignatures.verify(jar, TRUST))
                .hasMessageContaining("signed by CN=Somebody else (SHA-256 "
                        + PluginSignatures.fingerprint(stranger.certificate()) + ")")
                .hasMessageContaining("a publisher this host does not trust (it trusts 1 publisher certificate)");
        assertThatThrownBy(() -> PluginSignatures.verify(jar, PluginTrust.of(PluginTrust.Policy.REQUIRE, List.of())))
                .hasMessageContaining("it trusts 0 publisher certificates");
    }

    @Test
    void anExpiredOrNotYetValidPublisherCertificateIsRefused() throws IOException {
        TestPublisher expired = TestPublisher.create("CN=Expired publisher", "-30d", 10);
        TestPublisher future = TestPublisher.create("CN=Future publisher", "+10d", 30);
        PluginTrust trust = PluginTrust.of(PluginTrust.Policy.REQUIRE,
                List.of(expired.certificate(), future.certificate()));

        assertThatThrownBy(() -> PluginSignatures.verify(jar("expired", b -> b.signedBy(expired)), trust))
                .hasMessageContaining("CN=Expired publisher").hasMessageContaining("whose certificate expired on");
        assertThatThrownBy(() -> PluginSignatures.verify(jar("future", b -> b.signedBy(future)), trust))
                .hasMessageContaining("CN=Future publisher").hasMessageContaining("is not valid before");
        Clock later = Clock.offset(Clock.system(ZoneOffset.UTC), Duration.ofDays(15));
        assertThat(PluginSignatures.verify(dir.resolve("future.jar"), trust.withClock(later)).subject())
                .contains("Future publisher");
    }

    @Test
    void theTrustStoreIsADirectoryOfPemCertificates() throws IOException {
        Path trusted = dir.resolve("trusted");
        PUBLISHER.writeCertificate(trusted.resolve("test-publisher.pem"));
        Files.writeString(trusted.resolve("README.txt"), "not a certificate, not read");

        PluginTrust trust = PluginTrust.load(PluginTrust.Policy.parse("Quarantine"), trusted);

        assertThat(trust.policy()).isEqualTo(PluginTrust.Policy.QUARANTINE);
        assertThat(trust.publishers()).containsExactly(PUBLISHER.certificate());
        assertThat(PluginSignatures.verify(jar("fromdir", b -> b), trust)).isNotNull();
        assertThat(PluginTrust.load(PluginTrust.Policy.REQUIRE, dir.resolve("missing")).publishers()).isEmpty();
        Files.writeString(trusted.resolve("broken.pem"), "-----BEGIN CERTIFICATE-----\nAAAA\n");
        assertThatThrownBy(() -> PluginTrust.load(PluginTrust.Policy.REQUIRE, trusted))
                .isInstanceOf(IOException.class).hasMessageContaining("broken.pem");
        assertThatThrownBy(() -> PluginTrust.Policy.parse("maybe")).hasMessageContaining("require, quarantine or off");
    }

    @Test
    void theRegistryChecksBeforeAnyPluginCodeRunsAndKeepsTheRunningVersion() throws IOException {
        Path marker = dir.resolve("init-ran");
        String init = "try { java.nio.file.Files.writeString(java.nio.file.Path.of(\""
                + marker.toString().replace("\\", "\\\\") + "\"), \"ran\"); }"
                + " catch (java.io.IOException e) { throw new java.io.UncheckedIOException(e); }";
        Path good = TestPlugins.fillJar(dir.resolve("v1.jar"), "sig", "sig-fill", 1, "");
        String pkg = "test.sig.evil";
        Path evil = PluginJarBuilder.plugin("sig").version("2").unsigned()
                .source(pkg + ".Provider", TestPlugins.fillProvider(pkg, "sig-fill", 2, "", init))
                .provider(pkg + ".Provider").build(dir.resolve("v2.jar"));
        try (FilterRegistry registry = new FilterRegistry(dir.resolve("work"))) {
            registry.setTrust(TRUST);
            registry.load("sig", good, Map.of());

            assertThatThrownBy(() -> registry.load("sig", evil, Map.of()))
                    .isInstanceOf(RegistryException.PluginLoadException.class)
                    .hasMessage("plugin sig: the JAR is not signed; a plugin is signed with jarsigner by its publisher, "
                            + "whose certificate an administrator adds to the host's trusted publishers "
                            + "(docs/filters.md, \"Signed plugins\")");
            assertThat(marker).doesNotExist();
            assertThat(registry.plugin("sig").orElseThrow().version()).isEqualTo("1");
            assertThat(registry.plugin("sig").orElseThrow().state()).isEqualTo(PluginInfo.State.ACTIVE);

            registry.setTrust(PluginTrust.off());
            registry.load("sig", evil, Map.of());
            assertThat(marker).exists();
        }
    }

    interface EntryChange {
        byte[] apply(String name, byte[] bytes);
    }

    /** Copies {@code jar} entry by entry through {@code change}, adding an entry {@code added} when not null. */
    private static void rewrite(Path jar, EntryChange change, String added) throws IOException {
        Path temp = jar.resolveSibling(jar.getFileName() + ".tmp");
        try (ZipFile in = new ZipFile(jar.toFile()); OutputStream file = Files.newOutputStream(temp);
             ZipOutputStream out = new ZipOutputStream(file)) {
            for (ZipEntry entry : Collections.list(in.entries())) {
                byte[] bytes;
                try (InputStream data = in.getInputStream(entry)) {
                    bytes = data.readAllBytes();
                }
                out.putNextEntry(new ZipEntry(entry.getName()));
                out.write(change.apply(entry.getName(), bytes));
                out.closeEntry();
            }
            if (added != null) {
                out.putNextEntry(new ZipEntry(added));
                out.write(new byte[] {(byte) 0xCA, (byte) 0xFE});
                out.closeEntry();
            }
        }
        Files.move(temp, jar, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private static byte[] flipLastByte(byte[] bytes) {
        byte[] copy = bytes.clone();
        copy[copy.length - 1] ^= 1;
        return copy;
    }
}
