/*
 * zmq_perf - libzmq's local_lat/remote_lat and local_thr/remote_thr in one program, over every size of a plan.
 *
 *   zmq_perf local_lat|remote_lat|local_thr|remote_thr ENDPOINT PLAN TIMEOUT_SECONDS
 *   zmq_perf version        prints libzmq's version
 *
 * As ØMQ's perf tools: latency with REQ (remote, connects) against REP (local, binds), measured by the remote end;
 * throughput with PUSH (remote) into PULL (local), measured by the receiving local end from its first message to
 * its last (messages ÷ that time, ØMQ's formula). Default socket options (high-water marks 1000), one I/O thread.
 * A local end binding "tcp://127.0.0.1:0" takes an ephemeral port and prints the endpoint it got.
 * See perf_common.h for the plan and the output.
 */
#define _POSIX_C_SOURCE 200809L
#include <string.h>
#include <unistd.h>
#include <zmq.h>

#include "perf_common.h"

static void die(const char *what)
{
    fprintf(stderr, "zmq_perf: %s: %s\n", what, zmq_strerror(zmq_errno()));
    exit(1);
}

static void recv_exact(void *s, zmq_msg_t *msg, long size)
{
    if (zmq_msg_recv(msg, s, 0) < 0)
        die("zmq_msg_recv");
    if ((long)zmq_msg_size(msg) != size) {
        fprintf(stderr, "zmq_perf: message of %zu bytes, expected %ld\n", zmq_msg_size(msg), size);
        exit(1);
    }
}

static void send_size(void *s, long size)
{
    zmq_msg_t msg;
    if (zmq_msg_init_size(&msg, (size_t)size) != 0)
        die("zmq_msg_init_size");
    memset(zmq_msg_data(&msg), 'm', (size_t)size);
    if (zmq_msg_send(&msg, s, 0) < 0)
        die("zmq_msg_send");
}

int main(int argc, char **argv)
{
    perf_plan plan;
    void *ctx;
    void *s;
    int local;
    int lat;
    int i;
    char endpoint[1024];
    if (argc == 2 && strcmp(argv[1], "version") == 0) {
        int major, minor, patch;
        zmq_version(&major, &minor, &patch);
        printf("%d.%d.%d\n", major, minor, patch);
        return 0;
    }
    if (argc != 5) {
        fprintf(stderr, "usage: zmq_perf version | zmq_perf local_lat|remote_lat|local_thr|remote_thr ENDPOINT PLAN TIMEOUT\n");
        return 2;
    }
    local = strncmp(argv[1], "local_", 6) == 0;
    lat = strstr(argv[1], "_lat") != NULL;
    perf_parse_plan(argv[3], &plan);
    alarm((unsigned)atoi(argv[4]));
    ctx = zmq_ctx_new();
    if (ctx == NULL)
        die("zmq_ctx_new");
    s = zmq_socket(ctx, lat ? (local ? ZMQ_REP : ZMQ_REQ) : (local ? ZMQ_PULL : ZMQ_PUSH));
    if (s == NULL)
        die("zmq_socket");
    if (local) {
        size_t len = sizeof(endpoint);
        const char *bind_to = strcmp(argv[2], "tcp://127.0.0.1:0") == 0 ? "tcp://127.0.0.1:*" : argv[2];
        if (zmq_bind(s, bind_to) != 0)
            die("zmq_bind");
        if (zmq_getsockopt(s, ZMQ_LAST_ENDPOINT, endpoint, &len) != 0)
            die("ZMQ_LAST_ENDPOINT");
        printf("ready %s\n", endpoint);
        fflush(stdout);
    } else if (zmq_connect(s, argv[2]) != 0) {
        die("zmq_connect");
    }
    for (i = 0; i < plan.n; i++) {
        perf_step st = plan.steps[i];
        long total = st.warmup + st.count;
        long k;
        zmq_msg_t msg;
        zmq_msg_init(&msg);
        if (lat && local) {
            for (k = 0; k < total; k++) {
                recv_exact(s, &msg, st.size);
                if (zmq_msg_send(&msg, s, 0) < 0) /* echoes the very message */
                    die("zmq_msg_send");
            }
        } else if (lat) {
            double start = 0;
            for (k = 0; k < total; k++) {
                if (k == st.warmup)
                    start = perf_now();
                send_size(s, st.size);
                recv_exact(s, &msg, st.size);
            }
            perf_result("lat", st.size, st.count, perf_now() - start);
        } else if (local) {
            double start = 0;
            for (k = 0; k < total; k++) {
                recv_exact(s, &msg, st.size);
                if (k == st.warmup)
                    start = perf_now();
            }
            perf_result("thr", st.size, st.count, perf_now() - start);
        } else {
            for (k = 0; k < total; k++)
                send_size(s, st.size);
        }
        zmq_msg_close(&msg);
    }
    zmq_close(s); /* linger: the default waits until queued messages are sent */
    zmq_ctx_term(ctx);
    return 0;
}
