package org.medjava.store.core.route;

import java.util.List;
import java.util.Map;
import org.medjava.store.core.ingest.Part10File;

/**
 * Sends prepared files to a rule's destination: implemented over the network by dicom-net (C-STORE, STOW-RS), so the
 * routing engine here stays free of the protocols.
 */
public interface RouteSender {

    /** What one instance's send came to: {@code sent} (also when the receiver held it already: the note), or not. */
    record Outcome(boolean sent, String note) {
        public static Outcome ok() {
            return new Outcome(true, null);
        }

        /** The receiver refused it as a duplicate: it holds this SOP Instance already, which counts as sent. */
        public static Outcome held(String why) {
            return new Outcome(true, "the receiver held it already (" + why + ")");
        }

        public static Outcome failed(String why) {
            return new Outcome(false, why);
        }
    }

    /** Why the store cannot send to {@code destination} (an AE title that is not configured), or null. */
    String problem(RouteRule.Destination destination);

    /** The destination's network address, for the audit trail (host, or null when unknown). */
    String address(RouteRule.Destination destination);

    /**
     * Sends {@code files} (together where the protocol allows), returning an outcome for each by SOP Instance UID (one
     * that is missing did not go). Failures are outcomes, not exceptions.
     */
    Map<String, Outcome> send(RouteRule.Destination destination, List<Part10File> files);
}
