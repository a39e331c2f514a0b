/*
 * transport - loopback TCP throughput of plain C sockets, the C side of the paper's Figure 17.
 *
 *   transport --buffers 1024,8192,... [--total BYTES] [--repeat N] [--receive-buffer BYTES]
 *   transport --stdin [--receive-buffer BYTES]
 *
 * For every sender buffer size and repetition: a receiver thread accepts one connection on
 * 127.0.0.1 (ephemeral port) and reads until EOF with a fixed receive buffer; the main thread
 * connects and write()s --total bytes in chunks of the buffer size, then closes. The time runs
 * from connect() to the receiver seeing EOF. One CSV line per measurement on stdout:
 *   c-sockets,<buffer bytes>,<repetition>,<bytes received>,<seconds>
 * Repetition 0 is a warm-up (the Java side does the same). With --stdin it reads lines
 * "BUFFER TOTAL REP" and answers each with one such line (flushed), so a driver can interleave
 * C and Java transfers and give both the same machine conditions. Exit 1 on any socket error.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    int listen_fd;
    size_t buffer;
    long long received;
    int failed;
} receiver;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what)
{
    fprintf(stderr, "transport: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void *receive_all(void *arg)
{
    receiver *r = (receiver *)arg;
    char *buf = (char *)malloc(r->buffer);
    int fd = accept(r->listen_fd, NULL, NULL);
    if (fd < 0 || buf == NULL) {
        r->failed = 1;
        free(buf);
        return NULL;
    }
    for (;;) {
        ssize_t n = read(fd, buf, r->buffer);
        if (n == 0)
            break;
        if (n < 0) {
            if (errno == EINTR)
                continue;
            r->failed = 1;
            break;
        }
        r->received += n;
    }
    close(fd);
    free(buf);
    return NULL;
}

static void send_all(int fd, const char *buf, size_t chunk, long long total)
{
    long long sent = 0;
    while (sent < total) {
        size_t want = total - sent < (long long)chunk ? (size_t)(total - sent) : chunk;
        size_t off = 0;
        while (off < want) { /* a blocking write may still be partial */
            ssize_t n = write(fd, buf + off, want - off);
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                die("write");
            }
            off += (size_t)n;
        }
        sent += (long long)want;
    }
}

/* One transfer of total bytes in chunk-sized writes; returns seconds, stores bytes received. */
static double transfer(size_t chunk, long long total, size_t receive_buffer, long long *received)
{
    struct sockaddr_in addr;
    socklen_t len = sizeof(addr);
    pthread_t thread;
    receiver r;
    char *buf;
    double t0, t;
    int fd, one = 1;

    memset(&addr, 0, sizeof(addr));
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    r.listen_fd = socket(AF_INET, SOCK_STREAM, 0);
    if (r.listen_fd < 0)
        die("socket");
    setsockopt(r.listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (bind(r.listen_fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 || listen(r.listen_fd, 1) < 0
        || getsockname(r.listen_fd, (struct sockaddr *)&addr, &len) < 0)
        die("bind/listen");
    r.buffer = receive_buffer;
    r.received = 0;
    r.failed = 0;
    if (pthread_create(&thread, NULL, receive_all, &r) != 0)
        die("pthread_create");

    buf = (char *)malloc(chunk);
    if (buf == NULL)
        die("malloc");
    memset(buf, 0x5a, chunk);
    fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        die("socket");
    t0 = now();
    if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0)
        die("connect");
    send_all(fd, buf, chunk, total);
    close(fd);
    pthread_join(thread, NULL);
    t = now() - t0;
    close(r.listen_fd);
    free(buf);
    if (r.failed) {
        fprintf(stderr, "transport: receiver failed\n");
        exit(1);
    }
    *received = r.received;
    return t;
}

int main(int argc, char **argv)
{
    const char *buffers = NULL;
    int from_stdin = 0;
    long long total = 256LL << 20;
    size_t receive_buffer = 64 << 10;
    int repeat = 5, i;
    char *list, *tok, *save = NULL;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--buffers") == 0 && i + 1 < argc)
            buffers = argv[++i];
        else if (strcmp(argv[i], "--stdin") == 0)
            from_stdin = 1;
        else if (strcmp(argv[i], "--total") == 0 && i + 1 < argc)
            total = atoll(argv[++i]);
        else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else if (strcmp(argv[i], "--receive-buffer") == 0 && i + 1 < argc)
            receive_buffer = (size_t)atol(argv[++i]);
        else {
            fprintf(stderr, "usage: transport --buffers B1,B2,... [--total BYTES] [--repeat N] "
                            "[--receive-buffer BYTES] | --stdin [--receive-buffer BYTES]\n");
            return 2;
        }
    }
    if (from_stdin && receive_buffer >= 1) {
        long chunk;
        long long bytes;
        int rep;
        while (scanf("%ld %lld %d", &chunk, &bytes, &rep) == 3) {
            long long received = 0;
            double t;
            if (chunk < 1 || bytes < 1) {
                fprintf(stderr, "transport: bad request %ld %lld\n", chunk, bytes);
                return 2;
            }
            t = transfer((size_t)chunk, bytes, receive_buffer, &received);
            printf("c-sockets,%ld,%d,%lld,%.9f\n", chunk, rep, received, t);
            fflush(stdout);
        }
        return 0;
    }
    if (buffers == NULL || total < 1 || repeat < 1 || receive_buffer < 1) {
        fprintf(stderr, "transport: --buffers is required; --total, --repeat, --receive-buffer must be positive\n");
        return 2;
    }
    list = strdup(buffers);
    for (tok = strtok_r(list, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
        long chunk = atol(tok);
        int rep;
        if (chunk < 1) {
            fprintf(stderr, "transport: bad buffer size '%s'\n", tok);
            return 2;
        }
        for (rep = 0; rep <= repeat; rep++) {
            long long received = 0;
            double t = transfer((size_t)chunk, total, receive_buffer, &received);
            printf("c-sockets,%ld,%d,%lld,%.9f\n", chunk, rep, received, t);
            fflush(stdout);
        }
    }
    free(list);
    return 0;
}
