package org.medjava.store.core.route;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.medjava.store.core.jobs.DeidentifyJob;
import org.medjava.store.core.transcode.TransferSyntaxes;

/**
 * A routing rule: the instances it matches (by attributes of the data set and by who sent them, {@value #SOURCE_AE})
 * are forwarded to its destination, de-identified ({@code deidentify}: the option names of the de-identify job; empty
 * for the Basic Profile alone; null: sent as stored) and transcoded ({@code transcode}: a transfer syntax UID; null:
 * as stored) on the way.
 *
 * @param match     DICOM keyword (or {@value #SOURCE_AE}) to a pattern with {@code *} and {@code ?}, compared without
 *                  regard to case with each value of the attribute; an instance matches when every entry does
 * @param confirmed whether an administrator accepted that the rule matches everything
 */
public record RouteRule(String name, Map<String, String> match, Destination destination, List<String> deidentify,
                        String transcode, boolean enabled, boolean confirmed, String createdBy, Instant created) {

    /** The match key for who sent an instance: the calling AE title of a C-STORE, the account of a STOW-RS. */
    public static final String SOURCE_AE = "SourceAE";
    public static final String DIMSE = "dimse";
    public static final String STOW = "stow";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    /**
     * Where a rule sends: a remote AE of {@code medjava.dicom.remotes} by C-STORE ({@code kind} dimse, {@code ae}),
     * or a DICOMweb STOW-RS endpoint ({@code kind} stow, {@code url} of its studies resource, {@code auth} the value
     * of the Authorization header it needs, or null).
     */
    public record Destination(String kind, String ae, String url, String auth) {
        public Destination {
            if (DIMSE.equals(kind)) {
                if (ae == null || !ae.matches("[ -\\[\\]-~]{1,16}") || ae.isBlank()) {
                    throw new IllegalArgumentException("destination.ae: the AE title of a remote"
                            + " (medjava.dicom.remotes), 1 to 16 characters");
                }
                url = null;
                auth = null;
            } else if (STOW.equals(kind)) {
                URI uri;
                try {
                    uri = url == null ? null : URI.create(url);
                } catch (IllegalArgumentException e) {
                    uri = null;
                }
                if (uri == null || uri.getHost() == null || !List.of("http", "https").contains(uri.getScheme())) {
                    throw new IllegalArgumentException("destination.url: the http(s) URL of a STOW-RS studies"
                            + " resource, such as https://pacs.example/dicomweb/studies, not " + url);
                }
                if (auth != null && (auth.isBlank() || auth.chars().anyMatch(Character::isISOControl))) {
                    throw new IllegalArgumentException("destination.auth: an Authorization header value, such as"
                            + " \"Basic dXNlcjpwYXNz\", or absent");
                }
                ae = null;
            } else {
                throw new IllegalArgumentException("destination.kind: dimse or stow, not " + kind);
            }
        }

        /** How the queue and the audit trail name it: {@code dimse:AE} or {@code stow:URL}. */
        public String describe() {
            return DIMSE.equals(kind) ? DIMSE + ":" + ae : STOW + ":" + url;
        }

        /** This destination with its credentials replaced by a mark, to be shown. */
        public Destination masked() {
            return auth == null ? this : new Destination(kind, ae, url, "(set)");
        }
    }

    public RouteRule {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("name: 1 to 64 of A-Z a-z 0-9 . _ -, starting with a letter or digit,"
                    + " not " + name);
        }
        match = match == null ? Map.of() : new TreeMap<>(match);
        for (Map.Entry<String, String> m : match.entrySet()) {
            if (!m.getKey().equals(SOURCE_AE) && com.pixelmed.dicom.AttributeList.getDictionary()
                    .getTagFromName(m.getKey()) == null) {
                throw new IllegalArgumentException("match: " + m.getKey() + " is neither a DICOM keyword nor "
                        + SOURCE_AE);
            }
            if (m.getValue() == null || m.getValue().isEmpty() || m.getValue().length() > 256) {
                throw new IllegalArgumentException("match." + m.getKey() + ": a pattern of 1 to 256 characters");
            }
        }
        match = java.util.Collections.unmodifiableMap(match);
        if (destination == null) {
            throw new IllegalArgumentException("destination: {kind: dimse, ae} or {kind: stow, url, auth}");
        }
        if (deidentify != null) {
            for (String option : deidentify) {
                if (!DeidentifyJob.OPTION_NAMES.containsKey(option)) {
                    throw new IllegalArgumentException("deidentify: no option \"" + option + "\"; options: "
                            + String.join(", ", DeidentifyJob.OPTION_NAMES.keySet()));
                }
            }
            deidentify = List.copyOf(deidentify);
        }
        if (transcode != null && !TARGETS.contains(transcode)) {
            throw new IllegalArgumentException("transcode: a transfer syntax the store writes (" + String.join(", ",
                    TARGETS) + "), not " + transcode);
        }
    }

    /** The transfer syntaxes a rule may transcode to. */
    static final List<String> TARGETS;

    static {
        List<String> targets = new ArrayList<>(TransferSyntaxes.FALLBACK);
        targets.addAll(TransferSyntaxes.LOSSLESS_ENCODED);
        targets.addAll(TransferSyntaxes.HTJ2K_ENCODED);
        targets.addAll(TransferSyntaxes.LOSSY_ENCODED);
        TARGETS = List.copyOf(targets);
    }

    /** Whether the rule takes every instance (no condition, or only {@code *}). */
    public boolean matchesEverything() {
        return match.values().stream().allMatch(p -> p.chars().allMatch(c -> c == '*'));
    }

    /** Whether an instance with these values (keyword to its values) sent by {@code sourceAe} matches. */
    public boolean matches(java.util.function.Function<String, List<String>> values, String sourceAe) {
        for (Map.Entry<String, String> m : match.entrySet()) {
            List<String> these = m.getKey().equals(SOURCE_AE) ? (sourceAe == null ? List.of() : List.of(sourceAe))
                    : values.apply(m.getKey());
            if (these.stream().noneMatch(v -> wildcard(m.getValue(), v.strip()))) {
                return false;
            }
        }
        return true;
    }

    /** {@code *} any run of characters, {@code ?} one, regardless of case. */
    static boolean wildcard(String pattern, String value) {
        StringBuilder regex = new StringBuilder();
        for (char c : pattern.toCharArray()) {
            regex.append(c == '*' ? ".*" : c == '?' ? "." : Pattern.quote(String.valueOf(c)));
        }
        return Pattern.compile(regex.toString(), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.DOTALL)
                .matcher(value).matches();
    }

    /** This rule with the destination's credentials masked, to be shown. */
    public RouteRule masked() {
        return new RouteRule(name, match, destination.masked(), deidentify, transcode, enabled, confirmed, createdBy,
                created);
    }

    /** The rule as text for its {@link RouteBook}, with the secret its de-identification maps UIDs under. */
    String toText(byte[] secret) {
        Properties p = new Properties();
        p.setProperty("name", name);
        match.forEach((k, v) -> p.setProperty("match." + k, v));
        p.setProperty("destination.kind", destination.kind());
        set(p, "destination.ae", destination.ae());
        set(p, "destination.url", destination.url());
        set(p, "destination.auth", destination.auth());
        set(p, "deidentify", deidentify == null ? null : String.join(",", deidentify));
        set(p, "transcode", transcode);
        p.setProperty("enabled", Boolean.toString(enabled));
        p.setProperty("confirmed", Boolean.toString(confirmed));
        set(p, "createdBy", createdBy);
        p.setProperty("created", created.toString());
        p.setProperty("secret", java.util.HexFormat.of().formatHex(secret));
        StringWriter out = new StringWriter();
        try {
            p.store(out, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    private static void set(Properties p, String key, String value) {
        if (value != null) {
            p.setProperty(key, value);
        }
    }

    /** A rule and its secret as kept. */
    record Kept(RouteRule rule, byte[] secret) {
    }

    static Kept fromText(String text) {
        Properties p = new Properties();
        try {
            p.load(new StringReader(text));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> match = new TreeMap<>();
        for (String key : p.stringPropertyNames()) {
            if (key.startsWith("match.")) {
                match.put(key.substring(6), p.getProperty(key));
            }
        }
        String deid = p.getProperty("deidentify");
        RouteRule rule = new RouteRule(p.getProperty("name"), match, new Destination(p.getProperty("destination.kind"),
                p.getProperty("destination.ae"), p.getProperty("destination.url"), p.getProperty("destination.auth")),
                deid == null ? null : deid.isEmpty() ? List.of() : Arrays.asList(deid.split(",")),
                p.getProperty("transcode"), Boolean.parseBoolean(p.getProperty("enabled")),
                Boolean.parseBoolean(p.getProperty("confirmed")), p.getProperty("createdBy"),
                Instant.parse(p.getProperty("created")));
        return new Kept(rule, java.util.HexFormat.of().parseHex(p.getProperty("secret")));
    }
}
