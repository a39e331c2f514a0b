/*
 * ipc - same-host IPC between two processes, the C side of issue 20's experiment 1 (Smith & Wells' question).
 *
 *   ipc --mechs tcp,uds,fifo,shm --patterns oneway,roundtrip --sizes 40,400,4000,40000,1048576
 *       --warmup W --runs R --budget BYTES --min N --max N --fork K --dir DIR [--pin] [--timeout S]
 *
 * For every mechanism, pattern and size the parent (the client) sets up the endpoint, fork()s the server, and
 * times W + R runs of N messages, N = clamp(BUDGET / size, MIN, MAX) (the Java side uses the same formula):
 *   oneway     the client streams N messages, the server reads them all and answers one byte at the end;
 *   roundtrip  the client sends one message, the server echoes it, N times.
 * Mechanisms: tcp (127.0.0.1, TCP_NODELAY), uds (Unix domain stream socket in DIR), fifo (two named pipes in
 * DIR: client to server and back), shm (a POSIX shared-memory object, shm_open + mmap; the wake-up is one
 * doorbell byte per message through the two FIFOs, as the Java side must do: no spinning, no futex). Every
 * message carries its sequence number in its first 8 bytes, checked by the receiver.
 * One CSV line per measured run on stdout: c,<mech>,<pattern>,<size>,<fork>,<run>,<messages>,<seconds>.
 * --pin puts the client on CPU 0 and the server on CPU 1. An alarm (--timeout, default 600 s) ends the
 * program if anything hangs; exit 1 on any error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SHM_RING_BYTES (4u << 20)
#define SHM_MAX_SLOTS 1024u

static const char *dir = "/tmp";
static int pin = 0;
static unsigned timeout = 600;

static void die(const char *what)
{
    fprintf(stderr, "ipc: %s: %s\n", what, strerror(errno));
    exit(1);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void pin_to(int cpu)
{
    cpu_set_t set;
    if (!pin)
        return;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof(set), &set) != 0)
        die("sched_setaffinity");
}

static void write_all(int fd, const void *buf, size_t len)
{
    const char *p = (const char *)buf;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            die("write");
        }
        p += n;
        len -= (size_t)n;
    }
}

static void read_all(int fd, void *buf, size_t len)
{
    char *p = (char *)buf;
    while (len > 0) {
        ssize_t n = read(fd, p, len);
        if (n == 0) {
            fprintf(stderr, "ipc: peer closed early\n");
            exit(1);
        }
        if (n < 0) {
            if (errno == EINTR)
                continue;
            die("read");
        }
        p += n;
        len -= (size_t)n;
    }
}

/* Reads at least one byte (up to max) from fd: doorbells and credits arrive in batches. */
static size_t read_some(int fd, char *buf, size_t max)
{
    for (;;) {
        ssize_t n = read(fd, buf, max);
        if (n > 0)
            return (size_t)n;
        if (n == 0) {
            fprintf(stderr, "ipc: peer closed early\n");
            exit(1);
        }
        if (errno != EINTR)
            die("read");
    }
}

static void stamp(char *msg, uint64_t seq)
{
    memcpy(msg, &seq, sizeof(seq));
}

static void check(const char *msg, uint64_t seq)
{
    uint64_t got;
    memcpy(&got, msg, sizeof(got));
    if (got != seq) {
        fprintf(stderr, "ipc: message %llu arrived as %llu\n", (unsigned long long)seq, (unsigned long long)got);
        exit(1);
    }
}

/* The endpoints of one case: a stream (rfd/wfd; the same socket for tcp and uds) or shared memory + doorbells. */
typedef struct {
    int rfd, wfd;
    char *shm;
    size_t slots;
} endpoint;

static size_t slots_for(size_t size)
{
    size_t k = SHM_RING_BYTES / size;
    return k < 1 ? 1 : k > SHM_MAX_SLOTS ? SHM_MAX_SLOTS : k;
}

/* ---- the two sides of a run ------------------------------------------------------------------------------- */

static void client_run(const char *mech, int roundtrip, endpoint *l, char *msg, char *in, size_t size, long n)
{
    char bells[SHM_MAX_SLOTS];
    int shm = strcmp(mech, "shm") == 0;
    if (!shm) {
        for (long i = 0; i < n; i++) {
            stamp(msg, (uint64_t)i);
            write_all(l->wfd, msg, size);
            if (roundtrip) {
                read_all(l->rfd, in, size);
                check(in, (uint64_t)i);
            }
        }
        if (!roundtrip)
            read_all(l->rfd, bells, 1);
        return;
    }
    if (roundtrip) {
        for (long i = 0; i < n; i++) {
            stamp(msg, (uint64_t)i);
            memcpy(l->shm, msg, size);
            write_all(l->wfd, "m", 1);
            read_some(l->rfd, bells, 1);
            memcpy(in, l->shm + size, size);
            check(in, (uint64_t)i);
        }
        return;
    }
    size_t credits = l->slots;
    for (long i = 0; i < n; i++) {
        if (credits == 0)
            credits += read_some(l->rfd, bells, sizeof(bells));
        stamp(msg, (uint64_t)i);
        memcpy(l->shm + (size_t)(i % (long)l->slots) * size, msg, size);
        write_all(l->wfd, "m", 1);
        credits--;
    }
    while (credits < l->slots) /* every slot given back: the server has read every message */
        credits += read_some(l->rfd, bells, sizeof(bells));
}

static void server_run(const char *mech, int roundtrip, endpoint *l, char *in, size_t size, long n)
{
    char bells[SHM_MAX_SLOTS];
    int shm = strcmp(mech, "shm") == 0;
    if (!shm) {
        for (long i = 0; i < n; i++) {
            read_all(l->rfd, in, size);
            check(in, (uint64_t)i);
            if (roundtrip)
                write_all(l->wfd, in, size);
        }
        if (!roundtrip)
            write_all(l->wfd, "a", 1);
        return;
    }
    if (roundtrip) {
        for (long i = 0; i < n; i++) {
            read_some(l->rfd, bells, 1);
            memcpy(in, l->shm, size);
            check(in, (uint64_t)i);
            memcpy(l->shm + size, in, size);
            write_all(l->wfd, "r", 1);
        }
        return;
    }
    long i = 0;
    while (i < n) {
        size_t rung = read_some(l->rfd, bells, sizeof(bells));
        for (size_t b = 0; b < rung; b++, i++) {
            memcpy(in, l->shm + (size_t)(i % (long)l->slots) * size, size);
            check(in, (uint64_t)i);
        }
        write_all(l->wfd, bells, rung); /* one credit per message read */
    }
}

/* ---- one case: endpoints, fork, runs ----------------------------------------------------------------------- */

static void path_in_dir(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/%s-%ld", dir, name, (long)getpid());
}

static void run_case(const char *mech, const char *pattern, size_t size, long n, int warmup, int runs, int fork_no)
{
    int roundtrip = strcmp(pattern, "roundtrip") == 0;
    char c2s[512], s2c[512], sock[108], shm_name[64];
    int listen_fd = -1;
    size_t shm_bytes = 0;
    endpoint l = {-1, -1, NULL, 0};
    struct sockaddr_in in4;
    struct sockaddr_un un;
    int one = 1;

    c2s[0] = s2c[0] = sock[0] = shm_name[0] = 0;
    if (strcmp(mech, "tcp") == 0) {
        socklen_t len = sizeof(in4);
        memset(&in4, 0, sizeof(in4));
        in4.sin_family = AF_INET;
        in4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        listen_fd = socket(AF_INET, SOCK_STREAM, 0);
        if (listen_fd < 0 || bind(listen_fd, (struct sockaddr *)&in4, sizeof(in4)) < 0 || listen(listen_fd, 1) < 0
            || getsockname(listen_fd, (struct sockaddr *)&in4, &len) < 0)
            die("tcp listen");
    } else if (strcmp(mech, "uds") == 0) {
        memset(&un, 0, sizeof(un));
        un.sun_family = AF_UNIX;
        path_in_dir(sock, sizeof(sock), "ipc.sock");
        snprintf(un.sun_path, sizeof(un.sun_path), "%s", sock);
        unlink(sock);
        listen_fd = socket(AF_UNIX, SOCK_STREAM, 0);
        if (listen_fd < 0 || bind(listen_fd, (struct sockaddr *)&un, sizeof(un)) < 0 || listen(listen_fd, 1) < 0)
            die("uds listen");
    } else if (strcmp(mech, "fifo") == 0 || strcmp(mech, "shm") == 0) {
        path_in_dir(c2s, sizeof(c2s), "ipc-c2s");
        path_in_dir(s2c, sizeof(s2c), "ipc-s2c");
        unlink(c2s);
        unlink(s2c);
        if (mkfifo(c2s, 0600) != 0 || mkfifo(s2c, 0600) != 0)
            die("mkfifo");
        if (strcmp(mech, "shm") == 0) {
            l.slots = slots_for(size);
            shm_bytes = (l.slots > 2 ? l.slots : 2) * size;
            snprintf(shm_name, sizeof(shm_name), "/medjava-ipc-%ld", (long)getpid());
            int fd = shm_open(shm_name, O_CREAT | O_EXCL | O_RDWR, 0600);
            if (fd < 0 || ftruncate(fd, (off_t)shm_bytes) != 0)
                die("shm_open");
            l.shm = mmap(NULL, shm_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
            if (l.shm == MAP_FAILED)
                die("mmap");
            close(fd);
        }
    } else {
        fprintf(stderr, "ipc: unknown mechanism %s\n", mech);
        exit(2);
    }

    char *msg = malloc(size), *in = malloc(size);
    if (msg == NULL || in == NULL)
        die("malloc");
    memset(msg, 'x', size);
    fflush(stdout);
    pid_t child = fork();
    if (child < 0)
        die("fork");
    if (child == 0) { /* the server */
        alarm(timeout);
        pin_to(1);
        if (listen_fd >= 0) {
            close(listen_fd);
            int fd = socket(sock[0] ? AF_UNIX : AF_INET, SOCK_STREAM, 0);
            if (fd < 0 || connect(fd, sock[0] ? (struct sockaddr *)&un : (struct sockaddr *)&in4,
                                  sock[0] ? sizeof(un) : sizeof(in4)) != 0)
                die("connect");
            if (!sock[0])
                setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
            l.rfd = l.wfd = fd;
        } else {
            if ((l.rfd = open(c2s, O_RDONLY)) < 0 || (l.wfd = open(s2c, O_WRONLY)) < 0)
                die("open fifo (server)");
        }
        for (int r = 0; r < warmup + runs; r++)
            server_run(mech, roundtrip, &l, in, size, n);
        _exit(0);
    }
    pin_to(0);
    if (listen_fd >= 0) {
        int fd = accept(listen_fd, NULL, NULL);
        if (fd < 0)
            die("accept");
        if (!sock[0])
            setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
        l.rfd = l.wfd = fd;
        close(listen_fd);
    } else {
        if ((l.wfd = open(c2s, O_WRONLY)) < 0 || (l.rfd = open(s2c, O_RDONLY)) < 0)
            die("open fifo (client)");
    }
    for (int r = 0; r < warmup + runs; r++) {
        double t0 = now();
        client_run(mech, roundtrip, &l, msg, in, size, n);
        double t = now() - t0;
        if (r >= warmup)
            printf("c,%s,%s,%zu,%d,%d,%ld,%.9f\n", mech, pattern, size, fork_no, r - warmup, n, t);
    }
    fflush(stdout);
    int status;
    if (waitpid(child, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "ipc: server of %s %s %zu failed\n", mech, pattern, size);
        exit(1);
    }
    close(l.rfd);
    if (l.wfd != l.rfd)
        close(l.wfd);
    if (l.shm != NULL) {
        munmap(l.shm, shm_bytes);
        shm_unlink(shm_name);
    }
    if (sock[0])
        unlink(sock);
    if (c2s[0]) {
        unlink(c2s);
        unlink(s2c);
    }
    free(msg);
    free(in);
}

/* ---- arguments ---------------------------------------------------------------------------------------------- */

static int split(char *list, char **out, int max)
{
    int n = 0;
    for (char *t = strtok(list, ","); t != NULL && n < max; t = strtok(NULL, ","))
        out[n++] = t;
    return n;
}

int main(int argc, char **argv)
{
    char mechs_arg[256] = "tcp,uds,fifo,shm", patterns_arg[64] = "oneway,roundtrip",
         sizes_arg[256] = "40,400,4000,40000,1048576";
    int warmup = 1, runs = 3, fork_no = 0;
    long long budget = 16LL << 20, min = 50, max = 10000;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--pin") == 0) {
            pin = 1;
            continue;
        }
        if (v == NULL) {
            fprintf(stderr, "ipc: %s needs a value\n", a);
            return 2;
        }
        i++;
        if (strcmp(a, "--mechs") == 0) snprintf(mechs_arg, sizeof(mechs_arg), "%s", v);
        else if (strcmp(a, "--patterns") == 0) snprintf(patterns_arg, sizeof(patterns_arg), "%s", v);
        else if (strcmp(a, "--sizes") == 0) snprintf(sizes_arg, sizeof(sizes_arg), "%s", v);
        else if (strcmp(a, "--warmup") == 0) warmup = atoi(v);
        else if (strcmp(a, "--runs") == 0) runs = atoi(v);
        else if (strcmp(a, "--budget") == 0) budget = atoll(v);
        else if (strcmp(a, "--min") == 0) min = atoll(v);
        else if (strcmp(a, "--max") == 0) max = atoll(v);
        else if (strcmp(a, "--fork") == 0) fork_no = atoi(v);
        else if (strcmp(a, "--dir") == 0) dir = v;
        else if (strcmp(a, "--timeout") == 0) timeout = (unsigned)atoi(v);
        else {
            fprintf(stderr, "ipc: unknown argument %s\n", a);
            return 2;
        }
    }
    alarm(timeout); /* a fork()ed server does not inherit it: it sets its own */
    signal(SIGPIPE, SIG_IGN);
    char *mechs[8], *patterns[4], *sizes[16];
    int nm = split(mechs_arg, mechs, 8), np = split(patterns_arg, patterns, 4), ns = split(sizes_arg, sizes, 16);
    for (int m = 0; m < nm; m++)
        for (int p = 0; p < np; p++)
            for (int s = 0; s < ns; s++) {
                size_t size = (size_t)atoll(sizes[s]);
                if (size < 8) {
                    fprintf(stderr, "ipc: sizes below 8 bytes cannot carry the sequence number\n");
                    return 2;
                }
                long long n = budget / (long long)size;
                n = n < min ? min : n > max ? max : n;
                run_case(mechs[m], patterns[p], size, (long)n, warmup, runs, fork_no);
            }
    return 0;
}
