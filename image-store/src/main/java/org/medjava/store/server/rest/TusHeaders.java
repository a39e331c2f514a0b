package org.medjava.store.server.rest;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.medjava.store.core.StoreException;

/** The header syntax of tus 1.0 and of RFC 9530's {@code Repr-Digest}, as {@link UploadsResource} reads and writes it. */
final class TusHeaders {

    static final String VERSION = "1.0.0";
    static final String EXTENSIONS = "creation,expiration,checksum,termination";
    static final String TUS_RESUMABLE = "Tus-Resumable";
    static final String UPLOAD_OFFSET = "Upload-Offset";
    static final String UPLOAD_LENGTH = "Upload-Length";
    static final String UPLOAD_METADATA = "Upload-Metadata";
    static final String UPLOAD_EXPIRES = "Upload-Expires";
    static final String UPLOAD_CHECKSUM = "Upload-Checksum";
    static final String REPR_DIGEST = "Repr-Digest";
    static final String OFFSET_OCTET_STREAM = "application/offset+octet-stream";

    private static final Pattern SHA256_DIGEST = Pattern.compile("(?:^|,)\\s*sha-256\\s*=\\s*:([A-Za-z0-9+/=]+):");

    private TusHeaders() {
    }

    /**
     * {@code Upload-Metadata}: comma-separated {@code key base64value} pairs (a value may be absent).
     *
     * @throws StoreException BAD_REQUEST for a value that is not base64 or a key given twice
     */
    static Map<String, String> metadata(String header) {
        Map<String, String> pairs = new LinkedHashMap<>();
        if (header == null || header.isBlank()) {
            return pairs;
        }
        for (String pair : header.split(",")) {
            String[] kv = pair.trim().split(" +", 2);
            if (kv[0].isEmpty()) {
                continue;
            }
            String value;
            try {
                value = kv.length < 2 ? "" : new String(Base64.getDecoder().decode(kv[1].trim()),
                        StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw new StoreException(StoreException.Kind.BAD_REQUEST, "Upload-Metadata: the value of \"" + kv[0]
                        + "\" is not base64");
            }
            if (pairs.put(kv[0], value) != null) {
                throw new StoreException(StoreException.Kind.BAD_REQUEST, "Upload-Metadata names \"" + kv[0]
                        + "\" twice");
            }
        }
        return pairs;
    }

    /**
     * The object's SHA-256 in lowercase hex, from the metadata {@code sha256} (hex) or {@code Repr-Digest:
     * sha-256=:base64:}; null when neither gives it.
     *
     * @throws StoreException BAD_REQUEST when both are given and disagree, or Repr-Digest's sha-256 is not 32 bytes
     */
    static String sha256(Map<String, String> metadata, String reprDigest) {
        String fromMetadata = metadata.get("sha256");
        String fromHeader = null;
        if (reprDigest != null) {
            Matcher m = SHA256_DIGEST.matcher(reprDigest);
            if (m.find()) {
                byte[] digest;
                try {
                    digest = Base64.getDecoder().decode(m.group(1));
                } catch (IllegalArgumentException e) {
                    digest = new byte[0];
                }
                if (digest.length != 32) {
                    throw new StoreException(StoreException.Kind.BAD_REQUEST, "Repr-Digest: sha-256 must be 32 bytes"
                            + " in base64 between colons (RFC 9530)");
                }
                fromHeader = HexFormat.of().formatHex(digest);
            }
        }
        if (fromMetadata != null && fromHeader != null && !fromMetadata.equalsIgnoreCase(fromHeader)) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "the metadata sha256 and Repr-Digest disagree");
        }
        return fromHeader != null ? fromHeader : fromMetadata;
    }

    /** A non-negative number of bytes, or -1 when the header is absent. */
    static long bytes(String header, String name) {
        if (header == null) {
            return -1;
        }
        try {
            long value = Long.parseLong(header.trim());
            if (value >= 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new StoreException(StoreException.Kind.BAD_REQUEST, name + " must be a non-negative number of bytes");
    }

    /** HTTP's date format, which Upload-Expires uses. */
    static String httpDate(Instant instant) {
        return DateTimeFormatter.RFC_1123_DATE_TIME.format(instant.atOffset(ZoneOffset.UTC));
    }
}
