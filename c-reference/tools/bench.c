/*
 * bench [--size N] [--repeat R] [--filter ID] [--params "..."] [--image noise|palette] [--no-straightforward]
 * Times the straightforward, optimized and vectorized implementation of each filter (default
 * parameters unless --params) on an N x N (default 4096) image, whole-image region, and
 * checks the outputs are identical (the vectorized column says its code path, mj_simd_level;
 * --no-straightforward leaves out the slowest, which can take minutes for large windows). Reports the best of R runs
 * (default 3; straightforward runs that take over 5 s are not repeated).
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

static uint64_t rs = 88172645463325252ull;
static uint32_t rnd(void)
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return (uint32_t)(rs >> 24);
}

static double time_impl(const mj_params *p, int impl, const uint8_t *src, uint8_t *dst,
                        int n, int repeat, size_t bytes)
{
    double best = 1e30;
    int k;
    mj_region reg;
    reg.x = 0;
    reg.y = 0;
    reg.w = n;
    reg.h = n;
    for (k = 0; k < repeat; k++) {
        double t0, t;
        int rc;
        memcpy(dst, src, bytes);
        t0 = now();
        rc = mj_run(p, impl, src, dst, n, n, reg);
        t = now() - t0;
        if (rc != MJ_OK) {
            fprintf(stderr, "bench: %s failed: %s\n", mj_filter_id(p->filter), mj_strerror(rc));
            exit(1);
        }
        if (t < best)
            best = t;
        if (t > 5.0)
            break;
    }
    return best;
}

int main(int argc, char **argv)
{
    int n = 4096, repeat = 3, f, i, palette = 0, straightforward = 1;
    const char *only = NULL, *params = "";
    uint8_t *src, *a, *b;
    size_t bytes, k;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--size") == 0 && i + 1 < argc)
            n = atoi(argv[++i]);
        else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else if (strcmp(argv[i], "--filter") == 0 && i + 1 < argc)
            only = argv[++i];
        else if (strcmp(argv[i], "--params") == 0 && i + 1 < argc)
            params = argv[++i];
        else if (strcmp(argv[i], "--image") == 0 && i + 1 < argc)
            palette = strcmp(argv[++i], "palette") == 0;
        else if (strcmp(argv[i], "--no-straightforward") == 0)
            straightforward = 0;
        else {
            fprintf(stderr, "usage: bench [--size N] [--repeat R] [--filter ID] "
                    "[--params \"...\"] [--image noise|palette] [--no-straightforward]\n");
            return 2;
        }
    }
    if (n < 1 || repeat < 1) {
        fprintf(stderr, "bench: bad --size or --repeat\n");
        return 2;
    }
    bytes = (size_t)n * (size_t)n * 3u;
    src = (uint8_t *)malloc(bytes);
    a = (uint8_t *)malloc(bytes);
    b = (uint8_t *)malloc(bytes);
    if (src == NULL || a == NULL || b == NULL) {
        fprintf(stderr, "bench: out of memory\n");
        return 1;
    }
    for (k = 0; k < bytes; k += 3) {
        if (palette) { /* 8 colours: repeats everywhere (oil-paint's real work) */
            uint32_t c = rnd() & 7u;
            src[k] = (uint8_t)(c * 36);
            src[k + 1] = (uint8_t)(255 - c * 30);
            src[k + 2] = (uint8_t)(c * 17 + 3);
        } else {
            src[k] = (uint8_t)rnd();
            src[k + 1] = (uint8_t)rnd();
            src[k + 2] = (uint8_t)rnd();
        }
    }
    printf("image %dx%d %s, whole-image region, best of %d run(s)\n", n, n,
           palette ? "8-colour palette" : "random noise", repeat);
    printf("%-12s %-22s %16s %12s %12s %9s %9s\n", "filter", "params", "straightforward", "optimized",
           "vectorized", "opt/str", "opt/vec");
    printf("vectorized code path: %s\n", mj_simd_level());
    for (f = 0; f < MJ_FILTER_COUNT; f++) {
        const char *id = mj_filter_id((mj_filter)f);
        char err[256];
        mj_params p;
        double ts, to, tv;
        int same;
        if (only != NULL && strcmp(only, id) != 0)
            continue;
        if (mj_parse_params(id, only != NULL ? params : "", &p, err, sizeof(err)) != MJ_OK) {
            fprintf(stderr, "bench: %s\n", err);
            return 2;
        }
        ts = straightforward ? time_impl(&p, MJ_IMPL_STRAIGHTFORWARD, src, a, n, repeat, bytes) : 0.0;
        to = time_impl(&p, MJ_IMPL_OPTIMIZED, src, b, n, repeat, bytes);
        same = !straightforward || memcmp(a, b, bytes) == 0;
        tv = time_impl(&p, MJ_IMPL_VECTORIZED, src, a, n, repeat, bytes);
        same = same && memcmp(a, b, bytes) == 0;
        printf("%-12s %-22s %13.3f ms %9.3f ms %9.3f ms %8.2fx %8.2fx%s\n", id,
               only != NULL && params[0] ? params : "(defaults)", 1e3 * ts, 1e3 * to, 1e3 * tv, ts / to, to / tv,
               same ? "" : "  OUTPUTS DIFFER!");
        fflush(stdout);
    }
    free(src);
    free(a);
    free(b);
    return 0;
}
