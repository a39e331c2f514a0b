package org.medjava.store.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The settings are checked as the store starts: a bad value in any record stops it with a message that names the
 * key and the value; the defaults, and an empty value (unset, as in MicroProfile Config), start.
 */
class SettingsValidationTest {

    /** The store's settings with these keys given and the rest at their defaults. */
    private static StoreConfig configWith(String... keysAndValues) {
        Map<String, String> values = new HashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            values.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return new StoreConfig(SettingsSource.of(values));
    }

    static Stream<Arguments> badValues() {
        return Stream.of(
                Arguments.of("medjava.backup.max-pause-seconds", "thirty", "whole number"),
                Arguments.of("medjava.db.url", "postgresql://db/medjava", "JDBC URL"),
                Arguments.of("medjava.db.max-connections", "4", "6 or more"),
                Arguments.of("medjava.storage", "nfs", "files or s3"),
                Arguments.of("medjava.storage.min-free-bytes", "1GB", "whole number"),
                Arguments.of("medjava.public-url", "pacs.example.org/medjava", "absolute http(s) URL"),
                Arguments.of("medjava.http.trust-forwarded", "maybe", "true or false"),
                Arguments.of("medjava.http.port", "70000", "1 to 65535"),
                Arguments.of("medjava.http.max-relayed", "0", "1 or more"),
                Arguments.of("medjava.http.max-waiting", "-1", "1 or more"),
                Arguments.of("medjava.http.read-cache-bytes", "-1", "0 or more"),
                Arguments.of("medjava.http.thumbnail-cache-bytes", "-5", "0 or more"),
                Arguments.of("medjava.http.header-timeout-seconds", "-1", "0 or more"),
                Arguments.of("medjava.auth.max-failures", "0", "1 or more"),
                Arguments.of("medjava.auth.anonymous-read", "yes please", "true or false"),
                Arguments.of("medjava.session.idle-minutes", "0", "1 or more"),
                Arguments.of("medjava.oidc.issuer", "https://sso example/realms/x", "issuer URL"),
                Arguments.of("medjava.oidc.clock-skew-seconds", "-1", "0 or more"),
                Arguments.of("medjava.share.max-days", "4000", "0 to 3660"),
                Arguments.of("medjava.access.receive-labels", "CARDIO_CT", "SENDER=label"),
                Arguments.of("medjava.upload.max-bytes", "lots", "whole number"),
                Arguments.of("medjava.upload.resumable-expiry-hours", "0", "above 0"),
                Arguments.of("medjava.plugin.max-bytes", "0", "1 or more"),
                Arguments.of("medjava.images.max-pixels", "99999999999999999999", "whole number"),
                Arguments.of("medjava.filters.deadline-seconds", "3000000000", "whole number up to"),
                Arguments.of("medjava.dicom.tls.client-auth", "always", "none, want or need"),
                Arguments.of("medjava.dicom.duplicate-policy", "keep", "reject or replace"),
                Arguments.of("medjava.dicom.port", "104x", "whole number"),
                Arguments.of("medjava.log.max-bytes", "0", "size in bytes"),
                Arguments.of("medjava.audit.files", "-1", "0 or more"),
                Arguments.of("medjava.audit.read-window-seconds", "0", "1 or more"),
                Arguments.of("medjava.cluster.enabled", "sometimes", "true or false"),
                Arguments.of("medjava.jobs.lease-seconds", "0", "1 or more"),
                Arguments.of("medjava.jobs.max-series-instances", "0", "1 or more"),
                Arguments.of("medjava.trash.grace-hours", "-1", "0 or more"),
                Arguments.of("medjava.delete.guard-share", "1.5", "from 0 to 1"),
                Arguments.of("medjava.retention.interval-minutes", "hourly", "whole number"),
                Arguments.of("medjava.route.backoff-initial-seconds", "0", "above 0"),
                Arguments.of("medjava.route.history-days", "NaN", "a number"));
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("badValues")
    void aBadValueStopsTheStartNamingTheKeyAndTheValue(String key, String value, String advice) {
        assertThatThrownBy(() -> configWith(key, value)).isInstanceOfSatisfying(SettingException.class, e -> {
            assertThat(e.key()).isEqualTo(key);
            assertThat(e.getMessage()).startsWith(key).contains(value.strip()).contains(advice);
        });
    }

    static Stream<Arguments> combinations() {
        return Stream.of(
                Arguments.of(new String[] {"medjava.http.port", "8080"}, "medjava.http.backend-port"),
                Arguments.of(new String[] {"medjava.dicom.tls-port", "2762"}, "medjava.dicom.tls-port"),
                Arguments.of(new String[] {"medjava.session.idle-minutes", "120", "medjava.session.max-hours", "1"},
                        "medjava.session.max-hours"),
                Arguments.of(new String[] {"medjava.storage", "s3"}, "medjava.storage.s3.endpoint"),
                Arguments.of(new String[] {"medjava.cluster.enabled", "true"}, "medjava.db.url"),
                Arguments.of(new String[] {"medjava.cluster.enabled", "true", "medjava.db.url",
                        "jdbc:postgresql://db/medjava"}, "medjava.storage"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("combinations")
    void aSettingThatNeedsAnotherNamesWhatIsMissing(String[] given, String named) {
        assertThatThrownBy(() -> configWith(given)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(named);
    }

    @Test
    void theDefaultsStartAndAreWhatTheReferenceSays() {
        StoreConfig config = configWith();
        assertThat(config.uploads().maxBytes()).isEqualTo(1L << 30);
        assertThat(config.uploads().resumableExpiry()).isEqualTo(Duration.ofHours(24));
        assertThat(config.storage().s3Storage()).isFalse();
        assertThat(config.http().directReads()).isTrue();
        assertThat(config.dicom().port()).isEmpty();
        assertThat(config.dicom().aeTitle()).isEqualTo("MEDJAVA");
        assertThat(config.oidc().audience()).isEqualTo("medjava");
        assertThat(config.oidc().roleMap()).isEmpty();
        assertThat(config.routes().history()).isEqualTo(Duration.ofDays(30));
        assertThat(config.trash().trash().grace()).isEqualTo(Duration.ofHours(72));
        assertThat(config.data().dataDir()).isAbsolute().hasFileName("data");
    }

    @Test
    void anEmptyValueIsUnsetAndAccessByProjectTurnsTheFrontsDirectReadsOff() {
        StoreConfig config = configWith("medjava.upload.max-bytes", "", "medjava.access.by-project", "on",
                "medjava.dicom.port", "0", "medjava.filters.max-concurrent", "0");
        assertThat(config.uploads().maxBytes()).isEqualTo(1L << 30);
        assertThat(config.http().directReads()).isFalse();
        assertThat(config.dicom().port()).as("0: no DIMSE service").isEmpty();
        assertThat(config.render().filterMaxConcurrent()).isEqualTo(Runtime.getRuntime().availableProcessors());
    }

    @Test
    void secretsAreNotPrinted() {
        StoreConfig config = configWith("medjava.db.url", "jdbc:postgresql://db/medjava", "medjava.db.password",
                "s3cret", "medjava.admin.initial-password", "s3cret", "medjava.oidc.client-secret", "s3cret",
                "medjava.tls.keystore-password", "s3cret", "medjava.dicom.tls.truststore-password", "s3cret");
        assertThat(Stream.of(config.database(), config.auth(), config.oidc(), config.tls(), config.dicom())
                .map(Object::toString)).noneMatch(text -> text.contains("s3cret"));
    }
}
