/*
 * Shared by zmq_perf.c and raw_perf.c: the plan of message sizes, the clock, the output lines.
 *
 * Both programs follow ØMQ's perf tools (local_lat/remote_lat, local_thr/remote_thr) but run every message size of
 * the plan over one connection, so a size costs no process start-up. The plan is "SIZE:WARMUP:COUNT,..." and both
 * ends get the same one. Output on stdout, one line each, flushed:
 *   ready ENDPOINT                     the local end is bound (the driver starts the remote end then)
 *   result lat SIZE COUNT SECONDS      remote_lat: COUNT round trips of SIZE-byte messages took SECONDS
 *   result thr SIZE COUNT SECONDS      local_thr: COUNT messages, from the first received to the last
 * Every program ends by itself: the plan is finite, and alarm(TIMEOUT) ends a stuck one.
 */
#ifndef PERF_COMMON_H
#define PERF_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PERF_MAX_SIZES 32

typedef struct {
    long size;
    long warmup;
    long count;
} perf_step;

typedef struct {
    int n;
    perf_step steps[PERF_MAX_SIZES];
    long max_size;
} perf_plan;

static double perf_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Parses "SIZE:WARMUP:COUNT,..."; exits with a message on a malformed plan. */
static void perf_parse_plan(const char *text, perf_plan *plan)
{
    const char *p = text;
    plan->n = 0;
    plan->max_size = 0;
    while (*p) {
        perf_step s;
        int used = 0;
        if (plan->n == PERF_MAX_SIZES || sscanf(p, "%ld:%ld:%ld%n", &s.size, &s.warmup, &s.count, &used) != 3
            || s.size < 1 || s.warmup < 0 || s.count < 1) {
            fprintf(stderr, "bad plan '%s' (SIZE:WARMUP:COUNT,...)\n", text);
            exit(2);
        }
        plan->steps[plan->n++] = s;
        if (s.size > plan->max_size)
            plan->max_size = s.size;
        p += used;
        if (*p == ',')
            p++;
        else if (*p) {
            fprintf(stderr, "bad plan '%s' (SIZE:WARMUP:COUNT,...)\n", text);
            exit(2);
        }
    }
    if (plan->n == 0) {
        fprintf(stderr, "empty plan\n");
        exit(2);
    }
}

static void perf_result(const char *test, long size, long count, double seconds)
{
    printf("result %s %ld %ld %.9f\n", test, size, count, seconds);
    fflush(stdout);
}

#endif
