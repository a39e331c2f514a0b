package org.medjava.store.core.ingest;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.Labels;

/**
 * Labels put on a study as it arrives, by who sent it: the calling AE title of a C-STORE (or of the PACS a retrieve
 * came from), the account of a STOW-RS. So a modality's or a clinic's studies land in their project without anyone
 * labelling them by hand ({@code medjava.access.receive-labels}).
 */
public final class ReceiveLabels implements Ingest.AfterReceive {
    /** Study and label pairs labelled lately: the many instances of one study ask the index once. */
    private static final int RECENT = 10_000;

    private final DicomIndex index;
    private final Map<String, Set<String>> bySender;
    private final Set<String> recent = Collections.newSetFromMap(new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > RECENT;
        }
    });

    public ReceiveLabels(DicomIndex index, Map<String, Set<String>> bySender) {
        this.index = index;
        this.bySender = Map.copyOf(bySender);
    }

    /**
     * Parses the rules: {@code SENDER=label|label} pairs, comma-separated ({@code CARDIO_CT=cardiology,
     * trials-upload=research|trials}); a sender is an AE title or an account name.
     */
    public static Map<String, Set<String>> parse(String text) {
        Map<String, Set<String>> rules = new TreeMap<>();
        if (text == null || text.isBlank()) {
            return rules;
        }
        for (String pair : text.split(",")) {
            int eq = pair.indexOf('=');
            if (eq <= 0 || pair.substring(0, eq).isBlank()) {
                throw new IllegalArgumentException("\"" + pair.trim() + "\" is not SENDER=label|label");
            }
            Set<String> labels = new TreeSet<>();
            for (String label : pair.substring(eq + 1).split("\\|")) {
                labels.add(Labels.check(label.trim()));
            }
            rules.merge(pair.substring(0, eq).trim(), labels, (a, b) -> {
                Set<String> both = new TreeSet<>(a);
                both.addAll(b);
                return both;
            });
        }
        return rules;
    }

    @Override
    public void received(Ingested stored, com.pixelmed.dicom.AttributeList dataSet, Caller from) {
        Set<String> labels = from == null || from.user() == null ? null : bySender.get(from.user());
        if (labels == null || stored.studyInstanceUid() == null) {
            return;
        }
        for (String label : labels) {
            boolean fresh;
            synchronized (recent) {
                fresh = recent.add(stored.studyInstanceUid() + '\n' + label);
            }
            if (fresh) {
                index.addLabel(stored.studyInstanceUid(), label);
            }
        }
    }
}
