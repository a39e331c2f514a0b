package org.medjava.store.net.dimse;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Tells whoever listens how the store's C-STORE SCP answered the objects a given calling AE sent: the store's SCU
 * listens for the remote's AE while its C-MOVE runs, because the sub-operations of a C-MOVE arrive on the SCP and
 * a remote's final response often names no failed instance (Orthanc 1.10 answers C000 alone). Within one process
 * only: on a cluster, sub-operations that reach another node are not heard.
 */
public final class ScpStoreOutcomes {

    /** Hears one C-STORE answered. */
    @FunctionalInterface
    public interface Listener {
        void answered(String sopInstanceUid, int status, String errorComment);
    }

    private static final Map<String, List<Listener>> BY_CALLING_AE = new ConcurrentHashMap<>();

    private ScpStoreOutcomes() {
    }

    /** Listens to the C-STOREs {@code callingAe} sends until the returned handle is closed. */
    public static AutoCloseable listen(String callingAe, Listener listener) {
        BY_CALLING_AE.computeIfAbsent(callingAe, k -> new CopyOnWriteArrayList<>()).add(listener);
        return () -> BY_CALLING_AE.computeIfPresent(callingAe, (k, list) -> {
            list.remove(listener);
            return list.isEmpty() ? null : list;
        });
    }

    static void report(String callingAe, String sopInstanceUid, int status, String errorComment) {
        List<Listener> listeners = BY_CALLING_AE.get(callingAe);
        if (listeners != null) {
            for (Listener l : listeners) {
                l.answered(sopInstanceUid, status, errorComment);
            }
        }
    }
}
