package org.medjava.store.server.pacs;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.medjava.store.testkit.Command;
import org.medjava.store.testkit.Ports;
import org.medjava.store.testkit.peers.Nginx;

/**
 * A private nginx publishing one store under a path prefix, as a hospital's reverse proxy does
 * ({@code http://127.0.0.1:<port>/medjava/...} to {@code http://127.0.0.1:<store>/...}): the prefix is stripped on
 * the way in, and nothing in the store's answers is rewritten on the way out, so every absolute link in them must
 * already be right. The usual X-Forwarded-* headers are set (the store ignores them unless told to trust them).
 */
final class PrefixProxy implements AutoCloseable {

    private final Process process;
    private final int port;
    private final String prefix;

    private PrefixProxy(Process process, int port, String prefix) {
        this.process = process;
        this.port = port;
        this.prefix = prefix;
    }

    static PrefixProxy start(Path dir, int port, String prefix, int storePort) throws IOException,
            InterruptedException {
        for (String temp : List.of("client_body", "proxy", "fastcgi", "uwsgi", "scgi")) {
            Files.createDirectories(dir.resolve("temp").resolve(temp));
        }
        Files.createDirectories(dir.resolve("logs"));
        Path conf = dir.resolve("nginx.conf");
        String d = dir.toAbsolutePath().toString();
        boolean root = "root".equals(System.getProperty("user.name"));
        Files.writeString(conf, (root ? "user root;\n" : "") + """
                worker_processes 1;
                pid %1$s/nginx.pid;
                error_log %1$s/logs/error.log warn;
                events { worker_connections 64; }
                http {
                    access_log %1$s/logs/access.log;
                    client_body_temp_path %1$s/temp/client_body;
                    proxy_temp_path %1$s/temp/proxy;
                    fastcgi_temp_path %1$s/temp/fastcgi;
                    uwsgi_temp_path %1$s/temp/uwsgi;
                    scgi_temp_path %1$s/temp/scgi;
                    server {
                        listen 127.0.0.1:%2$d;
                        client_max_body_size 0;
                        location %3$s/ {
                            proxy_pass http://127.0.0.1:%4$d/;
                            proxy_http_version 1.1;
                            proxy_set_header Host 127.0.0.1:%4$d;
                            proxy_set_header X-Forwarded-Proto $scheme;
                            proxy_set_header X-Forwarded-Host $http_host;
                            proxy_set_header X-Forwarded-Prefix %3$s;
                            proxy_request_buffering off;
                            proxy_buffering off;
                        }
                    }
                }
                """.formatted(d, port, prefix, storePort), StandardCharsets.UTF_8);
        List<String> command = List.of(Nginx.binary().toString(), "-p", d + "/", "-c", conf.toString(), "-e",
                dir.resolve("logs/error.log").toString());
        Command.run(concat(command, "-t"), dir, 30).assertOk();
        Process process = new ProcessBuilder(concat(command, "-g", "daemon off;")).directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("logs/console.log").toFile())).start();
        PrefixProxy proxy = new PrefixProxy(process, port, prefix);
        try {
            Ports.awaitListening(port, Duration.ofSeconds(20), process, "nginx");
        } catch (RuntimeException e) {
            proxy.close();
            throw e;
        }
        return proxy;
    }

    private static List<String> concat(List<String> a, String... b) {
        List<String> all = new java.util.ArrayList<>(a);
        all.addAll(List.of(b));
        return all;
    }

    /** The public URL of a store path ({@code /dicomweb/studies}). */
    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + prefix + path);
    }

    @Override
    public void close() {
        List<ProcessHandle> workers = process.descendants().toList();
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        workers.forEach(ProcessHandle::destroyForcibly);
    }
}
