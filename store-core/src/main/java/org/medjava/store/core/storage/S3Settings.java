package org.medjava.store.core.storage;

import java.net.URI;
import java.util.Locale;

/**
 * Where and how {@link S3Storage} reaches its bucket.
 *
 * @param endpoint           the S3 endpoint ({@code medjava.storage.s3.endpoint}), e.g. {@code http://minio:9000}
 * @param region             the signing region ({@code medjava.storage.s3.region}); blank means {@code us-east-1}
 * @param bucket             the bucket ({@code medjava.storage.s3.bucket}); it must exist
 * @param prefix             the key prefix under which the store keeps its objects ({@code medjava.storage.s3.prefix});
 *                           may be empty, normalized to have neither a leading nor a trailing '/'
 * @param accessKey          {@code medjava.storage.s3.access-key}
 * @param secretKey          {@code medjava.storage.s3.secret-key}; never printed
 * @param partSize           bytes per multipart part (at least 5 MiB, S3's minimum)
 * @param multipartThreshold objects larger than this go by multipart upload
 */
public record S3Settings(URI endpoint, String region, String bucket, String prefix, String accessKey,
        String secretKey, long partSize, long multipartThreshold) {

    public static final String ENDPOINT = "medjava.storage.s3.endpoint";
    public static final String REGION = "medjava.storage.s3.region";
    public static final String BUCKET = "medjava.storage.s3.bucket";
    public static final String PREFIX = "medjava.storage.s3.prefix";
    public static final String ACCESS_KEY = "medjava.storage.s3.access-key";
    public static final String SECRET_KEY = "medjava.storage.s3.secret-key";

    public static final String DEFAULT_REGION = "us-east-1";
    public static final long MIB = 1024 * 1024;
    public static final long DEFAULT_PART_SIZE = 16 * MIB;
    public static final long DEFAULT_MULTIPART_THRESHOLD = 16 * MIB;
    /** S3 refuses parts below 5 MiB (except the last). */
    public static final long MIN_PART_SIZE = 5 * MIB;
    public static final long MAX_PART_SIZE = 5L * 1024 * MIB;

    public S3Settings {
        if (endpoint == null) {
            throw new IllegalArgumentException(ENDPOINT + " is required (e.g. http://localhost:9000)");
        }
        String scheme = endpoint.getScheme() == null ? "" : endpoint.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || endpoint.getHost() == null) {
            throw new IllegalArgumentException(ENDPOINT + " must be an http:// or https:// URL with a host, not '"
                    + endpoint + "'");
        }
        region = region == null || region.isBlank() ? DEFAULT_REGION : region.strip();
        if (bucket == null || bucket.isBlank()) {
            throw new IllegalArgumentException(BUCKET + " is required");
        }
        bucket = bucket.strip();
        if (bucket.contains("/")) {
            throw new IllegalArgumentException(BUCKET + " must be a bucket name without '/', not '" + bucket + "'");
        }
        prefix = normalizePrefix(prefix);
        if (accessKey == null || accessKey.isBlank()) {
            throw new IllegalArgumentException(ACCESS_KEY + " is required");
        }
        if (secretKey == null || secretKey.isEmpty()) {
            throw new IllegalArgumentException(SECRET_KEY + " is required");
        }
        if (partSize < MIN_PART_SIZE || partSize > MAX_PART_SIZE) {
            throw new IllegalArgumentException("the multipart part size must be between 5 MiB and 5 GiB, not "
                    + partSize);
        }
        if (multipartThreshold < 0 || multipartThreshold > MAX_PART_SIZE) {
            throw new IllegalArgumentException("the multipart threshold must be between 0 and 5 GiB, not "
                    + multipartThreshold);
        }
    }

    /** Settings with the default part size and multipart threshold (16 MiB). */
    public S3Settings(URI endpoint, String region, String bucket, String prefix, String accessKey,
            String secretKey) {
        this(endpoint, region, bucket, prefix, accessKey, secretKey, DEFAULT_PART_SIZE,
                DEFAULT_MULTIPART_THRESHOLD);
    }

    /** A copy with another part size and threshold. */
    public S3Settings withMultipart(long partSize, long multipartThreshold) {
        return new S3Settings(endpoint, region, bucket, prefix, accessKey, secretKey, partSize, multipartThreshold);
    }

    private static String normalizePrefix(String prefix) {
        if (prefix == null) {
            return "";
        }
        String p = prefix.strip();
        int from = 0;
        int to = p.length();
        while (from < to && p.charAt(from) == '/') {
            from++;
        }
        while (to > from && p.charAt(to - 1) == '/') {
            to--;
        }
        p = p.substring(from, to);
        if (p.contains("//")) {
            throw new IllegalArgumentException(PREFIX + " must not contain an empty segment ('//'): '" + prefix
                    + "'");
        }
        return p;
    }

    /** Keeps the secret key out of logs. */
    @Override
    public String toString() {
        return "S3Settings[endpoint=" + endpoint + ", region=" + region + ", bucket=" + bucket + ", prefix=" + prefix
                + ", accessKey=" + accessKey + ", secretKey=***, partSize=" + partSize + ", multipartThreshold="
                + multipartThreshold + "]";
    }
}
