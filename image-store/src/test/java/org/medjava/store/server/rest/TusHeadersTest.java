package org.medjava.store.server.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.medjava.store.core.StoreException;

/** The tus header syntax: Upload-Metadata, the object's SHA-256 from it or from RFC 9530's Repr-Digest, numbers. */
class TusHeadersTest {

    private static final String HEX = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

    private static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void metadataIsKeysWithBase64ValuesAndAKeyMayHaveNone() {
        Map<String, String> meta = TusHeaders.metadata("path " + b64("a b/ct é.dcm") + ",sha256 " + b64(HEX)
                + ", flag");
        assertThat(meta).containsEntry("path", "a b/ct é.dcm").containsEntry("sha256", HEX).containsEntry("flag", "");
        assertThat(TusHeaders.metadata(null)).isEmpty();
    }

    @Test
    void metadataThatIsNotBase64OrNamesAKeyTwiceIsABadRequest() {
        assertThatThrownBy(() -> TusHeaders.metadata("path ***")).isInstanceOfSatisfying(StoreException.class,
                e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.BAD_REQUEST));
        assertThatThrownBy(() -> TusHeaders.metadata("path " + b64("a") + ",path " + b64("b")))
                .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.getMessage()).contains("twice"));
    }

    @Test
    void theObjectsSha256ComesFromTheMetadataOrReprDigestAndTheyMustAgree() {
        String digest = "sha-256=:" + Base64.getEncoder().encodeToString(HexFormat.of().parseHex(HEX)) + ":";
        assertThat(TusHeaders.sha256(Map.of("sha256", HEX), null)).isEqualTo(HEX);
        assertThat(TusHeaders.sha256(Map.of(), "sha-512=:AAAA:, " + digest)).isEqualTo(HEX);
        assertThat(TusHeaders.sha256(Map.of("sha256", HEX.toUpperCase()), digest)).isEqualTo(HEX);
        assertThat(TusHeaders.sha256(Map.of(), null)).isNull();
        assertThatThrownBy(() -> TusHeaders.sha256(Map.of("sha256", HEX.replace('9', '8')), digest))
                .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.getMessage()).contains("disagree"));
        assertThatThrownBy(() -> TusHeaders.sha256(Map.of(), "sha-256=:AAAA:"))
                .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.getMessage()).contains("RFC 9530"));
    }

    @Test
    void byteCountsAreNonNegativeNumbers() {
        assertThat(TusHeaders.bytes("42", "Upload-Offset")).isEqualTo(42);
        assertThat(TusHeaders.bytes(null, "Upload-Offset")).isEqualTo(-1);
        assertThatThrownBy(() -> TusHeaders.bytes("-1", "Upload-Offset")).isInstanceOfSatisfying(
                StoreException.class, e -> assertThat(e.getMessage()).contains("Upload-Offset"));
        assertThatThrownBy(() -> TusHeaders.bytes("abc", "Upload-Length")).isInstanceOf(StoreException.class);
    }

    @Test
    void uploadExpiresIsAnHttpDate() {
        assertThat(TusHeaders.httpDate(Instant.parse("2026-11-26T12:00:00Z")))
                .isEqualTo("Thu, 26 Nov 2026 12:00:00 GMT");
    }
}
