package org.medjava.store.net.dimse;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.medjava.store.core.deid.SendDeidentification;

/**
 * Where C-MOVE may send ({@code medjava.dicom.move-destinations}): the remote AE, and whether what goes there is
 * de-identified on the way. An entry is {@code AE=host:port}, then optionally {@code tls} and {@code deidentify}
 * (the Basic Profile) or {@code deidentify(option, option)} (with the de-identify job's options, such as
 * {@code clean-descriptors}), in any order: {@code RESEARCH=10.0.0.9:104 tls deidentify(clean-descriptors)}.
 *
 * @param deidentify the options of a de-identifying destination (empty: the Basic Profile alone); null: sent as stored
 * @param secret     what its UIDs and pseudonyms are derived under ({@link #keyed}); null until then
 */
public record MoveDestination(RemoteAe ae, List<String> deidentify, byte[] secret) {

    private static final Pattern WORD = Pattern.compile("\\s+(tls|deidentify(?:\\s*\\(([^()]*)\\))?)",
            Pattern.CASE_INSENSITIVE);

    public MoveDestination {
        deidentify = deidentify == null ? null : List.copyOf(SendDeidentification.checkOptions(deidentify));
        secret = secret == null ? null : secret.clone();
    }

    /** Sent as stored. */
    public MoveDestination(RemoteAe ae) {
        this(ae, null, null);
    }

    public boolean deidentifies() {
        return deidentify != null;
    }

    /**
     * This destination with its secret: HMAC-SHA256 of its AE title under the store's key, so a repeated move gives
     * the same UIDs (on every node of a cluster, which shares the key) and two destinations do not share theirs.
     */
    public MoveDestination keyed(byte[] storeKey) {
        if (!deidentifies()) {
            return this;
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(storeKey, "HmacSHA256"));
            return new MoveDestination(ae, deidentify, mac.doFinal(("move-destination\n" + ae.aeTitle())
                    .getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
        }
    }

    /** A new de-identification for one move (its UID map grows with what it sends). */
    SendDeidentification deidentification() {
        if (secret == null) { // never sent in the clear for want of a key
            throw new IllegalStateException("the move destination " + ae.aeTitle() + " de-identifies but has no"
                    + " secret");
        }
        return new SendDeidentification(deidentify, secret);
    }

    /**
     * @param tls the settings for the entries marked {@code tls}, asked for only when there is one
     * @return the entries by AE title, in the order given
     */
    public static Map<String, MoveDestination> parseList(String setting, String settingName, Supplier<DicomTls> tls) {
        Map<String, MoveDestination> list = new LinkedHashMap<>();
        for (String entry : Settings.entries(setting)) {
            String[] first = entry.split("\\s+", 2);
            String rest = first.length == 2 ? " " + first[1] : "";
            boolean secure = false;
            List<String> deid = null;
            Matcher m = WORD.matcher(rest);
            int at = 0;
            while (m.find() && m.start() == at) {
                if (m.group(1).toLowerCase(Locale.ROOT).equals("tls")) {
                    secure = true;
                } else {
                    deid = options(m.group(2), entry, settingName);
                }
                at = m.end();
            }
            if (!rest.substring(at).isBlank()) {
                throw new IllegalArgumentException(settingName + ": \"" + entry + "\" is not AE=host:port followed"
                        + " by tls, deidentify or deidentify(option, ...)");
            }
            RemoteAe ae = RemoteAe.parse(entry, first[0], settingName, secure ? tls.get() : null);
            list.put(ae.aeTitle(), new MoveDestination(ae, deid, null));
        }
        return Collections.unmodifiableMap(list);
    }

    private static List<String> options(String inParentheses, String entry, String settingName) {
        List<String> options = new ArrayList<>();
        if (inParentheses != null) {
            for (String o : inParentheses.split(",")) {
                if (!o.isBlank()) {
                    options.add(o.strip().toLowerCase(Locale.ROOT));
                }
            }
        }
        try {
            return SendDeidentification.checkOptions(options);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(settingName + ": \"" + entry + "\": " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() { // without the secret
        return ae + (deidentify == null ? "" : " de-identified"
                + (deidentify.isEmpty() ? "" : " (" + String.join(", ", deidentify) + ")"));
    }
}
