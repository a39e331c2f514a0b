package org.medjava.store.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.security.enterprise.AuthenticationStatus;
import jakarta.security.enterprise.authentication.mechanism.http.HttpAuthenticationMechanism;
import jakarta.security.enterprise.authentication.mechanism.http.HttpMessageContext;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.security.enterprise.identitystore.IdentityStoreHandler;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.medjava.store.config.StoreConfig;

/**
 * HTTP Basic authentication for the whole store. Credentials, when sent, are always checked (a wrong password is
 * a 401 even where anonymous access would do). Without credentials, only reads pass, and only when
 * {@code medjava.auth.anonymous-read} is on; writes and administration always need a login. What a logged-in
 * caller may do is decided by the resources, by role.
 */
@ApplicationScoped
public class StoreAuthenticationMechanism implements HttpAuthenticationMechanism {

    public static final String CHALLENGE = "Basic realm=\"MedJava image store\", charset=\"UTF-8\"";

    @Inject
    IdentityStoreHandler identityStores;

    @Inject
    StoreConfig config;

    /** Probes and monitoring (MicroProfile health, metrics, OpenAPI) answer without a login. */
    private static final java.util.List<String> OPEN = java.util.List.of("/health", "/metrics", "/openapi");

    @Override
    public AuthenticationStatus validateRequest(HttpServletRequest request, HttpServletResponse response,
                                                HttpMessageContext context) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (OPEN.stream().anyMatch(p -> path.equals(p) || path.startsWith(p + "/"))) {
            return context.doNothing();
        }
        String header = request.getHeader("Authorization");
        if (header != null && header.regionMatches(true, 0, "Basic ", 0, 6)) {
            UsernamePasswordCredential credential = parse(header.substring(6).trim());
            if (credential != null) {
                CredentialValidationResult result = identityStores.validate(credential);
                if (result.getStatus() == CredentialValidationResult.Status.VALID) {
                    return context.notifyContainerAboutLogin(result.getCallerPrincipal(), result.getCallerGroups());
                }
            }
            return challenge(response, context);
        }
        if (isRead(request) && config.anonymousRead()) {
            return context.doNothing();
        }
        return challenge(response, context);
    }

    private static boolean isRead(HttpServletRequest request) {
        String method = request.getMethod();
        return method.equals("GET") || method.equals("HEAD") || method.equals("OPTIONS");
    }

    private static AuthenticationStatus challenge(HttpServletResponse response, HttpMessageContext context) {
        response.setHeader("WWW-Authenticate", CHALLENGE);
        return context.responseUnauthorized();
    }

    private static UsernamePasswordCredential parse(String base64) {
        try {
            String decoded = new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            return colon <= 0 ? null : new UsernamePasswordCredential(decoded.substring(0, colon),
                    decoded.substring(colon + 1));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
