package org.medjava.store.core.backup;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.medjava.store.core.StoreException;

/**
 * Asks a running store for a backup: {@code POST /admin/backup} starts it as a job, whose status this polls at
 * {@code /jobs/{id}} until it is done. Plain java.net.http and a few patterns, so the command-line tool needs no JSON
 * library.
 */
public final class BackupClient {

    private static final Pattern STATE = Pattern.compile("\"state\"\\s*:\\s*\"(\\w+)\"");
    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"");
    private static final Pattern RESULT = Pattern.compile("\"result\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern DONE = Pattern.compile("\"done\"\\s*:\\s*(\\d+)");
    private static final Pattern TOTAL = Pattern.compile("\"total\"\\s*:\\s*(\\d+)");

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private final URI base;
    private final String authorization;

    /** @param base the store's URL ({@code http://localhost:8080/}) */
    public BackupClient(URI base, String user, String password) {
        this.base = base.toString().endsWith("/") ? base : URI.create(base + "/");
        this.authorization = "Basic " + Base64.getEncoder().encodeToString((user + ":" + password)
                .getBytes(StandardCharsets.UTF_8));
    }

    /** Where a running backup reports its progress. */
    public interface Progress {
        void update(String state, String statusJson);
    }

    /**
     * Backs the store up into {@code directory} (absolute, on the store's disk, new or empty) and waits for it.
     *
     * @return the backup's result as JSON (directory, snapshot, objects, bytes, pauseMillis ...)
     * @throws BackupException with the store's answer when it refused or the backup failed
     */
    public String backup(String directory, Duration timeout, Progress progress) throws IOException,
            InterruptedException {
        String body = "{\"directory\":\"" + directory.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
        HttpResponse<String> started = http.send(request("admin/backup").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        if (started.statusCode() != 202) {
            throw new BackupException(kindOf(started.statusCode()), "the store refused the backup (HTTP "
                    + started.statusCode() + "): " + started.body());
        }
        String id = find(ID, started.body());
        long deadline = System.nanoTime() + timeout.toNanos();
        String status = started.body();
        for (String state = find(STATE, status); ; state = find(STATE, status)) {
            progress.update(state, status);
            if (state.equals("DONE")) {
                return unescape(find(RESULT, status));
            }
            if (state.equals("FAILED")) {
                throw new BackupException(StoreException.Kind.UNAVAILABLE, "the backup failed: "
                        + unescape(find(RESULT, status)));
            }
            if (System.nanoTime() > deadline) {
                throw new BackupException(StoreException.Kind.UNAVAILABLE, "the backup (job " + id
                        + ") is not done after " + timeout.toMinutes() + " min; see " + base + "jobs/" + id);
            }
            Thread.sleep(250);
            HttpResponse<String> r = http.send(request("jobs/" + id).header("Accept", "application/json").build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new BackupException(kindOf(r.statusCode()), "cannot follow the backup job " + id + " (HTTP "
                        + r.statusCode() + "): " + r.body());
            }
            status = r.body();
        }
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofMinutes(2))
                .header("Authorization", authorization);
    }

    private static StoreException.Kind kindOf(int status) {
        for (StoreException.Kind k : StoreException.Kind.values()) {
            if (k.status == status) {
                return k;
            }
        }
        return StoreException.Kind.UNAVAILABLE;
    }

    private static String find(Pattern pattern, String json) {
        Matcher m = pattern.matcher(json);
        if (!m.find()) {
            throw new BackupException(StoreException.Kind.BAD_GATEWAY, "unexpected answer from the store: " + json);
        }
        return m.group(1);
    }

    /** "done of total" of a job status, or "" while unknown. */
    public static String progressOf(String statusJson) {
        Matcher done = DONE.matcher(statusJson);
        Matcher total = TOTAL.matcher(statusJson);
        return done.find() && total.find() && !total.group(1).equals("0") ? done.group(1) + " of " + total.group(1)
                : "";
    }

    static String unescape(String json) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (c != '\\' || i + 1 == json.length()) {
                s.append(c);
                continue;
            }
            char n = json.charAt(++i);
            switch (n) {
                case 'n' -> s.append('\n');
                case 't' -> s.append('\t');
                case 'r' -> s.append('\r');
                case 'u' -> {
                    s.append((char) Integer.parseInt(json.substring(i + 1, i + 5), 16));
                    i += 4;
                }
                default -> s.append(n);
            }
        }
        return s.toString();
    }
}
