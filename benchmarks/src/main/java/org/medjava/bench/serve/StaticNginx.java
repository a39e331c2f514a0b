package org.medjava.bench.serve;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Debian's nginx serving a directory as static files, as fast as it is usually configured: one worker per core,
 * sendfile, tcp_nopush, keep-alive without a request limit, no access log. On a free loopback port, in the
 * foreground ({@code daemon off;}) as a child of this JVM, everything it writes (pid, error log, temporary files)
 * in its own directory, so it runs as any user; stopped by its process handle. No authentication: it is the ceiling
 * a file server reaches. {@link #front} runs the same nginx as a reverse proxy instead.
 */
public final class StaticNginx implements AutoCloseable {
    private final Process process;
    private final int port;

    private StaticNginx(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    static StaticNginx start(Path nginx, Path dir, Path root) throws IOException, InterruptedException {
        return start(nginx, dir, port -> config(dir, root, port, isRoot()));
    }

    /**
     * The same nginx with {@code locations} (nginx directives for its one server, and {@code upstream} blocks
     * before it) in the place of the static root: a reverse proxy in front of other servers (the study-open
     * benchmark's Orthanc origin).
     */
    public static StaticNginx front(Path nginx, Path dir, String upstreams, String locations)
            throws IOException, InterruptedException {
        return start(nginx, dir, port -> config(dir, port, isRoot(), upstreams, locations));
    }

    private static StaticNginx start(Path nginx, Path dir, java.util.function.IntFunction<String> config)
            throws IOException, InterruptedException {
        Files.createDirectories(dir.resolve("temp"));
        int port = Servers.freePort();
        Path conf = Files.writeString(dir.resolve("nginx.conf"), config.apply(port));
        Path log = dir.resolve("error.log");
        Process p = new ProcessBuilder(nginx.toString(), "-p", dir + "/", "-c", conf.toString(), "-e", log.toString(),
                "-g", "daemon off;").directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        Servers.track(p);
        StaticNginx server = new StaticNginx(p, port);
        try {
            Servers.awaitListening(port, Duration.ofSeconds(20), p, "nginx", log);
        } catch (IOException | InterruptedException | RuntimeException e) {
            server.close();
            throw new IOException(e.getMessage() + ": " + Files.readString(log).strip(), e);
        }
        return server;
    }

    static String config(Path dir, Path root, int port, boolean asRoot) {
        return config(dir, port, asRoot, "", "root " + root.toAbsolutePath() + ";");
    }

    private static String config(Path dir, int port, boolean asRoot, String upstreams, String server) {
        String d = dir.toAbsolutePath().toString();
        // as root, nginx would run its workers as "nobody", who may not enter the private directories
        return (asRoot ? "user root;\n" : "") + """
                worker_processes auto;
                pid %1$s/nginx.pid;
                error_log %1$s/error.log warn;
                events { worker_connections 1024; }
                http {
                    access_log off;
                    sendfile on;
                    tcp_nopush on;
                    tcp_nodelay on;
                    keepalive_timeout 65s;
                    keepalive_requests 1000000;
                    default_type application/octet-stream;
                    client_body_temp_path %1$s/temp/client_body;
                    proxy_temp_path %1$s/temp/proxy;
                    fastcgi_temp_path %1$s/temp/fastcgi;
                    uwsgi_temp_path %1$s/temp/uwsgi;
                    scgi_temp_path %1$s/temp/scgi;
                    %3$s
                    server {
                        listen 127.0.0.1:%2$d;
                        %4$s
                    }
                }
                """.formatted(d, port, upstreams, server);
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    long pid() {
        return process.pid();
    }

    @Override
    public void close() throws InterruptedException {
        Servers.stop(process, 10);
    }

    private static boolean isRoot() {
        try {
            return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }
}
