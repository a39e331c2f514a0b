package org.medjava.bench.ipc;

import java.util.ArrayList;
import java.util.List;

/**
 * What experiment 1 of issue 20 (same-host IPC) measures: mechanisms, patterns and message sizes, how many forks
 * (fresh process pairs) and runs per fork, and how many messages a run sends:
 * {@code clamp(budgetBytes / size, minMessages, maxMessages)} (the C harness uses the same formula).
 * {@code pin}: the client on CPU 0, the server on CPU 1.
 */
public record IpcPlan(List<String> mechanisms, List<String> patterns, List<Integer> sizes, int forks, int warmup,
                      int runs, long budgetBytes, long minMessages, long maxMessages, boolean pin,
                      int timeoutSeconds) {

    public static final List<String> MECHANISMS = List.of("tcp", "uds", "fifo", "shm");
    public static final List<String> PATTERNS = List.of("oneway", "roundtrip");
    /** Smith & Wells' four sizes, and 1 MiB for images. */
    public static final List<Integer> SIZES = List.of(40, 400, 4_000, 40_000, 1 << 20);

    /** The report's run: 3 forks × 5 runs per language, pinned when there are two cores or more. */
    public static IpcPlan full() {
        return new IpcPlan(MECHANISMS, PATTERNS, SIZES, 3, 2, 5, 16L << 20, 50, 10_000,
                Runtime.getRuntime().availableProcessors() >= 2 && Pinning.available(), 900);
    }

    /** A smoke test: every mechanism, pattern and size, a handful of messages, one fork, no pinning. */
    public static IpcPlan quick() {
        return new IpcPlan(MECHANISMS, PATTERNS, SIZES, 1, 1, 2, 256L << 10, 5, 200, false, 120);
    }

    public long messages(int size) {
        return Math.max(minMessages, Math.min(maxMessages, budgetBytes / size));
    }

    /** The arguments the C program and the Java client share (without {@code --fork}). */
    public List<String> arguments() {
        List<String> args = new ArrayList<>(List.of("--mechs", String.join(",", mechanisms),
                "--patterns", String.join(",", patterns), "--sizes", String.join(",", sizes.stream()
                        .map(String::valueOf).toArray(String[]::new)),
                "--warmup", Integer.toString(warmup), "--runs", Integer.toString(runs),
                "--budget", Long.toString(budgetBytes), "--min", Long.toString(minMessages),
                "--max", Long.toString(maxMessages), "--timeout", Integer.toString(timeoutSeconds)));
        if (pin) {
            args.add("--pin");
        }
        return args;
    }
}
