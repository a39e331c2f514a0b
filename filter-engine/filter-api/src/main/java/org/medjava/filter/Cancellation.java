package org.medjava.filter;

/**
 * Cooperative cancellation of a filter call (API 1.2). A host binds a {@link Token} to the thread that runs a filter
 * and cancels it when the call must stop; the filter calls {@link #check()} once per row it writes, which throws
 * {@link FilterCancelledException} once the token is cancelled. Threads a filter splits its work onto must run
 * with the caller's token: {@link RowBands} does that, so kernels parallel through it need nothing else.
 *
 * <p>The check is a thread-local lookup and one volatile read, cheap enough per row for kernels benchmarked against
 * C. Deadlines are the host's business: it cancels the token when one passes, so the check never reads a clock.
 *
 * <p>Why thread-bound instead of a parameter of {@code apply}: the check runs deep inside third-party kernels, a
 * call chain the host does not own, and plugins compiled against API 1.0/1.1 keep the same signatures and still
 * load. (The host's own request context is passed explicitly: its {@code CallControl}, which binds the token here
 * only for the length of the plugin call.) The one static field is per-thread context, not shared mutable state: a thread with no
 * token bound (tests, benchmarks, a host that never cancels) passes every check.
 */
public final class Cancellation {
    private static final ThreadLocal<Token> CURRENT = new ThreadLocal<>();

    private Cancellation() {
    }

    /**
     * Throws when the current call has been cancelled; returns at once otherwise.
     *
     * @throws FilterCancelledException naming why the call was cancelled
     */
    public static void check() {
        Token token = CURRENT.get();
        if (token != null && token.reason != null) {
            throw new FilterCancelledException(token.reason);
        }
    }

    /** Whether the current call has been cancelled (for a kernel that must tidy up before it stops). */
    public static boolean isCancelled() {
        Token token = CURRENT.get();
        return token != null && token.reason != null;
    }

    /** The token bound to this thread, or null when none is. */
    public static Token current() {
        return CURRENT.get();
    }

    /**
     * Binds {@code token} (null: none) to this thread until the returned scope is closed, which restores the one bound
     * before. Hosts bind around a filter call; {@link RowBands} binds the caller's token on its helper threads.
     */
    public static Scope bind(Token token) {
        Token previous = CURRENT.get();
        CURRENT.set(token);
        return () -> {
            if (previous == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(previous);
            }
        };
    }

    /** Restores the previous binding; closing never throws. */
    @FunctionalInterface
    public interface Scope extends AutoCloseable {
        @Override
        void close();
    }

    /** One call's cancellation flag; cancelled at most once, the first reason wins. */
    public static final class Token {
        private volatile String reason;

        /** Cancels with {@code reason} (plain words, shown to the caller); false if it was cancelled already. */
        public boolean cancel(String reason) {
            synchronized (this) {
                if (this.reason != null) {
                    return false;
                }
                this.reason = reason == null || reason.isBlank() ? "cancelled" : reason;
                return true;
            }
        }

        public boolean isCancelled() {
            return reason != null;
        }

        /** Why it was cancelled, or null while it is not. */
        public String reason() {
            return reason;
        }
    }
}
