package org.medjava.store.core.index;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.persistence.logging.AbstractSessionLog;
import org.eclipse.persistence.logging.SessionLog;
import org.eclipse.persistence.logging.SessionLogEntry;

/**
 * Internal, not API (public only so that EclipseLink can instantiate it by name): the EclipseLink log of the short
 * session in which {@link DicomIndex} creates or extends its tables. It keeps the warnings instead of logging them:
 * extending an existing schema re-adds every foreign key and each one that exists fails, harmlessly, with a stack
 * trace. DicomIndex checks the tables afterwards and, if they are still not right, reports what was kept.
 */
public final class DdlLog extends AbstractSessionLog {
    private static final Map<String, List<String>> MESSAGES = new ConcurrentHashMap<>();

    /** Starts keeping the warnings of the session {@code sessionName}. */
    static void start(String sessionName) {
        MESSAGES.put(sessionName, new CopyOnWriteArrayList<>());
    }

    /** Stops keeping them, and returns them. */
    static List<String> stop(String sessionName) {
        List<String> messages = MESSAGES.remove(sessionName);
        return messages == null ? List.of() : List.copyOf(messages);
    }

    @Override
    public void log(SessionLogEntry entry) {
        if (entry.getLevel() < SessionLog.WARNING) {
            return;
        }
        List<String> sink = entry.getSession() == null ? null : MESSAGES.get(entry.getSession().getName());
        if (sink == null) {
            return;
        }
        String text = entry.getException() != null ? IndexSession.reason(entry.getException()) : formatMessage(entry);
        if (text != null && !text.isBlank()) {
            sink.add(text.strip());
        }
    }
}
