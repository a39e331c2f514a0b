/*
 * bench_harness - the benchmarks' pure-C column: times the same work as every JMH variant
 * (copy the source into the destination, then run the filter over the whole image) without a JVM,
 * so the report can show what the JNI bridge costs.
 *
 *   bench_harness --sizes 256,1024,3000x2000 [--filters blur,sharpen,...]
 *                 [--impls straightforward,optimized,vectorized] [--warmup SECONDS] [--time SECONDS]
 *                 [--label TEXT]
 *   bench_harness --stdin [--warmup SECONDS] [--time SECONDS] [--label TEXT]
 *
 * Image: random noise, xorshift64 from state 42 restarted for every size (the benchmarks' JNI loop
 * generates the very same bytes: TestImages.xorshift). Per case: warm-up runs for --warmup
 * seconds (at least one run), then runs until --time seconds have passed (at least 3 runs).
 * One CSV line per case on stdout:
 *   <label>,<filter>,<width>,<height>,<impl>,<runs>,<mean ms>,<min ms>
 * where <impl> of the vectorized variant says its code path: vectorized-avx512, vectorized-avx2 or
 * vectorized-scalar (mj_simd_level); a filter without a vectorized kernel has no such line.
 * With --stdin it reads cases as lines "SIZE FILTER IMPL" and answers each with that line
 * (flushed), so the benchmarks can time the same case through JNI right after it.
 * Exit 2 on usage errors, 1 if a filter fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "medjava_filters.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng_state = 42;
static uint8_t next_byte(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint8_t)(rng_state >> 24);
}

static int parse_size(const char *text, int *w, int *h)
{
    char *end;
    long a = strtol(text, &end, 10), b = a;
    if (*end == 'x' || *end == 'X')
        b = strtol(end + 1, &end, 10);
    if (*end != '\0' || a < 1 || b < 1 || a > 65535 || b > 65535)
        return 0;
    *w = (int)a;
    *h = (int)b;
    return 1;
}

static int listed(const char *list, const char *word)
{
    size_t n = strlen(word);
    const char *p = list;
    while ((p = strstr(p, word)) != NULL) {
        if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
            return 1;
        p += n;
    }
    return 0;
}

/* One copy + filter; exits on failure (a missing vectorized kernel is returned: MJ_ERR_ARG). */
static int run_once(const mj_params *p, int impl, const uint8_t *src, uint8_t *dst, int w, int h,
                     size_t bytes)
{
    mj_region r;
    int rc;
    r.x = 0;
    r.y = 0;
    r.w = w;
    r.h = h;
    memcpy(dst, src, bytes);
    rc = mj_run(p, impl, src, dst, w, h, r);
    if (rc == MJ_ERR_ARG && impl == MJ_IMPL_VECTORIZED)
        return rc;
    if (rc != MJ_OK) {
        fprintf(stderr, "bench_harness: %s failed: %s\n", mj_filter_id(p->filter), mj_strerror(rc));
        exit(1);
    }
    return MJ_OK;
}

static const char *impl_name(int impl)
{
    static char vectorized[32];
    if (impl == MJ_IMPL_VECTORIZED) {
        snprintf(vectorized, sizeof(vectorized), "vectorized-%s", mj_simd_level());
        return vectorized;
    }
    return impl == MJ_IMPL_OPTIMIZED ? "optimized" : "straightforward";
}

/* Returns 0, or -1 (nothing printed) when the filter fails. */
static int time_case(const char *label, const mj_params *p, int impl, const uint8_t *src,
                      uint8_t *dst, int w, int h, double warmup, double budget)
{
    size_t bytes = (size_t)w * (size_t)h * 3u;
    double start = now(), best = 1e30, total = 0;
    int runs = 0;
    if (run_once(p, impl, src, dst, w, h, bytes) != MJ_OK) {
        fprintf(stderr, "bench_harness: %s failed\n", mj_filter_id(p->filter));
        return -1;
    }
    do {
        run_once(p, impl, src, dst, w, h, bytes);
    } while (now() - start < warmup);
    start = now();
    while (runs < 3 || now() - start < budget) {
        double t0 = now(), t;
        run_once(p, impl, src, dst, w, h, bytes);
        t = now() - t0;
        total += t;
        if (t < best)
            best = t;
        runs++;
    }
    printf("%s,%s,%d,%d,%s,%d,%.6f,%.6f\n", label, mj_filter_id(p->filter), w, h,
           impl_name(impl), runs, 1e3 * total / runs,
           1e3 * best);
    fflush(stdout);
    return 0;
}

/* The source image of the current size (random noise) and a destination of the same size. */
typedef struct {
    int w, h;
    uint8_t *src, *dst;
} images;

static int prepare(images *im, int w, int h)
{
    size_t bytes = (size_t)w * (size_t)h * 3u, k;
    if (im->src != NULL && im->w == w && im->h == h)
        return 1;
    free(im->src);
    free(im->dst);
    im->src = (uint8_t *)malloc(bytes);
    im->dst = (uint8_t *)malloc(bytes);
    im->w = w;
    im->h = h;
    if (im->src == NULL || im->dst == NULL)
        return 0;
    rng_state = 42;
    for (k = 0; k < bytes; k++)
        im->src[k] = next_byte();
    return 1;
}

/* --stdin: one case per line, "SIZE FILTER IMPL". */
static int serve(const char *label, double warmup, double budget)
{
    char size[32], filter[32], impl[32], err[256];
    images im = {0, 0, NULL, NULL};
    while (scanf("%31s %31s %31s", size, filter, impl) == 3) {
        int w, h, which;
        mj_params p;
        if (!parse_size(size, &w, &h) || mj_parse_params(filter, "", &p, err, sizeof(err)) != MJ_OK) {
            fprintf(stderr, "bench_harness: bad case '%s %s %s'\n", size, filter, impl);
            return 2;
        }
        if (strcmp(impl, "optimized") == 0)
            which = MJ_IMPL_OPTIMIZED;
        else if (strcmp(impl, "straightforward") == 0)
            which = MJ_IMPL_STRAIGHTFORWARD;
        else if (strcmp(impl, "vectorized") == 0)
            which = MJ_IMPL_VECTORIZED;
        else {
            fprintf(stderr, "bench_harness: bad implementation '%s'\n", impl);
            return 2;
        }
        if (!prepare(&im, w, h)) {
            fprintf(stderr, "bench_harness: out of memory for %dx%d\n", w, h);
            return 1;
        }
        if (time_case(label, &p, which, im.src, im.dst, w, h, warmup, budget) != 0)
            return 1; /* the caller waits for a line that will not come */
    }
    free(im.src);
    free(im.dst);
    return 0;
}

int main(int argc, char **argv)
{
    const char *sizes = NULL, *filters = NULL, *impls = "straightforward,optimized", *label = "c";
    double warmup = 0.2, budget = 1.0;
    char *list, *tok, *save = NULL;
    int i, bad = 0, from_stdin = 0;

    for (i = 1; i < argc && !bad; i++) {
        if (strcmp(argv[i], "--sizes") == 0 && i + 1 < argc)
            sizes = argv[++i];
        else if (strcmp(argv[i], "--filters") == 0 && i + 1 < argc)
            filters = argv[++i];
        else if (strcmp(argv[i], "--impls") == 0 && i + 1 < argc)
            impls = argv[++i];
        else if (strcmp(argv[i], "--warmup") == 0 && i + 1 < argc)
            warmup = atof(argv[++i]);
        else if (strcmp(argv[i], "--time") == 0 && i + 1 < argc)
            budget = atof(argv[++i]);
        else if (strcmp(argv[i], "--label") == 0 && i + 1 < argc)
            label = argv[++i];
        else if (strcmp(argv[i], "--stdin") == 0)
            from_stdin = 1;
        else
            bad = 1;
    }
    if (from_stdin && !bad && warmup >= 0 && budget >= 0)
        return serve(label, warmup, budget);
    if (bad || sizes == NULL || warmup < 0 || budget < 0) {
        fprintf(stderr, "usage: bench_harness --sizes N,WxH,... [--filters a,b] "
                        "[--impls straightforward,optimized,vectorized] [--warmup S] [--time S] [--label TEXT]\n"
                        "       bench_harness --stdin [--warmup S] [--time S] [--label TEXT]\n");
        return 2;
    }
    list = strdup(sizes);
    for (tok = strtok_r(list, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
        int w, h, f;
        size_t bytes, k;
        uint8_t *src, *dst;
        if (!parse_size(tok, &w, &h)) {
            fprintf(stderr, "bench_harness: bad size '%s' (N or WxH)\n", tok);
            return 2;
        }
        bytes = (size_t)w * (size_t)h * 3u;
        rng_state = 42;
        src = (uint8_t *)malloc(bytes);
        dst = (uint8_t *)malloc(bytes);
        if (src == NULL || dst == NULL) {
            fprintf(stderr, "bench_harness: out of memory for %dx%d\n", w, h);
            return 1;
        }
        for (k = 0; k < bytes; k++)
            src[k] = next_byte();
        for (f = 0; f < MJ_FILTER_COUNT; f++) {
            const char *id = mj_filter_id((mj_filter)f);
            char err[256];
            mj_params p;
            if (filters != NULL && !listed(filters, id))
                continue;
            if (mj_parse_params(id, "", &p, err, sizeof(err)) != MJ_OK) {
                fprintf(stderr, "bench_harness: %s\n", err);
                return 1;
            }
            if (listed(impls, "straightforward"))
                time_case(label, &p, MJ_IMPL_STRAIGHTFORWARD, src, dst, w, h, warmup, budget);
            if (listed(impls, "optimized"))
                time_case(label, &p, MJ_IMPL_OPTIMIZED, src, dst, w, h, warmup, budget);
            if (listed(impls, "vectorized"))
                time_case(label, &p, MJ_IMPL_VECTORIZED, src, dst, w, h, warmup, budget);
        }
        free(src);
        free(dst);
    }
    free(list);
    return 0;
}
