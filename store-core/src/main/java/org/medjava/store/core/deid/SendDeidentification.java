package org.medjava.store.core.deid;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * De-identification on the way out of the store (a routing rule, a C-MOVE destination): the Basic Profile and the
 * de-identify job's options by name, UIDs mapped and the patient given a pseudonym under a secret the sender keeps,
 * so the same study gets the same UIDs and the same patient the same pseudonym on every send (a receiver that
 * refuses duplicates sees duplicates). One instance per send: its {@link UidMap} grows with the UIDs it maps.
 */
public final class SendDeidentification {

    private final List<String> optionNames;
    private final byte[] secret;
    private final DeidOptions options;
    private final UidMap uids;

    /**
     * @param optionNames names of {@link DeidOption#BY_NAME} (empty: the Basic Profile alone)
     * @param secret      the sender's secret (at least 16 bytes)
     */
    public SendDeidentification(List<String> optionNames, byte[] secret) {
        this.optionNames = List.copyOf(optionNames);
        this.secret = secret.clone();
        this.options = options(optionNames);
        this.uids = new UidMap(secret);
    }

    /** The option names, checked: an unknown one, or two that exclude each other, are refused saying why. */
    public static List<String> checkOptions(List<String> names) {
        options(names);
        return names;
    }

    private static DeidOptions options(List<String> names) {
        for (String option : names) {
            if (!DeidOption.BY_NAME.containsKey(option)) {
                throw new IllegalArgumentException("no de-identification option \"" + option + "\"; options: "
                        + String.join(", ", DeidOption.BY_NAME.keySet()));
            }
        }
        return DeidOptions.basic().with(names.stream().map(DeidOption.BY_NAME::get).toArray(DeidOption[]::new));
    }

    /** Writes the de-identified copy of the Part 10 file {@code from} to {@code to}; nothing usable when refused. */
    public DeidResult deidentify(Path from, Path to, String patientId) throws IOException, DeidRefused {
        DeidOptions these = options.withPseudonym(DeidOptions.PSEUDONYM_NAME, pseudonym(secret, patientId));
        try (OutputStream out = Files.newOutputStream(to)) {
            return new Deidentifier(these, uids).deidentify(from, out);
        }
    }

    /** The new UID an original one is sent with. */
    public String mapUid(String original) {
        return options.options().contains(DeidOption.RETAIN_UIDS) ? original : uids.map(original);
    }

    /** How the audit trail names it: "Basic Profile" and the options. */
    public String describe() {
        return "Basic Profile" + (optionNames.isEmpty() ? "" : " with " + String.join(", ", optionNames));
    }

    /** The same patient gets the same pseudonym under a secret, on every node and try. */
    static String pseudonym(byte[] secret, String patientId) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            byte[] h = mac.doFinal(("patient\n" + (patientId == null ? "" : patientId))
                    .getBytes(StandardCharsets.UTF_8));
            return "ANON-" + HexFormat.of().withUpperCase().formatHex(h, 0, 5);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
        }
    }
}
