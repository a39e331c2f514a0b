/*
 * blocks - the building blocks of Apvrille et al.'s user-level transport, timed separately (issue 20, experiment 3):
 *   copy-memcpy  copy one 1,024-byte block 10,000 times with memcpy (Java: System.arraycopy)
 *   copy-loop    the same with a byte loop (what a 1999 JVM ran; the compiler may turn it into memcpy)
 *   crc16        CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, not reflected, no final xor; check value of
 *                "123456789" is 0x29B1, verified at start) over 50 packets of 1,024 bytes, table-driven
 *   udp          send 100,000 datagrams of 1,024 bytes to a receiver thread over 127.0.0.1; the time runs from
 *                the first send to the last datagram received; the receiver stops after 200 ms of silence,
 *                lost datagrams are counted
 *
 *   blocks --label O2 --fork K --warmup-seconds S --runs R [--datagrams N] [--timeout S]
 *
 * Each block is warmed up for S seconds (at least one run), then timed R times. One CSV line per measured run:
 *   c-<label>,<block>,<fork>,<run>,<seconds>,<lost>
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BLOCK 1024
#define COPIES 10000
#define PACKETS 50

static volatile uint32_t sink; /* results go here so no block is optimized away */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what)
{
    fprintf(stderr, "blocks: %s: %s\n", what, strerror(errno));
    exit(1);
}

static unsigned char src[BLOCK], dst[BLOCK];
static unsigned char packets[PACKETS][BLOCK];
static uint16_t table[256];

static void copy_memcpy(void)
{
    for (int i = 0; i < COPIES; i++) {
        src[i & (BLOCK - 1)] = (unsigned char)i; /* a changed source each time: the copy cannot be hoisted */
        memcpy(dst, src, BLOCK);
    }
    sink += dst[7];
}

static void copy_loop(void)
{
    for (int i = 0; i < COPIES; i++) {
        src[i & (BLOCK - 1)] = (unsigned char)i;
        for (int k = 0; k < BLOCK; k++)
            dst[k] = src[k];
    }
    sink += dst[7];
}

static void crc_table(void)
{
    for (int i = 0; i < 256; i++) {
        uint16_t c = (uint16_t)(i << 8);
        for (int b = 0; b < 8; b++)
            c = (uint16_t)((c & 0x8000) ? (c << 1) ^ 0x1021 : c << 1);
        table[i] = c;
    }
}

static uint16_t crc16(const unsigned char *p, size_t n)
{
    uint16_t crc = 0xFFFF;
    for (size_t i = 0; i < n; i++)
        crc = (uint16_t)((crc << 8) ^ table[((crc >> 8) ^ p[i]) & 0xFF]);
    return crc;
}

static void crc_packets(void)
{
    uint32_t all = 0;
    for (int p = 0; p < PACKETS; p++)
        all += crc16(packets[p], BLOCK);
    sink += all;
}

typedef struct {
    int fd;
    long expected, received;
    double last;
} receiver;

static void *receive(void *arg)
{
    receiver *r = (receiver *)arg;
    unsigned char buf[BLOCK];
    while (r->received < r->expected) {
        ssize_t n = recv(r->fd, buf, sizeof(buf), 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            break; /* EAGAIN: 200 ms of silence, the rest was lost */
        }
        r->received++;
        r->last = now();
    }
    return NULL;
}

static double udp(long datagrams, long *lost)
{
    struct sockaddr_in addr;
    socklen_t len = sizeof(addr);
    struct timeval quiet = {0, 200000};
    int rcvbuf = 4 << 20;
    receiver r;
    pthread_t thread;
    unsigned char buf[BLOCK];

    memset(&addr, 0, sizeof(addr));
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    r.fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (r.fd < 0)
        die("socket");
    setsockopt(r.fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
    setsockopt(r.fd, SOL_SOCKET, SO_RCVTIMEO, &quiet, sizeof(quiet));
    if (bind(r.fd, (struct sockaddr *)&addr, sizeof(addr)) < 0
        || getsockname(r.fd, (struct sockaddr *)&addr, &len) < 0)
        die("bind");
    int out = socket(AF_INET, SOCK_DGRAM, 0);
    if (out < 0 || connect(out, (struct sockaddr *)&addr, sizeof(addr)) < 0)
        die("connect");
    r.expected = datagrams;
    r.received = 0;
    memset(buf, 'u', sizeof(buf));
    double t0 = now();
    r.last = t0;
    if (pthread_create(&thread, NULL, receive, &r) != 0)
        die("pthread_create");
    for (long i = 0; i < datagrams; i++) {
        buf[0] = (unsigned char)i;
        if (send(out, buf, sizeof(buf), 0) < 0 && errno != ENOBUFS && errno != EAGAIN)
            die("send");
    }
    pthread_join(thread, NULL);
    close(out);
    close(r.fd);
    *lost = datagrams - r.received;
    return r.last - t0;
}

int main(int argc, char **argv)
{
    const char *label = "O2";
    int fork_no = 0, runs = 5, timeout = 600;
    double warmup = 0.5;
    long datagrams = 100000;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--label") == 0) label = argv[i + 1];
        else if (strcmp(argv[i], "--fork") == 0) fork_no = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--runs") == 0) runs = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--warmup-seconds") == 0) warmup = atof(argv[i + 1]);
        else if (strcmp(argv[i], "--datagrams") == 0) datagrams = atol(argv[i + 1]);
        else if (strcmp(argv[i], "--timeout") == 0) timeout = atoi(argv[i + 1]);
        else {
            fprintf(stderr, "blocks: unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    alarm((unsigned)timeout);
    crc_table();
    if (crc16((const unsigned char *)"123456789", 9) != 0x29B1) {
        fprintf(stderr, "blocks: CRC-16/CCITT-FALSE check value wrong\n");
        return 1;
    }
    for (int p = 0; p < PACKETS; p++)
        for (int k = 0; k < BLOCK; k++)
            packets[p][k] = (unsigned char)(p * 31 + k * 7);
    for (int k = 0; k < BLOCK; k++)
        src[k] = (unsigned char)k;

    const char *names[] = {"copy-memcpy", "copy-loop", "crc16"};
    void (*blocks[])(void) = {copy_memcpy, copy_loop, crc_packets};
    for (int b = 0; b < 3; b++) {
        double end = now() + warmup;
        do
            blocks[b]();
        while (now() < end);
        for (int r = 0; r < runs; r++) {
            double t0 = now();
            blocks[b]();
            printf("c-%s,%s,%d,%d,%.9f,0\n", label, names[b], fork_no, r, now() - t0);
        }
    }
    long lost;
    double end = now() + warmup;
    do
        udp(datagrams, &lost);
    while (now() < end);
    for (int r = 0; r < runs; r++) {
        double t = udp(datagrams, &lost);
        printf("c-%s,udp,%d,%d,%.9f,%ld\n", label, fork_no, r, t, lost);
    }
    return sink == 0xFFFFFFFFu ? 3 : 0;
}
