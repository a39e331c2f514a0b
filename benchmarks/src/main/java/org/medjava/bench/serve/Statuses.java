package org.medjava.bench.serve;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The answers of a load run counted by HTTP status ({@code -1}: a stream or request that failed without one), and
 * how many 503s came without {@code Retry-After}: what issue 30's overload and HTTP/2 targets judge. Written to
 * raw/serve.csv as its {@link #text()}, "200=51234 503=120".
 */
public record Statuses(SortedMap<Integer, Long> counts, long noRetryAfter) {
    private static final Pattern WRK_LINE = Pattern.compile("(?m)^statuses:(.*)$");
    private static final Pattern WRK_NO_RETRY_AFTER = Pattern.compile("503 without Retry-After: (\\d+)");
    public static final Statuses NONE = new Statuses(new TreeMap<>(), 0);

    public Statuses {
        counts = Collections.unmodifiableSortedMap(new TreeMap<>(counts));
    }

    /** What the serve step's wrk script (statuses.lua) printed; an output without it is an error naming it. */
    public static Statuses fromWrk(String output) {
        Matcher line = WRK_LINE.matcher(output);
        Matcher missing = WRK_NO_RETRY_AFTER.matcher(output);
        if (!line.find() || !missing.find()) {
            throw new IllegalArgumentException("no status counts in wrk's output (its script statuses.lua): "
                    + output.strip());
        }
        return new Statuses(parse(line.group(1)).counts, Long.parseLong(missing.group(1)));
    }

    /** "200=5 503=2" back into counts (an empty text: none). */
    public static Statuses parse(String text) {
        SortedMap<Integer, Long> counts = new TreeMap<>();
        for (String pair : text.strip().split("\\s+")) {
            if (!pair.isEmpty()) {
                String[] kv = pair.split("=");
                counts.merge(Integer.parseInt(kv[0]), Long.parseLong(kv[1]), Long::sum);
            }
        }
        return new Statuses(counts, 0);
    }

    public Statuses withNoRetryAfter(long n) {
        return new Statuses(counts, n);
    }

    public long total() {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    public long count(int status) {
        return counts.getOrDefault(status, 0L);
    }

    /** Answers that are neither 2xx nor a 503 with Retry-After: the errors of issue 30's overload target. */
    public long errors() {
        long ok = counts.entrySet().stream().filter(e -> e.getKey() / 100 == 2 || e.getKey() == 503)
                .mapToLong(Map.Entry::getValue).sum();
        return total() - ok + noRetryAfter;
    }

    public String text() {
        return counts.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" "));
    }
}
