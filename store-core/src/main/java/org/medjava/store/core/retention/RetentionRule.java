package org.medjava.store.core.retention;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Properties;
import org.medjava.store.core.index.Labels;

/**
 * A retention rule: studies older than {@code olderThanDays} — by their StudyDate ({@link Basis#STUDY_DATE}) or by
 * when their last instance was received ({@link Basis#RECEIVED}) — optionally only those with a series of
 * {@code modality}, an instance sent by {@code sourceAe} (the Source AE Title a C-STORE's calling AE title becomes)
 * or the label {@code label}, go to the trash when the rule runs (then the trash's grace period, then the purge).
 *
 * @param confirmed whether an administrator accepted, when it was made, that the rule takes more than the guard's
 *                  share of the store at once (else such a run is held)
 * @param lastRun   what its latest run did (in the background or asked for), or null before its first run
 */
public record RetentionRule(String id, String name, Basis basis, int olderThanDays, String modality,
        String sourceAe, String label, boolean enabled, boolean confirmed, String createdBy, Instant created, LastRun lastRun) {

    /** When a rule last ran and what it did: outcome deleted, nothing or held, with the held run's reason. */
    public record LastRun(Instant at, String outcome, int studies, long instances, String message) {
    }

    /** A rule to make or preview: what it selects, its name and whether it runs in the background. */
    public record Draft(String name, Basis basis, int olderThanDays, String modality, String sourceAe, String label,
            boolean enabled) {
    }

    /** What a rule's age is counted from. */
    public enum Basis {
        STUDY_DATE, RECEIVED
    }

    public RetentionRule {
        if (name == null || name.isBlank() || name.length() > 64 || name.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("name: 1 to 64 characters, no control characters");
        }
        if (basis == null) {
            throw new IllegalArgumentException("basis: StudyDate or received");
        }
        if (olderThanDays < 1 || olderThanDays > 365 * 200) {
            throw new IllegalArgumentException("olderThanDays: 1 to 73000, not " + olderThanDays);
        }
        if (modality != null && !modality.matches("[A-Z0-9_]{1,16}")) {
            throw new IllegalArgumentException("modality: a DICOM modality code such as CT or MR, not " + modality);
        }
        // an AE title (PS3.5 6.2): up to 16 characters, no backslash or control character, not only spaces
        if (sourceAe != null && (sourceAe.isBlank() || sourceAe.length() > 16 || sourceAe.indexOf('\\') >= 0
                || sourceAe.chars().anyMatch(Character::isISOControl))) {
            throw new IllegalArgumentException("sourceAe: an AE title of 1 to 16 characters, not " + sourceAe);
        }
        if (label != null && !Labels.valid(label)) {
            throw new IllegalArgumentException("label: 1 to " + Labels.MAX_LENGTH
                    + " letters, digits, _ or -, not " + label);
        }
    }

    /** The same rule after a run. */
    RetentionRule withLastRun(LastRun run) {
        return new RetentionRule(id, name, basis, olderThanDays, modality, sourceAe, label, enabled, confirmed,
                createdBy, created, run);
    }

    /** The rule as text for its {@link RuleBook}. */
    String toText() {
        Properties p = new Properties();
        p.setProperty("id", id);
        p.setProperty("name", name);
        p.setProperty("basis", basis.name());
        p.setProperty("olderThanDays", Integer.toString(olderThanDays));
        if (modality != null) {
            p.setProperty("modality", modality);
        }
        if (sourceAe != null) {
            p.setProperty("sourceAe", sourceAe);
        }
        if (label != null) {
            p.setProperty("label", label);
        }
        p.setProperty("enabled", Boolean.toString(enabled));
        p.setProperty("confirmed", Boolean.toString(confirmed));
        if (createdBy != null) {
            p.setProperty("createdBy", createdBy);
        }
        p.setProperty("created", created.toString());
        if (lastRun != null) {
            p.setProperty("lastRun.at", lastRun.at().toString());
            p.setProperty("lastRun.outcome", lastRun.outcome());
            p.setProperty("lastRun.studies", Integer.toString(lastRun.studies()));
            p.setProperty("lastRun.instances", Long.toString(lastRun.instances()));
            if (lastRun.message() != null) {
                p.setProperty("lastRun.message", lastRun.message());
            }
        }
        StringWriter out = new StringWriter();
        try {
            p.store(out, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    static RetentionRule fromText(String text) {
        Properties p = new Properties();
        try {
            p.load(new StringReader(text));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new RetentionRule(p.getProperty("id"), p.getProperty("name"), Basis.valueOf(p.getProperty("basis")),
                Integer.parseInt(p.getProperty("olderThanDays")), p.getProperty("modality"),
                p.getProperty("sourceAe"), p.getProperty("label"), Boolean.parseBoolean(p.getProperty("enabled")), Boolean.parseBoolean(p.getProperty("confirmed")),
                p.getProperty("createdBy"), Instant.parse(p.getProperty("created")), p.getProperty("lastRun.at") == null
                ? null : new LastRun(Instant.parse(p.getProperty("lastRun.at")), p.getProperty("lastRun.outcome"),
                        Integer.parseInt(p.getProperty("lastRun.studies")),
                        Long.parseLong(p.getProperty("lastRun.instances")), p.getProperty("lastRun.message")));
    }
}
