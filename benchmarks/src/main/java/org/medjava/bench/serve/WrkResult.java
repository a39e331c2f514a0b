package org.medjava.bench.serve;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one {@code wrk --latency} run printed: requests completed and in how many seconds, requests and bytes per
 * second, the 50th and 99th latency percentiles, responses that were not 2xx/3xx and socket errors. wrk prints
 * times with units (us, ms, s, m, h) and sizes with binary units (B, KB = 1024 B, MB, GB, TB).
 */
public record WrkResult(long requests, double seconds, double requestsPerSecond, double bytesPerSecond,
                        double p50Ms, double p99Ms, long non2xx, long socketErrors) {

    private static final Pattern TOTAL = Pattern.compile("(\\d+) requests in ([\\d.]+)(us|ms|s|m|h), ");
    private static final Pattern RATE = Pattern.compile("Requests/sec:\\s+([\\d.]+)");
    private static final Pattern TRANSFER = Pattern.compile("Transfer/sec:\\s+([\\d.]+)(B|KB|MB|GB|TB)");
    private static final Pattern P50 = Pattern.compile("\\s50%\\s+([\\d.]+)(us|ms|s|m|h)");
    private static final Pattern P99 = Pattern.compile("\\s99%\\s+([\\d.]+)(us|ms|s|m|h)");
    private static final Pattern NON_2XX = Pattern.compile("Non-2xx or 3xx responses: (\\d+)");
    private static final Pattern SOCKET = Pattern.compile(
            "Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");

    /** Parses wrk's report; an output without the totals (wrk could not connect, say) is an error naming it. */
    public static WrkResult parse(String output) {
        Matcher total = find(TOTAL, output, "the total line (\"N requests in T\")");
        Matcher rate = find(RATE, output, "Requests/sec");
        Matcher transfer = find(TRANSFER, output, "Transfer/sec");
        Matcher p50 = find(P50, output, "the 50% latency (run wrk with --latency)");
        Matcher p99 = find(P99, output, "the 99% latency (run wrk with --latency)");
        Matcher non2xx = NON_2XX.matcher(output);
        Matcher socket = SOCKET.matcher(output);
        long socketErrors = 0;
        if (socket.find()) {
            for (int g = 1; g <= 4; g++) {
                socketErrors += Long.parseLong(socket.group(g));
            }
        }
        return new WrkResult(Long.parseLong(total.group(1)),
                millis(total.group(2), total.group(3)) / 1e3,
                Double.parseDouble(rate.group(1)),
                bytes(transfer.group(1), transfer.group(2)),
                millis(p50.group(1), p50.group(2)), millis(p99.group(1), p99.group(2)),
                non2xx.find() ? Long.parseLong(non2xx.group(1)) : 0, socketErrors);
    }

    /** Mebibytes per second (wrk's Transfer/sec: headers and bodies). */
    public double mebibytesPerSecond() {
        return bytesPerSecond / (1 << 20);
    }

    /** Whether every request completed with a 2xx/3xx status, at least one did, and no socket failed. */
    public boolean clean() {
        return requests > 0 && non2xx == 0 && socketErrors == 0;
    }

    public String summary() {
        return String.format(Locale.ROOT, "%.1f req/s, p50 %.3f ms, p99 %.3f ms%s", requestsPerSecond,
                p50Ms, p99Ms, clean() ? ""
                        : String.format(Locale.ROOT, ", %d requests, %d non-2xx, %d socket errors", requests, non2xx,
                        socketErrors));
    }

    private static Matcher find(Pattern pattern, String output, String what) {
        Matcher m = pattern.matcher(output);
        if (!m.find()) {
            throw new IllegalArgumentException("no " + what + " in wrk's output: " + output.strip());
        }
        return m;
    }

    static double millis(String value, String unit) {
        double v = Double.parseDouble(value);
        switch (unit) {
            case "us": return v / 1e3;
            case "ms": return v;
            case "s": return v * 1e3;
            case "m": return v * 60e3;
            case "h": return v * 3600e3;
            default: throw new IllegalArgumentException("unknown time unit " + unit);
        }
    }

    static double bytes(String value, String unit) {
        double v = Double.parseDouble(value);
        switch (unit) {
            case "B": return v;
            case "KB": return v * 1024;
            case "MB": return v * 1024 * 1024;
            case "GB": return v * 1024 * 1024 * 1024;
            case "TB": return v * 1024 * 1024 * 1024 * 1024;
            default: throw new IllegalArgumentException("unknown size unit " + unit);
        }
    }
}
