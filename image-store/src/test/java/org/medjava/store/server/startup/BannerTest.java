package org.medjava.store.server.startup;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BannerTest {

    @TempDir
    Path dir;

    private Banner.Facts facts(String newPassword) {
        return facts(newPassword, null);
    }

    private Banner.Facts facts(String newPassword, Banner.Tls tls) {
        return new Banner.Facts("http://pacs.example.org:8080", "1.2.3", Path.of("/srv/medjava"),
                "MEDJAVA on 0.0.0.0:11112, calling AE titles [CT1]", newPassword,
                new TreeSet<>(List.of("reader1", "admin")), false, 8, 25, Duration.ofMillis(1234), tls);
    }

    @Test
    void firstStartShowsEveryAddressTheLogFileAndTheOneTimePassword() {
        String text = Banner.text(facts("s3cret-once"));
        assertThat(text).contains("MedJava image store 1.2.3",
                "store:       http://pacs.example.org:8080/\n",
                "viewer:      http://pacs.example.org:8080/viewer/",
                "OHIF:        http://pacs.example.org:8080/ohif/",
                "health:      http://pacs.example.org:8080/health/ready",
                "filters:     http://pacs.example.org:8080/filters\n",
                "api:         http://pacs.example.org:8080/api/",
                "dicom:       MEDJAVA on 0.0.0.0:11112",
                "data:        /srv/medjava\n",
                "log:         /srv/medjava/logs/medjava.log\n",
                "login:       admin / s3cret-once");
        assertThat(text).as("no colour codes").doesNotContain("\u001b[");
        String[] lines = text.split("\n");
        assertThat(lines[lines.length - 1]).hasSameSizeAs(lines[0]).matches("=+");
    }

    @Test
    void laterStartsNameTheAccountsAndTheWayBackInsteadOfAPassword() {
        assertThat(Banner.text(facts(null))).doesNotContain("admin / ")
                .contains("accounts [admin, reader1]", "./medjava admin reset-password admin");
    }

    @Test
    void withHttpsItNamesTheAddressForOtherMachinesAndTheCertificatesFingerprint() {
        assertThat(Banner.text(facts(null))).doesNotContain("https:");
        String text = Banner.text(facts(null, new Banner.Tls("https://pacs:8443", "AB:CD")));
        assertThat(text).contains("https:       https://pacs:8443/   (from other machines)\n",
                "certificate: SHA-256 AB:CD\n");
        String[] lines = text.split("\n");
        assertThat(lines[lines.length - 1]).hasSameSizeAs(lines[0]).matches("=+");
    }

    @Test
    void theFileIsReadableByItsOwnerOnlyAndReplacedWhole() throws Exception {
        Path file = dir.resolve("banner.txt");
        Files.writeString(file, "an old banner that was longer than the new one\n".repeat(20));
        Banner.write(file, "new\n");
        assertThat(Files.readString(file)).isEqualTo("new\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(dir.resolve("banner.txt.tmp")).doesNotExist();
    }
}
