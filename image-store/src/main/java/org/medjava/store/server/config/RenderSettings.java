package org.medjava.store.server.config;

import org.medjava.store.core.memory.DecodeBudget;

/**
 * Decoding, rendering and filter calls: the largest image, the decode budget, the longest filter chain, and the
 * deadline and concurrency of filter calls.
 *
 * @param decodeBudgetBytes   the decode budget: {@code medjava.memory.decode-budget-bytes}, else a quarter of the heap
 * @param filterMaxConcurrent filter calls at once: {@code medjava.filters.max-concurrent}, else the cores
 */
public record RenderSettings(long maxPixels, long decodeBudgetBytes, long decodeWaitMillis, int maxFilterChain,
                             int filterDeadlineSeconds, int filterMaxConcurrent) {

    /**
     * The most pixels an image may have: a hard ceiling independent of the heap, since a raster is one Java array; the
     * decode budget ({@code medjava.memory.decode-budget-bytes}) is what adapts to memory.
     */
    static final Key MAX_PIXELS = Key.of("medjava.images.max-pixels", "268435456");

    /**
     * Bytes all decodes together may hold (the decode budget); unset or 0: a quarter of the JVM's maximum heap. An
     * image that needs more than the whole budget is 413, at upload too when its header says so.
     */
    static final Key DECODE_BUDGET_BYTES = Key.of("medjava.memory.decode-budget-bytes");

    /** Milliseconds a decode waits for room in the budget before it is answered 503 with {@code Retry-After}. */
    static final Key DECODE_WAIT_MILLIS = Key.of("medjava.memory.decode-wait-millis", "2000");

    /**
     * The most steps in a filter chain; a longer one is 400 naming the limit, on every door ({@code ?render=},
     * {@code render=dicom}, derived objects, DICOMweb rendered, series jobs). More than 1024 steps are refused while
     * parsing, whatever this says.
     */
    static final Key MAX_CHAIN = Key.of("medjava.filters.max-chain", "16");

    /**
     * The most a request's filter chain may take as a whole, in seconds (at least 1); a request's {@code timeout=} may
     * ask for less. Passed: 503 with the reason.
     */
    static final Key DEADLINE_SECONDS = Key.of("medjava.filters.deadline-seconds", "30");

    /**
     * Filter calls that may run at once (each may use every core); 0: as many as the machine has cores. The next call
     * waits up to 2 s for a slot, then gets 503 with {@code Retry-After: 1}.
     */
    static final Key MAX_CONCURRENT = Key.of("medjava.filters.max-concurrent", "0");

    public static RenderSettings from(SettingsSource source) {
        int concurrent = source.integer(MAX_CONCURRENT);
        return new RenderSettings(SettingsSource.atLeast(MAX_PIXELS, source.whole(MAX_PIXELS), 1),
                source.optionalWhole(DECODE_BUDGET_BYTES).filter(b -> b > 0).orElseGet(DecodeBudget::defaultCapacity),
                Math.max(0, source.whole(DECODE_WAIT_MILLIS)), Math.max(1, source.integer(MAX_CHAIN)),
                Math.max(1, source.integer(DEADLINE_SECONDS)),
                concurrent > 0 ? concurrent : Runtime.getRuntime().availableProcessors());
    }
}
