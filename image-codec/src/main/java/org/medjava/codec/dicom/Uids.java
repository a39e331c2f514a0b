package org.medjava.codec.dicom;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * DICOM UIDs of our own. The project has no registered UID root, so new UIDs use the {@code 2.25} arc of DICOM PS3.5
 * B.2: "2.25." followed by the decimal value of a random (version 4) UUID. That needs no registration and a
 * collision is as unlikely as one of 122 random bits. PixelMed's {@code UIDGenerator} is not used because it
 * issues UIDs under PixelMed's root.
 */
public final class Uids {
    /** UIDs are at most 64 characters (PS3.5 9.1). */
    public static final int MAX_LENGTH = 64;

    /**
     * Our Implementation Class UID (0002,0012), written in the file meta information of every file we create. It is a
     * fixed value made once by {@link #newUid()}; change it only together with {@link #IMPLEMENTATION_VERSION_NAME}
     * when the writer changes incompatibly.
     */
    public static final String IMPLEMENTATION_CLASS_UID = "2.25.230391694064054436818750106422196573042";

    /** Implementation Version Name (0002,0013): SH, at most 16 characters. */
    public static final String IMPLEMENTATION_VERSION_NAME = "MEDJAVA_0_1";

    /** Components of digits without leading zeros, separated by dots (PS3.5 9.1). */
    private static final Pattern SYNTAX = Pattern.compile("(0|[1-9][0-9]*)(\\.(0|[1-9][0-9]*))*");

    private Uids() {
    }

    /** A new UID "2.25.&lt;decimal of a random UUID&gt;", at most 44 characters. */
    public static String newUid() {
        return fromUuid(UUID.randomUUID());
    }

    /**
     * A name-based UID "2.25.&lt;decimal of the version 3 UUID of {@code name}&gt;": the same name gives the same UID
     * everywhere, so hosts that derive one series per source series and filter chain agree on it without keeping
     * state (the name should start with what made it, e.g. "medjava-viewer-derived|").
     */
    public static String fromName(String name) {
        return fromUuid(UUID.nameUUIDFromBytes(name.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    /** The 2.25 UID of {@code uuid}: its 128 bits as an unsigned decimal (BigInteger prints no leading zeros). */
    static String fromUuid(UUID uuid) {
        byte[] bits = ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits())
                .putLong(uuid.getLeastSignificantBits()).array();
        return "2.25." + new BigInteger(1, bits);
    }

    /** Whether {@code uid} is a syntactically valid UID: at most 64 characters, digits and dots, no leading zeros. */
    public static boolean isValid(String uid) {
        return uid != null && !uid.isEmpty() && uid.length() <= MAX_LENGTH && SYNTAX.matcher(uid).matches();
    }
}
