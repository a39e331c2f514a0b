package org.medjava.bench.serve;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one h2load run said: from its report, the requests done and how many failed (at the HTTP level or not) and
 * errored (not at the HTTP level: a reset stream, a broken connection), the rate and bytes per second; from its
 * {@code --log-file} (a line per request: start µs, status, µs to the end of the answer), the count of each status
 * and the 50th and 99th latency percentiles of the 2xx answers (h2load's report has only min, max, mean and sd).
 */
public record H2loadResult(long requests, long failed, long errored, double seconds, double requestsPerSecond,
                           double bytesPerSecond, Statuses statuses, double p50Ms, double p99Ms) {

    private static final Pattern FINISHED = Pattern.compile(
            "finished in ([\\d.]+)(us|ms|s|m|h), ([\\d.]+) req/s, ([\\d.]+)(B|KB|MB|GB|TB)/s");
    private static final Pattern REQUESTS = Pattern.compile("requests: (\\d+) total, (\\d+) started, (\\d+) done, "
            + "(\\d+) succeeded, (\\d+) failed, (\\d+) errored, (\\d+) timeout");

    /** Parses h2load's report and its log file's lines; a report without its totals is an error quoting it. */
    public static H2loadResult parse(String output, List<String> log) {
        Matcher finished = FINISHED.matcher(output);
        Matcher requests = REQUESTS.matcher(output);
        if (!finished.find() || !requests.find()) {
            throw new IllegalArgumentException("no totals (\"finished in\", \"requests:\") in h2load's output: "
                    + output.strip());
        }
        TreeMap<Integer, Long> counts = new TreeMap<>();
        List<Double> ok = new ArrayList<>();
        for (String line : log) {
            String[] f = line.split("\t");
            if (f.length < 3) {
                continue;
            }
            int status = Integer.parseInt(f[1]);
            counts.merge(status, 1L, Long::sum);
            if (status / 100 == 2) {
                ok.add(Long.parseLong(f[2]) / 1e3);
            }
        }
        Collections.sort(ok);
        return new H2loadResult(Long.parseLong(requests.group(3)), Long.parseLong(requests.group(5)),
                Long.parseLong(requests.group(6)), WrkResult.millis(finished.group(1), finished.group(2)) / 1e3,
                Double.parseDouble(finished.group(3)), WrkResult.bytes(finished.group(4), finished.group(5)),
                new Statuses(counts, 0), percentile(ok, 0.50), percentile(ok, 0.99));
    }

    /** The nearest-rank percentile; NaN without values. */
    static double percentile(List<Double> sorted, double p) {
        return sorted.isEmpty() ? Double.NaN
                : sorted.get(Math.max(0, (int) Math.ceil(p * sorted.size()) - 1));
    }

    /** Requests that failed at the HTTP level (a status that was not 2xx or 3xx). */
    public long non2xx() {
        return failed - errored;
    }

    /** Issue 30's HTTP/2 target: requests done, none failed or errored. */
    public boolean clean() {
        return requests > 0 && failed == 0 && errored == 0;
    }

    public String summary() {
        return String.format(Locale.ROOT, "%.1f req/s, p50 %.3f ms, p99 %.3f ms, %d requests, %d failed, %d errored, "
                + "statuses %s", requestsPerSecond, p50Ms, p99Ms, requests, failed, errored, statuses.text());
    }
}
