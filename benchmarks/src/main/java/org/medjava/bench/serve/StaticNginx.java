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
 * a file server reaches.
 */
final class StaticNginx implements AutoCloseable {
    private final Process process;
    private final int port;

    private StaticNginx(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    static StaticNginx start(Path nginx, Path dir, Path root) throws IOException, InterruptedException {
        Files.createDirectories(dir.resolve("temp"));
        int port = Servers.freePort();
        Path conf = Files.writeString(dir.resolve("nginx.conf"), config(dir, root, port, isRoot()));
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
                    server {
                        listen 127.0.0.1:%2$d;
                        root %3$s;
                    }
                }
                """.formatted(d, port, root.toAbsolutePath());
    }

    URI uri(String path) {
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
