/*
 * DeSpeckle (spec 2.3), vectorized: the interior (full n x n windows) on vectors with every byte (8-bit, any channel)
 * or word (grey) of a row in its own lane, the frame (clipped windows, counts of either parity) by the optimized
 * port's sliding histogram (mj_despeckle_rect). A median does not depend on how it is found, so any exact
 * selection network gives the spec's value on a full window (odd count: one middle value).
 *   - n = 3: each 3-pixel column sorted (3 min/max), the median of nine as
 *     med3(max of the minima, med3 of the medians, min of the maxima) -- the design of DespeckleVector.
 *   - 5 <= n <= NET_MAX: Batcher's odd-even merge sort on the n^2 values padded to a power of two with +inf, pruned
 *     at run time to the comparators the middle output depends on (padding comparators are renamings; a comparator of
 *     which only the minimum or only the maximum is used is one operation). n = 5: 25 loads, ~150 min/max a vector.
 *   - larger n: the sliding histogram everywhere (mj_despeckle_optimized): a network grows as n^2 log^2 n per pixel,
 *     the histogram as n.
 * Grey words are compared as offset values u = w - min (wrapping 16-bit add, then unsigned min/max), as the scalar
 * port does. The scalar path is mj_despeckle_optimized.
 */
#ifndef MJ_VEC_BITS
#include <stdlib.h>
#include "mj_simd.h"

/* the largest n with a network: n = 7 (49 values in 64 wires) still beats the histogram, n = 9 (128 wires) not */
#define NET_MAX 7
#define NET_WIRES 64

static int despeckle_n_ok(int n) { return n >= 1 && n <= 255 && (n & 1) == 1; }

#if MJ_X86_SIMD

/* A pruned selection network on slots 0..nin-1 (the window's values in row-major order): for each comparator the
 * slots a and b, and which results are used (1: the minimum into a, 2: the maximum into b). */
typedef struct {
    unsigned char a[1024], b[1024], use[1024];
    int count, nin, out;
} sel_net;

static void net_build(sel_net *net, int n)
{
    const int nin = n * n;
    int N = 1, p, k, j, i, w, c;
    unsigned char map[NET_WIRES], inf[NET_WIRES], need[NET_WIRES];
    int fa[1024], fb[1024], nf = 0;
    while (N < nin)
        N <<= 1;
    for (w = 0; w < N; w++) {
        map[w] = (unsigned char)w;
        inf[w] = (unsigned char)(w >= nin);
    }
    /* Batcher's odd-even merge sort, iterative; +inf padding is tracked symbolically */
    for (p = 1; p < N; p <<= 1)
        for (k = p; k >= 1; k >>= 1)
            for (j = k % p; j + k < N; j += 2 * k)
                for (i = 0; i < k && i + j + k < N; i++) {
                    const int lo = i + j, hi = i + j + k;
                    if ((lo / (2 * p)) != (hi / (2 * p)) || inf[hi])
                        continue; /* not a comparator, or min(x, inf) = x: nothing moves */
                    if (inf[lo]) { /* the finite value moves down: a renaming */
                        const unsigned char t = map[lo];
                        map[lo] = map[hi];
                        map[hi] = t;
                        inf[lo] = 0;
                        inf[hi] = 1;
                        continue;
                    }
                    fa[nf] = map[lo];
                    fb[nf] = map[hi];
                    nf++;
                }
    /* backwards from the middle output: keep what it depends on */
    for (w = 0; w < N; w++)
        need[w] = 0;
    net->out = map[nin / 2];
    need[net->out] = 1;
    net->count = 0;
    for (c = nf - 1; c >= 0; c--) {
        const int use = need[fa[c]] | (need[fb[c]] << 1);
        if (use == 0)
            continue;
        net->a[net->count] = (unsigned char)fa[c];
        net->b[net->count] = (unsigned char)fb[c];
        net->use[net->count] = (unsigned char)use;
        net->count++;
        need[fa[c]] = need[fb[c]] = 1;
    }
    /* into forward order */
    for (c = 0; c < net->count / 2; c++) {
        const int d = net->count - 1 - c;
        unsigned char t;
        t = net->a[c]; net->a[c] = net->a[d]; net->a[d] = t;
        t = net->b[c]; net->b[c] = net->b[d]; net->b[d] = t;
        t = net->use[c]; net->use[c] = net->use[d]; net->use[d] = t;
    }
    net->nin = nin;
}

/* the frame around the interior [r.x + h, ex - h] x [r.y + h, ey - h] (both non-empty) */
static void frame_rects(mj_region r, int h, mj_region o[4])
{
    const mj_region top = {r.x, r.y, r.w, h}, bottom = {r.x, r.y + r.h - h, r.w, h};
    const mj_region left = {r.x, r.y + h, h, r.h - 2 * h}, right = {r.x + r.w - h, r.y + h, h, r.h - 2 * h};
    o[0] = top;
    o[1] = bottom;
    o[2] = left;
    o[3] = right;
}

#define MJ_VEC_BITS 256
#include "mj_vec.h"
#include "despeckle_vectorized.c"
#include "mj_vec_end.h"
#undef MJ_VEC_BITS
#define MJ_VEC_BITS 512
#include "mj_vec.h"
#include "despeckle_vectorized.c"
#include "mj_vec_end.h"
#undef MJ_VEC_BITS
#endif

int mj_despeckle_vectorized(const uint8_t *src, uint8_t *dst, int width, int height, mj_region r, int n)
{
    if (!mj_check_args(src, width, height, r) || dst == NULL || !despeckle_n_ok(n))
        return MJ_ERR_ARG;
    if (n == 1)
        return MJ_OK;
#if MJ_X86_SIMD
    /* vectors need an interior at least one vector wide */
    if (n <= NET_MAX && r.h > n - 1 && 3 * (r.w - (n - 1)) >= (mj_simd() == MJ_SIMD_AVX512 ? 64 : 32)) {
        switch (mj_simd()) {
        case MJ_SIMD_AVX512: return despeckle_u8_avx512(src, dst, width, r, n);
        case MJ_SIMD_AVX2: return despeckle_u8_avx2(src, dst, width, r, n);
        default: break;
        }
    }
#endif
    return mj_despeckle_optimized(src, dst, width, height, r, n);
}

int mj_despeckle_gray16_vectorized(const uint16_t *src, uint16_t *dst, int width, int height, mj_region r,
                                   mj_gray_format fmt, int n)
{
    if (!mj_check_gray_args(src, width, height, r, fmt) || dst == NULL || !despeckle_n_ok(n))
        return MJ_ERR_ARG;
    if (n == 1)
        return MJ_OK;
#if MJ_X86_SIMD
    if (n <= NET_MAX && r.h > n - 1 && r.w - (n - 1) >= (mj_simd() == MJ_SIMD_AVX512 ? 32 : 16)) {
        switch (mj_simd()) {
        case MJ_SIMD_AVX512: return despeckle_g_avx512(src, dst, width, r, fmt, n);
        case MJ_SIMD_AVX2: return despeckle_g_avx2(src, dst, width, r, fmt, n);
        default: break;
        }
    }
#endif
    return mj_despeckle_gray16_optimized(src, dst, width, height, r, fmt, n);
}

#else /* ---- the kernels at one vector width (MJ_VEC_BITS), included above ---- */

/* the network on v[] (slots), min/max of bytes or words */
#define NET_RUN(net, v, MIN, MAX)                                                                                     \
    do {                                                                                                              \
        int c_;                                                                                                       \
        for (c_ = 0; c_ < (net)->count; c_++) {                                                                       \
            const int a_ = (net)->a[c_], b_ = (net)->b[c_];                                                           \
            const vi x_ = (v)[a_], y_ = (v)[b_];                                                                      \
            if ((net)->use[c_] & 1)                                                                                   \
                (v)[a_] = MIN(x_, y_);                                                                                \
            if ((net)->use[c_] & 2)                                                                                   \
                (v)[b_] = MAX(x_, y_);                                                                                \
        }                                                                                                             \
    } while (0)

/* n = 3: the median of nine from the sorted columns at -s, 0, +s (elements) of rows u, m, d */
#define MED9(u, m, d, s, LD, MIN, MAX)                                                                                \
    do {                                                                                                              \
        vi lo_[3], md_[3], hi_[3], t_, mx_, md01_;                                                                    \
        int j_;                                                                                                       \
        for (j_ = 0; j_ < 3; j_++) {                                                                                  \
            const vi a_ = LD((u) + (j_ - 1) * (s)), b_ = LD((m) + (j_ - 1) * (s)), c_ = LD((d) + (j_ - 1) * (s));   \
            const vi mn_ = MIN(a_, b_), mxab_ = MAX(a_, b_);                                                          \
            lo_[j_] = MIN(mn_, c_);                                                                                   \
            md_[j_] = MAX(mn_, MIN(mxab_, c_));                                                                       \
            hi_[j_] = MAX(mxab_, c_);                                                                                 \
        }                                                                                                             \
        mx_ = MAX(MAX(lo_[0], lo_[1]), lo_[2]);                                                                       \
        t_ = MIN(MIN(hi_[0], hi_[1]), hi_[2]);                                                                        \
        md01_ = MAX(MIN(md_[0], md_[1]), MIN(MAX(md_[0], md_[1]), md_[2]));                                           \
        med_ = MAX(MIN(mx_, md01_), MIN(MAX(mx_, md01_), t_));                                                        \
    } while (0)

static int VF(despeckle_u8)(const uint8_t *src, uint8_t *dst, int width, mj_region r, int n)
{
    const int h = n / 2, ey = r.y + r.h - 1;
    const size_t stride = (size_t)width * 3u, len = 3u * (size_t)(r.w - 2 * h); /* interior bytes of a row, >= VB */
    int *scratch = (int *)calloc(MJ_DESPECKLE_SCRATCH, sizeof(int));
    sel_net *net = n > 3 ? (sel_net *)malloc(sizeof(sel_net)) : NULL;
    mj_region fr[4];
    int y, i;

    if (scratch == NULL || (n > 3 && net == NULL)) {
        free(scratch);
        free(net);
        return MJ_ERR_NOMEM;
    }
    if (net != NULL)
        net_build(net, n);
    for (y = r.y + h; y <= ey - h; y++) {
        const uint8_t *row = src + mj_off(r.x + h, y, width);
        uint8_t *out = dst + mj_off(r.x + h, y, width);
        size_t k;
        for (k = 0; k < len; k += VB) {
            const size_t p = k + VB <= len ? k : len - VB; /* the last vector overlaps the one before */
            vi med_;
            if (n == 3) {
                MED9(row + p - stride, row + p, row + p + stride, 3, ld, min_u8, max_u8);
            } else {
                vi v[NET_WIRES];
                int dy, dx, w = 0;
                for (dy = -h; dy <= h; dy++)
                    for (dx = -h; dx <= h; dx++)
                        v[w++] = ld(row + p + (ptrdiff_t)dy * (ptrdiff_t)stride + 3 * dx);
                NET_RUN(net, v, min_u8, max_u8);
                med_ = v[net->out];
            }
            st(out + p, med_);
        }
    }
    frame_rects(r, h, fr);
    for (i = 0; i < 4; i++)
        mj_despeckle_rect(src, dst, width, r, n, scratch, fr[i]);
    free(scratch);
    free(net);
    return MJ_OK;
}

/* grey words as offset values: wrapping add of -min, unsigned min/max, + min back */
static int VF(despeckle_g)(const uint16_t *src, uint16_t *dst, int width, mj_region r, mj_gray_format fmt, int n)
{
    const int h = n / 2, ey = r.y + r.h - 1, min = mj_g_min(fmt);
    const size_t stride = (size_t)width, len = (size_t)(r.w - 2 * h);
    const vi bias = set1_16(-min), unbias = set1_16(min);
    int *scratch = (int *)calloc(mj_despeckle_gray16_scratch(fmt), sizeof(int));
    sel_net *net = n > 3 ? (sel_net *)malloc(sizeof(sel_net)) : NULL;
    mj_region fr[4];
    int y, i;

    if (scratch == NULL || (n > 3 && net == NULL)) {
        free(scratch);
        free(net);
        return MJ_ERR_NOMEM;
    }
    if (net != NULL)
        net_build(net, n);
#define LDU(q) add16(ld(q), bias)
    for (y = r.y + h; y <= ey - h; y++) {
        const uint16_t *row = src + mj_g_off(r.x + h, y, width);
        uint16_t *out = dst + mj_g_off(r.x + h, y, width);
        size_t k;
        for (k = 0; k < len; k += V16) {
            const size_t p = k + V16 <= len ? k : len - V16;
            vi med_;
            if (n == 3) {
                MED9(row + p - stride, row + p, row + p + stride, 1, LDU, min_u16, max_u16);
            } else {
                vi v[NET_WIRES];
                int dy, dx, w = 0;
                for (dy = -h; dy <= h; dy++)
                    for (dx = -h; dx <= h; dx++)
                        v[w++] = LDU(row + p + (ptrdiff_t)dy * (ptrdiff_t)stride + dx);
                NET_RUN(net, v, min_u16, max_u16);
                med_ = v[net->out];
            }
            st(out + p, add16(med_, unbias));
        }
    }
#undef LDU
    frame_rects(r, h, fr);
    for (i = 0; i < 4; i++)
        mj_despeckle_gray16_rect(src, dst, width, r, fmt, n, scratch, fr[i]);
    free(scratch);
    free(net);
    return MJ_OK;
}

#undef NET_RUN
#undef MED9

#endif
