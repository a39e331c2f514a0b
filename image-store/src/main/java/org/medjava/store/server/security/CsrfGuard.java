package org.medjava.store.server.security;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Cross-site request forgery: a browser sends the session cookie with whatever request any page makes, so a request
 * that changes something and is authenticated by the cookie must come from the store's own pages or from an
 * origin allowed by {@code medjava.cors.origins}, as its {@code Origin} header (or, without one, its
 * {@code Referer}) says. Requests with {@code Authorization} (Basic, Bearer) are not concerned: no page can make a
 * browser add that header on its own.
 */
public final class CsrfGuard {

    private static final Set<String> SAFE = Set.of("GET", "HEAD", "OPTIONS", "TRACE");

    private CsrfGuard() {
    }

    public static boolean isUnsafe(String method) {
        return !SAFE.contains(method);
    }

    /**
     * Why the request is refused, or empty when it may go on.
     *
     * @param ownOrigins     the store's origins: medjava.public-url's, and the one the request was sent to (its
     *                       scheme and Host: a browser sets Host to the server it talks to, so a page elsewhere
     *                       cannot make its Origin match it — and the session cookie is bound to that host)
     * @param originRequired whether a request without {@code Origin} and {@code Referer} is refused (a
     *                       cookie-authenticated one), or let through (a login, which a non-browser client may make)
     */
    public static Optional<String> refusal(String method, String origin, String referer, List<String> ownOrigins,
                                           CorsPolicy cors, boolean originRequired) {
        if (!isUnsafe(method)) {
            return Optional.empty();
        }
        String claimed = origin != null ? origin : referer;
        if (claimed == null || claimed.isBlank()) {
            return originRequired ? Optional.of("a " + method + " with the session cookie must name the page it"
                    + " comes from (Origin or Referer); refused as a possible cross-site request forgery")
                    : Optional.empty();
        }
        Optional<String> from = Origins.of(claimed);
        List<String> own = ownOrigins.stream().map(Origins::of).flatMap(Optional::stream).distinct().toList();
        if (from.isPresent() && (own.contains(from.get()) || cors.isListed(from.get()))) {
            return Optional.empty();
        }
        return Optional.of("a " + method + " from " + (from.orElse("an opaque origin")) + ", which is neither the"
                + " store's own origin" + (own.isEmpty() ? "" : " (" + String.join(", ", own) + ")") + " nor listed in "
                + CorsPolicy.SETTING + "; refused as a possible cross-site request forgery");
    }
}
