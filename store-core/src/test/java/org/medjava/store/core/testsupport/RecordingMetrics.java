package org.medjava.store.core.testsupport;

import java.util.ArrayList;
import java.util.List;
import org.medjava.store.core.metrics.StoreMetrics;

/** A {@link StoreMetrics} that keeps what it is told, one line per call ({@code "ingested put 1234"}), in order. */
public final class RecordingMetrics implements StoreMetrics {

    private final List<String> events = new ArrayList<>();

    public synchronized List<String> events() {
        return List.copyOf(events);
    }

    private synchronized void add(String event) {
        events.add(event);
    }

    @Override
    public void ingested(String door, long bytes) {
        add("ingested " + door + " " + bytes);
    }

    @Override
    public void ingestRefused(String door, String reason) {
        add("refused " + door + " " + reason);
    }

    @Override
    public void rendered(String format, long nanos) {
        add("rendered " + format + (nanos >= 0 ? "" : " negative time"));
    }

    @Override
    public void filtered(String filterId, String implementation, long nanos) {
        add("filtered " + filterId + " " + implementation + (nanos >= 0 ? "" : " negative time"));
    }

    @Override
    public void filterRefused(String filterId, String why) {
        add("refused " + filterId + " " + why);
    }

    @Override
    public void association(boolean accepted) {
        add("association " + (accepted ? "accepted" : "refused"));
    }

    @Override
    public void dicomStored(String service, String outcome) {
        add("stored " + service + " " + outcome);
    }

    @Override
    public void trash(String change, long instances) {
        add("trash " + change + " " + instances);
    }

    @Override
    public void recompressed(String outcome) {
        add("recompressed " + outcome);
    }
}
