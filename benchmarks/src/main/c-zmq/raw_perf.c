/*
 * raw_perf - the raw-socket baseline beside ØMQ: the same four roles and message pattern as zmq_perf, on a plain
 * stream socket, with no framing (both ends know the size from the plan).
 *
 *   raw_perf local_lat|remote_lat|local_thr|remote_thr tcp://127.0.0.1:PORT|ipc:///PATH PLAN TIMEOUT_SECONDS
 *
 * tcp:// is TCP on the loopback (TCP_NODELAY on both ends, as ØMQ sets it); ipc:// a Unix domain stream socket.
 * Latency: the remote end write()s a message and read()s the echo in full. Throughput: the remote end write()s each
 * message with its own call, the local end read()s each message in full (one call per message while the data is
 * there: the per-message pattern of ØMQ's recv, without its batching) and times from its first measured message to
 * the last. The local end takes port 0 as "any free port" and prints the
 * endpoint it got. See perf_common.h for the plan and the output.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "perf_common.h"

static void die(const char *what)
{
    fprintf(stderr, "raw_perf: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void write_all(int fd, const char *buf, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, buf, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            die("write");
        }
        buf += w;
        n -= (size_t)w;
    }
}

static void read_exact(int fd, char *buf, size_t n)
{
    while (n > 0) {
        ssize_t r = read(fd, buf, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            fprintf(stderr, "raw_perf: connection closed early\n");
            exit(1);
        }
        buf += r;
        n -= (size_t)r;
    }
}

/* The socket address of ENDPOINT; the family goes to *family. */
static socklen_t address(const char *endpoint, struct sockaddr_storage *addr, int *family)
{
    memset(addr, 0, sizeof(*addr));
    if (strncmp(endpoint, "tcp://127.0.0.1:", 16) == 0) {
        struct sockaddr_in *in = (struct sockaddr_in *)addr;
        in->sin_family = AF_INET;
        in->sin_port = htons((unsigned short)atoi(endpoint + 16));
        in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        *family = AF_INET;
        return sizeof(*in);
    }
    if (strncmp(endpoint, "ipc://", 6) == 0 && strlen(endpoint + 6) < sizeof(((struct sockaddr_un *)0)->sun_path)) {
        struct sockaddr_un *un = (struct sockaddr_un *)addr;
        un->sun_family = AF_UNIX;
        strcpy(un->sun_path, endpoint + 6);
        *family = AF_UNIX;
        return sizeof(*un);
    }
    fprintf(stderr, "raw_perf: endpoint must be tcp://127.0.0.1:PORT or ipc:///PATH, got %s\n", endpoint);
    exit(2);
}

static int open_local(const char *endpoint)
{
    struct sockaddr_storage addr;
    int family;
    int one = 1;
    socklen_t len = address(endpoint, &addr, &family);
    int lfd = socket(family, SOCK_STREAM, 0);
    int fd;
    if (lfd < 0)
        die("socket");
    if (family == AF_UNIX)
        unlink(((struct sockaddr_un *)&addr)->sun_path);
    else
        setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (bind(lfd, (struct sockaddr *)&addr, len) != 0 || listen(lfd, 1) != 0)
        die("bind");
    if (family == AF_INET) {
        struct sockaddr_in bound;
        socklen_t blen = sizeof(bound);
        getsockname(lfd, (struct sockaddr *)&bound, &blen);
        printf("ready tcp://127.0.0.1:%d\n", ntohs(bound.sin_port));
    } else {
        printf("ready %s\n", endpoint);
    }
    fflush(stdout);
    fd = accept(lfd, NULL, NULL);
    if (fd < 0)
        die("accept");
    close(lfd);
    if (family == AF_UNIX)
        unlink(((struct sockaddr_un *)&addr)->sun_path);
    else
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    return fd;
}

/* Connects, retrying for up to 10 s while the local end is not listening yet. */
static int open_remote(const char *endpoint)
{
    struct sockaddr_storage addr;
    int family;
    int one = 1;
    int tries;
    socklen_t len = address(endpoint, &addr, &family);
    for (tries = 0; tries < 1000; tries++) {
        int fd = socket(family, SOCK_STREAM, 0);
        if (fd < 0)
            die("socket");
        if (connect(fd, (struct sockaddr *)&addr, len) == 0) {
            if (family == AF_INET)
                setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
            return fd;
        }
        close(fd);
        {
            struct timespec pause = {0, 10000000L};
            nanosleep(&pause, NULL);
        }
    }
    die("connect");
    return -1;
}

int main(int argc, char **argv)
{
    perf_plan plan;
    int local;
    int lat;
    int fd;
    int i;
    char *buf;
    if (argc != 5) {
        fprintf(stderr, "usage: raw_perf local_lat|remote_lat|local_thr|remote_thr ENDPOINT PLAN TIMEOUT\n");
        return 2;
    }
    local = strncmp(argv[1], "local_", 6) == 0;
    lat = strstr(argv[1], "_lat") != NULL;
    perf_parse_plan(argv[3], &plan);
    alarm((unsigned)atoi(argv[4]));
    fd = local ? open_local(argv[2]) : open_remote(argv[2]);
    buf = (char *)malloc((size_t)plan.max_size);
    if (buf == NULL)
        die("malloc");
    memset(buf, 'm', (size_t)plan.max_size);
    for (i = 0; i < plan.n; i++) {
        perf_step st = plan.steps[i];
        long total = st.warmup + st.count;
        long k;
        if (lat && local) {
            for (k = 0; k < total; k++) {
                read_exact(fd, buf, (size_t)st.size);
                write_all(fd, buf, (size_t)st.size);
            }
        } else if (lat) {
            double start = 0;
            for (k = 0; k < total; k++) {
                if (k == st.warmup)
                    start = perf_now();
                write_all(fd, buf, (size_t)st.size);
                read_exact(fd, buf, (size_t)st.size);
            }
            perf_result("lat", st.size, st.count, perf_now() - start);
        } else if (local) {
            double start = 0;
            for (k = 0; k < total; k++) {
                read_exact(fd, buf, (size_t)st.size);
                if (k == st.warmup)
                    start = perf_now();
            }
            perf_result("thr", st.size, st.count, perf_now() - start);
        } else {
            for (k = 0; k < total; k++)
                write_all(fd, buf, (size_t)st.size);
        }
    }
    close(fd);
    free(buf);
    return 0;
}
