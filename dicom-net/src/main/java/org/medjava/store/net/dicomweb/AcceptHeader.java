package org.medjava.store.net.dicomweb;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * An Accept header as DICOMweb clients send it (PS3.18 8.7.7): comma-separated media ranges, each with parameters
 * ({@code type}, {@code transfer-syntax}, ...) and an optional {@code q} weight. Ranges that cannot be read are
 * ignored, as PS3.18 asks; no header at all counts as {@code *}{@code /*} (the store is lenient there, where
 * PS3.18 would allow a 406).
 */
public final class AcceptHeader {

    private final String raw;
    private final List<MediaRange> ranges;

    private AcceptHeader(String raw, List<MediaRange> ranges) {
        this.raw = raw;
        this.ranges = List.copyOf(ranges);
    }

    /** Anything acceptable, as when no Accept header was sent. */
    public static AcceptHeader any() {
        return parse(null);
    }

    /**
     * @throws IllegalArgumentException when the header is present but not one range in it can be read
     */
    public static AcceptHeader parse(String header) {
        if (header == null || header.isBlank()) {
            return new AcceptHeader(null, List.of(MediaRange.parse("*/*")));
        }
        List<MediaRange> ranges = new ArrayList<>();
        for (String element : MediaRange.split(header, ',')) {
            if (element.isBlank()) {
                continue;
            }
            try {
                ranges.add(MediaRange.parse(element));
            } catch (IllegalArgumentException e) {
                // ignored: PS3.18 8.7.7
            }
        }
        if (ranges.isEmpty()) {
            throw new IllegalArgumentException("the Accept header names no media type that can be read: \""
                    + header.strip() + "\" (write type/subtype, e.g. multipart/related; "
                    + "type=\"application/dicom\"; transfer-syntax=*)");
        }
        return new AcceptHeader(header, ranges);
    }

    /** The ranges in the order given. */
    public List<MediaRange> ranges() {
        return ranges;
    }

    /** The header as received (null when there was none). */
    public String raw() {
        return raw;
    }

    /** The ranges written so that any HTTP library reads them (values quoted where needed). */
    public String toHeader() {
        return ranges.stream().map(MediaRange::toHeader).collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return raw == null ? "(no Accept header)" : raw;
    }
}
