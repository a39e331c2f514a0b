package org.medjava.viewer.store;

/** A file's bytes as served, with its strong ETag (for If-Match on the way back) and media type. */
public record Download(byte[] bytes, String etag, String contentType) {
}
