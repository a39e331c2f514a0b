package org.medjava.viewer.testsupport;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in for the store where the real one cannot be made to refuse cheaply (413 needs an upload over the store's
 * 64 MiB test limit): an HTTP server on a loopback port that lists an empty store, serves an empty filter manifest,
 * and answers every upload (PUT) — or every request — with one status and the store's JSON error body. Close it after
 * the test.
 */
public final class RefusingStore implements AutoCloseable {
    private final HttpServer server;
    private final AtomicInteger requests = new AtomicInteger();

    /** Answers each PUT with {@code status} and {@code {"message": message}}, after reading the whole body. */
    public RefusingStore(int status, String message) throws IOException {
        this(status, message, false);
    }

    /** Answers every request, not only uploads, with {@code status} (a store refusing a login everywhere: 401). */
    public static RefusingStore everything(int status, String message) throws IOException {
        return new RefusingStore(status, message, true);
    }

    private RefusingStore(int status, String message, boolean everything) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            try (exchange) {
                requests.incrementAndGet();
                exchange.getRequestBody().readAllBytes();
                String method = exchange.getRequestMethod();
                String path = exchange.getRequestURI().getPath();
                if (everything || method.equals("PUT")) {
                    answer(exchange, status, "{\"status\":" + status + ",\"message\":\"" + message + "\"}");
                } else if (method.equals("GET") && path.equals("/images/")) {
                    answer(exchange, 200, "{\"path\":\"\",\"entries\":[]}");
                } else if (method.equals("GET") && path.equals("/filters")) {
                    answer(exchange, 200, "{\"plugins\":[]}");
                } else {
                    answer(exchange, 404, "{\"status\":404,\"message\":\"not found\"}");
                }
            }
        });
        server.start();
    }

    private static void answer(HttpExchange exchange, int status, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /** How many requests it answered. */
    public int requests() {
        return requests.get();
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
