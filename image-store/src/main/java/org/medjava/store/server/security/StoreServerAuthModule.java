package org.medjava.store.server.security;

import jakarta.security.auth.message.AuthException;
import jakarta.security.auth.message.AuthStatus;
import jakarta.security.auth.message.MessageInfo;
import jakarta.security.auth.message.MessagePolicy;
import jakarta.security.auth.message.callback.CallerPrincipalCallback;
import jakarta.security.auth.message.callback.GroupPrincipalCallback;
import jakarta.security.auth.message.config.AuthConfigFactory;
import jakarta.security.auth.message.module.ServerAuthModule;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.inject.Inject;
import java.io.IOException;
import java.security.Principal;
import java.util.Map;
import javax.security.auth.Subject;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.callback.UnsupportedCallbackException;

/**
 * The store's authentication as a Jakarta Authentication module, registered for the application at its start: the
 * container asks it about every request and learns the caller and groups from it ({@link StoreAuthenticationMechanism}
 * decides). Why not a Jakarta Security {@code HttpAuthenticationMechanism} behind the container's bridge: the bridge
 * looks the mechanism up through JNDI and CDI twice per request, which took about 15% of the CPU of a small download
 * (JFR profile, docs/performance.md); this module holds its mechanism.
 */
public final class StoreServerAuthModule implements ServerAuthModule {
    private static final Class<?>[] TYPES = {HttpServletRequest.class, HttpServletResponse.class};

    private final StoreAuthenticationMechanism mechanism;
    private CallbackHandler container;

    StoreServerAuthModule(StoreAuthenticationMechanism mechanism) {
        this.mechanism = mechanism;
    }

    /** Registers the module for the application when it starts. */
    @WebListener
    public static final class Installer implements ServletContextListener {
        @Inject
        StoreAuthenticationMechanism mechanism;

        @Override
        public void contextInitialized(ServletContextEvent event) {
            AuthConfigFactory.getFactory().registerServerAuthModule(new StoreServerAuthModule(mechanism),
                    event.getServletContext());
        }

        @Override
        public void contextDestroyed(ServletContextEvent event) {
            AuthConfigFactory.getFactory().removeServerAuthModule(event.getServletContext());
        }
    }

    @Override
    @SuppressWarnings("rawtypes") // the interface's signature
    public void initialize(MessagePolicy requestPolicy, MessagePolicy responsePolicy, CallbackHandler handler,
                           Map options) {
        this.container = handler;
    }

    @Override
    public Class<?>[] getSupportedMessageTypes() {
        return TYPES.clone();
    }

    @Override
    public AuthStatus validateRequest(MessageInfo message, Subject client, Subject service) throws AuthException {
        HttpServletResponse response = (HttpServletResponse) message.getResponseMessage();
        StoreAuthenticationMechanism.Verdict verdict = mechanism.validateRequest(
                (HttpServletRequest) message.getRequestMessage(), response);
        if (verdict.answered()) { // written and committed: the container sends it as it is
            return response.getStatus() < 400 ? AuthStatus.SEND_CONTINUE : AuthStatus.SEND_FAILURE;
        }
        // a null caller: the container's unauthenticated caller (anonymous reads, open paths)
        Callback[] callbacks = verdict.caller() == null
                ? new Callback[] {new CallerPrincipalCallback(client, (Principal) null)}
                : new Callback[] {new CallerPrincipalCallback(client, verdict.caller()),
                        new GroupPrincipalCallback(client, verdict.groups().toArray(String[]::new))};
        try {
            container.handle(callbacks);
        } catch (IOException | UnsupportedCallbackException e) {
            AuthException failed = new AuthException("the container refused the caller: " + e.getMessage());
            failed.initCause(e);
            throw failed;
        }
        return AuthStatus.SUCCESS;
    }

    @Override
    public AuthStatus secureResponse(MessageInfo message, Subject service) {
        return AuthStatus.SEND_SUCCESS;
    }

    @Override
    public void cleanSubject(MessageInfo message, Subject subject) {
        if (subject != null) {
            subject.getPrincipals().clear();
        }
    }
}
