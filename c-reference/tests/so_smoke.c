/*
 * so_smoke: links against the shared library (-lmedjava_filters) and runs every filter from
 * four threads at once on distinct buffers, comparing with single-threaded results (the
 * library promises thread safety: no global mutable state but the SIMD level, set once). The three implementations;
 * a filter without a vectorized kernel runs two. Closes with "N passed, N failed".
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "medjava_filters.h"

#define W 97
#define H 61
#define THREADS 4
#define ROUNDS 20

static const char *const PARAMS[MJ_FILTER_COUNT] = {
    "n=5", "p=60", "n=3", "frame=black", "rounding=floor", "", "block=5x3", "distance=4 seed=77"};

static uint8_t g_src[W * H * 3];
static uint8_t g_ref[MJ_FILTER_COUNT][3][W * H * 3];

typedef struct {
    int id;
    int failures;
} job;

static void *worker(void *arg)
{
    job *j = (job *)arg;
    uint8_t *out = (uint8_t *)malloc(sizeof(g_src));
    int round, f, impl;
    char err[256];
    for (round = 0; round < ROUNDS; round++)
        for (f = 0; f < MJ_FILTER_COUNT; f++)
            for (impl = 0; impl < 3; impl++) {
                int rc = mj_apply(mj_filter_id((mj_filter)f), PARAMS[f], impl, g_src, out, W, H,
                                  j->id, 1, W - 2 * j->id, H - 2, err, sizeof(err));
                if (rc != MJ_OK || memcmp(out, g_ref[f][impl], sizeof(g_src)) != 0)
                    j->failures++;
            }
    free(out);
    return NULL;
}

int main(void)
{
    pthread_t th[THREADS];
    job jobs[THREADS];
    int f, impl, t, passed = 0, failed = 0;
    char err[256];
    uint32_t s = 12345;
    size_t k;
    for (k = 0; k < sizeof(g_src); k++) {
        s = s * 1103515245u + 12345u;
        g_src[k] = (uint8_t)(s >> 24);
    }
    /* every thread uses region (id, 1, W - 2 id, H - 2); precompute for id = 1 (all threads
     * use the same id so the single-threaded references apply) */
    for (f = 0; f < MJ_FILTER_COUNT; f++) {
        for (impl = 0; impl < 3; impl++) {
            int rc = mj_apply(mj_filter_id((mj_filter)f), PARAMS[f], impl, g_src, g_ref[f][impl], W, H, 1, 1, W - 2,
                              H - 2, err, sizeof(err));
            if (rc != MJ_OK || memcmp(g_ref[f][impl], g_ref[f][0], sizeof(g_src)) != 0) {
                printf("FAIL: %s [impl %d] %s\n", mj_filter_id((mj_filter)f), impl, err);
                failed++;
            }
        }
    }
    for (t = 0; t < THREADS; t++) {
        jobs[t].id = 1;
        jobs[t].failures = 0;
        if (pthread_create(&th[t], NULL, worker, &jobs[t]) != 0) {
            printf("FAIL: pthread_create\n");
            return 1;
        }
    }
    for (t = 0; t < THREADS; t++) {
        pthread_join(th[t], NULL);
        if (jobs[t].failures == 0)
            passed++;
        else {
            printf("FAIL: thread %d: %d mismatches\n", t, jobs[t].failures);
            failed++;
        }
    }
    printf("so_smoke: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
