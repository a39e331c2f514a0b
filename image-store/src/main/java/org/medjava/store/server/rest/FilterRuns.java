package org.medjava.store.server.rest;

import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.medjava.filter.runtime.CallControl;
import org.medjava.store.core.StoreException;
import org.medjava.store.server.config.RenderSettings;
import org.medjava.store.server.http.ClientHangups;

/**
 * Runs a request's rendering under its filter deadline: the client's {@code timeout=} (seconds, capped by
 * {@code medjava.filters.deadline-seconds}) and a cancel when the client hangs up ({@link ClientHangups}).
 */
public final class FilterRuns {
    /** The query parameter a client asks for a shorter filter deadline with. */
    public static final String TIMEOUT = "timeout";

    private FilterRuns() {
    }

    /** Work that renders, its filter calls under {@code control}; what it throws passes through. */
    @FunctionalInterface
    public interface Rendering<T> {
        T run(CallControl control) throws IOException;
    }

    /**
     * Runs {@code work} with the request's {@link CallControl}; a {@code request} (null: none to watch) hanging up is
     * noticed by {@code hangups}, which cancels it.
     */
    public static <T> T run(HttpServletRequest request, ClientHangups hangups, Map<String, List<String>> query,
                     RenderSettings config, Rendering<T> work) throws IOException {
        CallControl control = new CallControl(timeout(query, config));
        try (ClientHangups.Watch watch = request == null ? null : hangups.watch(request.getRemoteAddr(),
                request.getRemotePort(), request.getLocalPort(), control)) {
            return work.run(control);
        }
    }

    /**
     * {@code timeout=} as a duration: whole seconds from 1, at most the configured deadline (more is capped, not
     * refused: the setting is the server's business).
     *
     * @throws StoreException 400 for anything but one positive whole number
     */
    static Duration timeout(Map<String, List<String>> query, RenderSettings config) {
        List<String> values = query.get(TIMEOUT);
        if (values == null || values.isEmpty()) {
            return Duration.ofSeconds(config.filterDeadlineSeconds());
        }
        if (values.size() > 1) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "timeout is given " + values.size()
                    + " times; give it once");
        }
        long seconds;
        try {
            seconds = Long.parseLong(values.get(0).trim());
        } catch (NumberFormatException e) {
            seconds = 0;
        }
        if (seconds < 1) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "timeout=" + values.get(0) + " is not a number"
                    + " of seconds; give a whole number from 1 to " + config.filterDeadlineSeconds());
        }
        return Duration.ofSeconds(Math.min(seconds, config.filterDeadlineSeconds()));
    }
}
