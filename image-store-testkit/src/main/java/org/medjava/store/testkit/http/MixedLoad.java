package org.medjava.store.testkit.http;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

/**
 * A closed-loop load generator: {@code connections} clients, each sending its next request as soon as the last
 * answer arrived, for a fixed time; the request kind drawn by weight from a fixed-seed sequence. It counts every
 * answer by kind and status, every socket error, and keeps every latency, so percentiles are exact (not sampled).
 * Latencies are of a closed loop: a slow answer delays that client's next request (no coordinated-omission
 * correction), which is what 50 real clients would see.
 */
public final class MixedLoad {

    /** One kind of request, its share of the mix and the statuses that count as success. */
    public record Kind(String name, int weight, Set<Integer> ok, IntFunction<HttpRequest> request) {
    }

    /** What one kind did. */
    public record Figures(long requests, Map<Integer, Long> statuses, long socketErrors, double p50Ms,
                          double p99Ms, double maxMs) {
    }

    /** What the run did: all kinds together, and each kind. */
    public record Result(double seconds, Figures all, Map<String, Figures> kinds, List<String> failures) {
        public long serverErrors() {
            return all.statuses.entrySet().stream().filter(e -> e.getKey() >= 500).mapToLong(Map.Entry::getValue)
                    .sum();
        }

        public String report() {
            StringBuilder s = new StringBuilder(String.format(Locale.ROOT,
                    "%.0f s, %d requests (%.0f/s), p50 %.1f ms, p99 %.1f ms, max %.1f ms, socket errors %d, "
                            + "statuses %s%n", seconds, all.requests, all.requests / seconds, all.p50Ms, all.p99Ms,
                    all.maxMs, all.socketErrors, all.statuses));
            kinds.forEach((name, f) -> s.append(String.format(Locale.ROOT,
                    "  %-14s %7d requests  p50 %7.1f ms  p99 %7.1f ms  max %7.1f ms  socket errors %d  %s%n", name,
                    f.requests, f.p50Ms, f.p99Ms, f.maxMs, f.socketErrors, f.statuses)));
            return s.toString();
        }
    }

    private MixedLoad() {
    }

    public static Result run(int connections, Duration duration, List<Kind> kinds) throws InterruptedException {
        int[] wheel = kinds.stream().flatMapToInt(k -> java.util.stream.IntStream.generate(() -> kinds.indexOf(k))
                .limit(k.weight)).toArray();
        ExecutorService pool = Executors.newFixedThreadPool(connections + 4);
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(pool)
                .connectTimeout(Duration.ofSeconds(10)).build();
        Recorder[] recorders = new Recorder[kinds.size()];
        for (int i = 0; i < recorders.length; i++) {
            recorders[i] = new Recorder();
        }
        List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        long end = System.nanoTime() + duration.toNanos();
        CountDownLatch done = new CountDownLatch(connections);
        Thread[] clients = new Thread[connections];
        long started = System.nanoTime();
        for (int c = 0; c < connections; c++) {
            int client = c;
            clients[c] = new Thread(() -> {
                java.util.Random order = new java.util.Random(1000L + client);
                try {
                    for (int n = 0; System.nanoTime() < end; n++) {
                        int k = wheel[order.nextInt(wheel.length)];
                        Kind kind = kinds.get(k);
                        HttpRequest request = kind.request.apply(client * 1_000_000 + n);
                        long t0 = System.nanoTime();
                        try {
                            HttpResponse<byte[]> r = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
                            recorders[k].answer(r.statusCode(), System.nanoTime() - t0);
                            if (!kind.ok.contains(r.statusCode()) && failures.size() < 20) {
                                failures.add(kind.name + " " + request.method() + " " + request.uri() + " -> "
                                        + r.statusCode() + " " + new String(r.body(), 0, Math.min(200,
                                        r.body().length), java.nio.charset.StandardCharsets.UTF_8));
                            }
                        } catch (IOException e) {
                            recorders[k].socketError();
                            if (failures.size() < 20) {
                                failures.add(kind.name + " " + request.uri() + " -> " + e);
                            }
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    done.countDown();
                }
            }, "load-" + c);
            clients[c].start();
        }
        done.await();
        double seconds = (System.nanoTime() - started) / 1e9;
        pool.shutdownNow();
        Map<String, Figures> byKind = new LinkedHashMap<>();
        Recorder all = new Recorder();
        for (int i = 0; i < recorders.length; i++) {
            byKind.put(kinds.get(i).name, recorders[i].figures());
            all.add(recorders[i]);
        }
        return new Result(seconds, all.figures(), byKind, List.copyOf(failures));
    }

    /** Latencies and statuses of one kind, from many threads. */
    private static final class Recorder {
        private long[] nanos = new long[1024];
        private int count;
        private final Map<Integer, AtomicLong> statuses = new ConcurrentHashMap<>();
        private final AtomicLong socketErrors = new AtomicLong();

        synchronized void answer(int status, long latency) {
            if (count == nanos.length) {
                nanos = Arrays.copyOf(nanos, count * 2);
            }
            nanos[count++] = latency;
            statuses.computeIfAbsent(status, s -> new AtomicLong()).incrementAndGet();
        }

        void socketError() {
            socketErrors.incrementAndGet();
        }

        synchronized void add(Recorder other) {
            for (int i = 0; i < other.count; i++) {
                answer(0, other.nanos[i]);
            }
            statuses.remove(0);
            other.statuses.forEach((s, n) -> statuses.computeIfAbsent(s, x -> new AtomicLong()).addAndGet(n.get()));
            socketErrors.addAndGet(other.socketErrors.get());
        }

        synchronized Figures figures() {
            long[] sorted = Arrays.copyOf(nanos, count);
            Arrays.sort(sorted);
            Map<Integer, Long> byStatus = new java.util.TreeMap<>();
            statuses.forEach((s, n) -> byStatus.put(s, n.get()));
            return new Figures(count, byStatus, socketErrors.get(), percentile(sorted, 0.50),
                    percentile(sorted, 0.99), count == 0 ? 0 : sorted[count - 1] / 1e6);
        }

        private static double percentile(long[] sorted, double p) {
            if (sorted.length == 0) {
                return 0;
            }
            int rank = (int) Math.ceil(p * sorted.length) - 1; // nearest rank
            return sorted[Math.max(0, Math.min(rank, sorted.length - 1))] / 1e6;
        }
    }
}
