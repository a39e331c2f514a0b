package org.medjava.store.server.filter;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The conditional-request rules of the servlet-level download (RFC 9110 §13.2.2), the percent-decoding of its path. */
class FileDownloadTest {
    private static final String ETAG = "\"9926-18eb5afe261d3908-be63fd\"";
    private static final long MODIFIED = 1_795_000_000L; // epoch seconds
    private static final String AT = "Wed, 18 Nov 2026 11:06:40 GMT"; // MODIFIED as an HTTP date
    private static final String BEFORE = "Wed, 18 Nov 2026 11:06:39 GMT";

    /** A request with a method and headers: only what the rules read. */
    private static FileDownload.Exchange request(String method, String... headers) {
        Map<String, String> h = new HashMap<>();
        for (int i = 0; i < headers.length; i += 2) {
            h.put(headers[i].toLowerCase(), headers[i + 1]);
        }
        return (FileDownload.Exchange) Proxy.newProxyInstance(FileDownloadTest.class.getClassLoader(),
                new Class<?>[] {FileDownload.Exchange.class}, (proxy, m, args) -> switch (m.getName()) {
                    case "method" -> method;
                    case "header" -> h.get(((String) args[0]).toLowerCase());
                    default -> throw new UnsupportedOperationException(m.getName());
                });
    }

    private static int precondition(String method, String... headers) {
        return FileDownload.precondition(request(method, headers), ETAG, MODIFIED);
    }

    @Test
    void theHttpDateIsTheModificationSecond() {
        assertThat(FileDownload.date(AT)).isEqualTo(MODIFIED);
        assertThat(FileDownload.date("not a date")).isEqualTo(Long.MIN_VALUE);
        assertThat(FileDownload.date(null)).isEqualTo(Long.MIN_VALUE);
        assertThat(FileDownload.httpDate(MODIFIED)).isEqualTo(AT);
        assertThat(FileDownload.httpDate(1_780_362_000L)).isEqualTo("Tue, 02 Jun 2026 01:00:00 GMT"); // two-digit day
    }

    @Test
    void ifNoneMatchGivesNotModifiedForReadsWithWeakComparison() {
        assertThat(precondition("GET")).isZero();
        assertThat(precondition("GET", "If-None-Match", ETAG)).isEqualTo(304);
        assertThat(precondition("HEAD", "If-None-Match", "\"other\", W/" + ETAG)).isEqualTo(304);
        assertThat(precondition("GET", "If-None-Match", "*")).isEqualTo(304);
        assertThat(precondition("GET", "If-None-Match", "\"other\"")).isZero();
    }

    @Test
    void ifNoneMatchOutranksIfModifiedSince() {
        // the tag differs, so the date is not looked at (RFC 9110 §13.1.3)
        assertThat(precondition("GET", "If-None-Match", "\"other\"", "If-Modified-Since", AT)).isZero();
        assertThat(precondition("GET", "If-Modified-Since", AT)).isEqualTo(304);
        assertThat(precondition("GET", "If-Modified-Since", BEFORE)).isZero();
        assertThat(precondition("GET", "If-Modified-Since", "garbage")).isZero();
    }

    @Test
    void ifMatchAndIfUnmodifiedSinceGivePreconditionFailed() {
        assertThat(precondition("GET", "If-Match", ETAG)).isZero();
        assertThat(precondition("GET", "If-Match", "W/" + ETAG)).isEqualTo(412); // strong comparison
        assertThat(precondition("GET", "If-Match", "\"a\", " + ETAG)).isZero();
        assertThat(precondition("GET", "If-Match", "\"a\"")).isEqualTo(412);
        assertThat(precondition("GET", "If-Unmodified-Since", BEFORE)).isEqualTo(412);
        assertThat(precondition("GET", "If-Unmodified-Since", AT)).isZero();
        // If-Match present: If-Unmodified-Since is not evaluated
        assertThat(precondition("GET", "If-Match", ETAG, "If-Unmodified-Since", BEFORE)).isZero();
    }

    @Test
    void aRangeAppliesOnlyToTheVersionIfRangeNames() {
        assertThat(FileDownload.rangeApplies(null, ETAG, MODIFIED)).isTrue();
        assertThat(FileDownload.rangeApplies(ETAG, ETAG, MODIFIED)).isTrue();
        assertThat(FileDownload.rangeApplies("\"old\"", ETAG, MODIFIED)).isFalse();
        assertThat(FileDownload.rangeApplies("W/" + ETAG, ETAG, MODIFIED)).isFalse();
        assertThat(FileDownload.rangeApplies(AT, ETAG, MODIFIED)).isTrue();
        assertThat(FileDownload.rangeApplies(BEFORE, ETAG, MODIFIED)).isFalse();
    }
}
