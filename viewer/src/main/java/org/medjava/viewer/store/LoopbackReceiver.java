package org.medjava.viewer.store;

import com.nimbusds.oauth2.sdk.AuthorizationCode;
import com.nimbusds.oauth2.sdk.ErrorObject;
import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.openid.connect.sdk.AuthenticationResponse;
import com.nimbusds.openid.connect.sdk.AuthenticationResponseParser;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The redirect target of a native app's sign-in (RFC 8252, section 7.3): an HTTP server on 127.0.0.1 with a port the
 * system picks, answering one callback only. The callback must carry the sign-in's state; an error from the provider,
 * a foreign state or no callback in time ends the sign-in with a message for the user. The browser's page tells the
 * user to return to the viewer.
 */
public final class LoopbackReceiver implements AutoCloseable {
    static final String PATH = "/callback";

    private final State state;
    private final HttpServer server;
    private final CompletableFuture<AuthorizationCode> answer = new CompletableFuture<>();
    private final java.util.concurrent.atomic.AtomicBoolean answered = new java.util.concurrent.atomic.AtomicBoolean();

    private LoopbackReceiver(State state, HttpServer server) {
        this.state = state;
        this.server = server;
    }

    /** Listens on 127.0.0.1 (the loopback IP literal, not {@code localhost}: RFC 8252, section 8.3). */
    public static LoopbackReceiver start(State state) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
        LoopbackReceiver receiver = new LoopbackReceiver(state, server);
        server.createContext(PATH, receiver::handle);
        server.start();
        return receiver;
    }

    /** The redirect URI to give the provider. */
    public URI redirectUri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + PATH);
    }

    /** The authorization code, once the provider sent the browser back; a {@link SignInFailed} otherwise. */
    public AuthorizationCode await(Duration patience) throws SignInFailed, InterruptedException {
        try {
            return answer.get(patience.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new SignInFailed("No answer from the sign-in page within " + patience.toMinutes() + " minutes: "
                    + "sign in again.");
        } catch (ExecutionException e) {
            throw e.getCause() instanceof SignInFailed f ? f : new SignInFailed("The sign-in failed: "
                    + e.getCause().getMessage());
        } catch (java.util.concurrent.CancellationException e) {
            throw new SignInFailed("The sign-in was cancelled.");
        }
    }

    /** Ends the wait (the user gave up) and stops listening. */
    @Override
    public void close() {
        answer.cancel(false);
        server.stop(1); // the browser's page is written before the answer is let through: at most a moment to wait
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!PATH.equals(exchange.getRequestURI().getPath()) || !"GET".equals(exchange.getRequestMethod())) {
                page(exchange, 404, "Not here", "This address only receives the MedJava viewer's sign-in.");
                return;
            }
            SignInFailed failed = null;
            AuthorizationCode code = null;
            try {
                AuthenticationResponse response = AuthenticationResponseParser.parse(exchange.getRequestURI());
                if (!state.equals(response.getState())) {
                    failed = new SignInFailed("The sign-in answer did not belong to this sign-in (its state differs)"
                            + ": sign in again.");
                } else if (!response.indicatesSuccess()) {
                    ErrorObject error = response.toErrorResponse().getErrorObject();
                    failed = new SignInFailed("The sign-in was refused: " + (error.getDescription() != null
                            ? error.getDescription() + " (" + error.getCode() + ")" : error.getCode()) + ".");
                } else {
                    code = response.toSuccessResponse().getAuthorizationCode();
                    if (code == null) {
                        failed = new SignInFailed("The sign-in answer carried no authorization code: sign in again.");
                    }
                }
            } catch (ParseException e) {
                failed = new SignInFailed("The sign-in answer could not be read (" + e.getMessage()
                        + "): sign in again.");
            }
            // one callback only: a reload or another page changes nothing
            if (answer.isDone() || !answered.compareAndSet(false, true)) {
                page(exchange, 409, "Already answered", "This sign-in was already answered. Return to the MedJava "
                        + "viewer.");
                return;
            }
            // the page first, then the answer: the viewer stops this server once it has the answer
            try {
                if (failed == null) {
                    page(exchange, 200, "Signed in", "You are signed in. Return to the MedJava viewer; you may close "
                            + "this tab.");
                } else {
                    page(exchange, 400, "Not signed in", failed.getMessage() + " Return to the MedJava viewer.");
                }
            } finally {
                if (failed == null) {
                    answer.complete(code);
                } else {
                    answer.completeExceptionally(failed);
                }
            }
        }
    }

    private static void page(HttpExchange exchange, int status, String title, String text) throws IOException {
        String html = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>MedJava viewer: " + title
                + "</title></head><body style=\"font-family:sans-serif;margin:3em\"><h1>" + title + "</h1><p>"
                + escape(text) + "</p></body></html>";
        byte[] body = html.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
