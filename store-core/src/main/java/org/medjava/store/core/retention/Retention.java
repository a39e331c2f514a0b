package org.medjava.store.core.retention;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.index.AgedStudy;
import org.medjava.store.core.index.AgedStudyQuery;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.TrashScope;
import org.medjava.store.core.trash.Trash;

/**
 * Retention rules: which studies go when they are old enough (of a modality, from a source AE, with a label). A rule is previewed (a dry run: what it would take
 * now, and what share of the store), and run by the background job (hourly) or on request; what it selects goes
 * to the trash like any deletion (restorable for the grace period, then purged). The trash's guard holds a rule
 * that would take more than its share of the store at once: such a rule is refused when it is made unless an
 * administrator confirms it, and a run of an unconfirmed rule that has grown over the share is held and reported.
 */
public final class Retention {
    private static final System.Logger LOG = System.getLogger(Retention.class.getName());
    /** The most studies one run (or preview) takes; the next run takes the rest. */
    static final int MAX_STUDIES = 10_000;

    /** What a rule would take now. */
    public record Preview(RetentionRule rule, List<AgedStudy> studies, long instances, long storeInstances,
            boolean overGuard) {
        /** The share of the store's instances (0 to 1). */
        public double share() {
            return storeInstances == 0 ? 0 : (double) instances / storeInstances;
        }
    }

    /** What one run of a rule did: {@code deleted} studies (their trash ids), or {@code held} and why. */
    public record Run(String ruleId, String outcome, int studies, long instances, List<String> trashIds,
            String message) {
    }

    private final DicomIndex index;
    private final Trash trash;
    private final RuleBook book;
    private final Clock clock;

    public Retention(DicomIndex index, Trash trash, RuleBook book, Clock clock) {
        this.index = index;
        this.trash = trash;
        this.book = book;
        this.clock = clock;
    }

    public List<RetentionRule> rules() {
        return List.copyOf(book.load().values());
    }

    public RetentionRule rule(String id) {
        RetentionRule rule = book.load().get(id);
        if (rule == null) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, "no retention rule " + id);
        }
        return rule;
    }

    /**
     * Adds a rule. One that would take more than the guard's share of the store now is refused (CONFLICT, with the
     * share) unless {@code confirm}: the caller checks that an administrator asked.
     */
    public RetentionRule add(RetentionRule.Draft draft, boolean confirm, String by) {
        RetentionRule rule = rule(UUID.randomUUID().toString(), draft, confirm, by);
        Preview preview = preview(rule);
        if (preview.overGuard() && !confirm) {
            throw new StoreException(StoreException.Kind.CONFLICT, "the rule would delete " + preview.instances()
                    + " of the store's " + preview.storeInstances() + " instances now (" + percent(preview.share())
                    + "), more than medjava.delete.guard-share allows at once; add confirm=true to make it anyway");
        }
        book.put(rule);
        LOG.log(System.Logger.Level.INFO, "retention rule {0} ({1}) added by {2}", rule.id(), rule.name(), by);
        return rule;
    }

    /** What a rule not made yet would take now: the dry run an administrator reads before making it. */
    public Preview preview(RetentionRule.Draft draft) {
        return preview(rule(null, draft, false, null));
    }

    private RetentionRule rule(String id, RetentionRule.Draft d, boolean confirm, String by) {
        try {
            return new RetentionRule(id, d.name(), d.basis(), d.olderThanDays(), d.modality(), d.sourceAe(),
                    d.label(), d.enabled(), confirm, by, clock.instant(), null);
        } catch (IllegalArgumentException e) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, e.getMessage());
        }
    }

    public void remove(String id) {
        if (!book.remove(id)) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, "no retention rule " + id);
        }
    }

    public Preview preview(String id) {
        return preview(rule(id));
    }

    private Preview preview(RetentionRule rule) {
        Instant cutoff = clock.instant().minus(Duration.ofDays(rule.olderThanDays()));
        List<AgedStudy> studies = index.studiesOlderThan(new AgedStudyQuery(rule.basis()
                == RetentionRule.Basis.STUDY_DATE, cutoff, rule.modality(), rule.sourceAe(), rule.label()),
                MAX_STUDIES);
        long instances = studies.stream().mapToLong(AgedStudy::instances).sum();
        long total = Math.max(instances, index.counts().instances());
        Trash.Settings guard = trash.settings();
        boolean over = instances >= guard.guardInstances() && instances > guard.guardShare() * total;
        return new Preview(rule, studies, instances, total, over);
    }

    /** Runs one rule now (also when it is disabled: an administrator asked). */
    public Run run(String id) {
        return run(rule(id));
    }

    /** Runs every enabled rule (the background job). */
    public List<Run> runAll() {
        List<Run> runs = new ArrayList<>();
        for (RetentionRule rule : rules()) {
            if (rule.enabled()) {
                runs.add(run(rule));
            }
        }
        return runs;
    }

    private Run run(RetentionRule rule) {
        Run run = take(rule);
        // kept with the rule for the console; a rule removed meanwhile stays removed
        if (book.load().containsKey(rule.id())) {
            book.put(rule.withLastRun(new RetentionRule.LastRun(clock.instant(), run.outcome(), run.studies(),
                    run.instances(), run.message())));
        }
        return run;
    }

    private Run take(RetentionRule rule) {
        Preview preview = preview(rule);
        if (preview.studies().isEmpty()) {
            return new Run(rule.id(), "nothing", 0, 0, List.of(), "no study is old enough");
        }
        if (preview.overGuard() && !rule.confirmed()) {
            String message = "held: it would delete " + preview.instances() + " of " + preview.storeInstances()
                    + " instances (" + percent(preview.share()) + ") at once, over medjava.delete.guard-share; an"
                    + " administrator can remake the rule with confirm=true";
            LOG.log(System.Logger.Level.WARNING, "retention rule {0} ({1}) {2}", rule.id(), rule.name(), message);
            return new Run(rule.id(), "held", preview.studies().size(), preview.instances(), List.of(), message);
        }
        List<String> trashIds = new ArrayList<>();
        long instances = 0;
        for (AgedStudy study : preview.studies()) {
            try {
                var trashed = trash.delete(TrashScope.study(study.studyInstanceUid()), "retention rule "
                        + rule.name(), true, Caller.STORE);
                if (trashed.instances() > 0) { // 0: another node's run took it first
                    trashIds.add(trashed.trashId());
                    instances += trashed.instances();
                }
            } catch (StoreException e) {
                if (e.kind() != StoreException.Kind.NOT_FOUND) { // gone meanwhile: nothing to do
                    throw e;
                }
            }
        }
        LOG.log(System.Logger.Level.INFO, "retention rule {0} ({1}) moved {2} studies ({3} instances) to the trash",
                rule.id(), rule.name(), trashIds.size(), instances);
        return new Run(rule.id(), "deleted", trashIds.size(), instances, trashIds, null);
    }

    private static String percent(double share) {
        return Math.round(share * 1000) / 10.0 + "%";
    }
}
