/*
 * DeSpeckle (spec 2.3), vectorized: the interior (full n x n windows) on vectors with every byte (8-bit, any channel)
 * or word (grey) of a row in its own lane, the frame (clipped windows, counts of either parity) by the optimized
 * port's sliding histogram (mj_despeckle_rect). A median does not depend on how it is found, so any exact
 * selection network gives the spec's value on a full window (odd count: one middle value).
 *   - n = 3: each 3-pixel column sorted (3 min/max), the median of nine as
 *     med3(max of the minima, med3 of the medians, min of the maxima) -- the design of DespeckleVector.
 *   - n = 5, 7: Batcher's odd-even merge sort on the n^2 values padded to a power of two with +inf, pruned to the
 *     comparators the middle output depends on (NET5, NET7: n = 5 113 comparators, 202 min/max), unrolled so that the
 *     window stays in registers (a table walked at run time, through memory, was 7x slower at n = 5).
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

static int despeckle_n_ok(int n) { return n >= 1 && n <= 255 && (n & 1) == 1; }

#if MJ_X86_SIMD

/* Batcher's odd-even merge sort on 32 (n = 5) or 64 (n = 7) wires, the padding wires +inf (a comparator with one is
 * a renaming or nothing), pruned backwards to the comparators the middle output depends on: {a, b, use}, use 1 when
 * only the minimum (into slot a) is needed, 2 only the maximum (into b), 3 both. Slots are the window's values in
 * row-major order. Printed once by that construction (a wrong entry shows as wrong medians in the randomized tests,
 * whose windows of n = 5 and 7 run through these). */
/* n = 5: 113 comparators, the median in slot 12 */
#define NET5_OUT 12
static const unsigned char NET5[113][3] = {
    {0, 1, 3}, {2, 3, 3}, {4, 5, 3}, {6, 7, 3}, {8, 9, 3}, {10, 11, 3}, {12, 13, 3}, {14, 15, 3},
    {16, 17, 3}, {18, 19, 3}, {20, 21, 3}, {22, 23, 3}, {0, 2, 3}, {1, 3, 3}, {4, 6, 3}, {5, 7, 3},
    {8, 10, 3}, {9, 11, 3}, {12, 14, 3}, {13, 15, 3}, {16, 18, 3}, {17, 19, 3}, {20, 22, 3}, {21, 23, 3},
    {1, 2, 3}, {5, 6, 3}, {9, 10, 3}, {13, 14, 3}, {17, 18, 3}, {21, 22, 3}, {0, 4, 3}, {1, 5, 3},
    {2, 6, 3}, {3, 7, 3}, {8, 12, 3}, {9, 13, 3}, {10, 14, 3}, {11, 15, 3}, {16, 20, 3}, {17, 21, 3},
    {18, 22, 3}, {19, 23, 3}, {2, 4, 3}, {3, 5, 3}, {10, 12, 3}, {11, 13, 3}, {18, 20, 3}, {19, 21, 3},
    {1, 2, 3}, {3, 4, 3}, {5, 6, 3}, {9, 10, 3}, {11, 12, 3}, {13, 14, 3}, {17, 18, 3}, {19, 20, 3},
    {21, 22, 3}, {0, 8, 3}, {1, 9, 3}, {2, 10, 3}, {3, 11, 3}, {4, 12, 3}, {5, 13, 3}, {6, 14, 3},
    {7, 15, 1}, {16, 24, 3}, {4, 8, 3}, {5, 9, 3}, {6, 10, 3}, {7, 11, 3}, {20, 24, 3}, {2, 4, 3},
    {3, 5, 3}, {6, 8, 3}, {7, 9, 3}, {10, 12, 3}, {11, 13, 3}, {18, 20, 3}, {19, 21, 3}, {22, 24, 3},
    {1, 2, 3}, {3, 4, 3}, {5, 6, 3}, {7, 8, 3}, {9, 10, 3}, {11, 12, 3}, {13, 14, 1}, {17, 18, 3},
    {19, 20, 3}, {21, 22, 3}, {23, 24, 3}, {0, 16, 2}, {1, 17, 2}, {2, 18, 2}, {3, 19, 2}, {4, 20, 2},
    {5, 21, 2}, {6, 22, 1}, {7, 23, 1}, {8, 24, 1}, {8, 16, 2}, {9, 17, 2}, {10, 18, 1}, {11, 19, 1},
    {12, 20, 1}, {13, 21, 1}, {6, 10, 2}, {7, 11, 2}, {12, 16, 1}, {13, 17, 1}, {10, 12, 2}, {11, 13, 1},
    {11, 12, 2}};
/* n = 7: 319 comparators, the median in slot 24 */
#define NET7_OUT 24
static const unsigned char NET7[319][3] = {
    {0, 1, 3}, {2, 3, 3}, {4, 5, 3}, {6, 7, 3}, {8, 9, 3}, {10, 11, 3}, {12, 13, 3}, {14, 15, 3},
    {16, 17, 3}, {18, 19, 3}, {20, 21, 3}, {22, 23, 3}, {24, 25, 3}, {26, 27, 3}, {28, 29, 3}, {30, 31, 3},
    {32, 33, 3}, {34, 35, 3}, {36, 37, 3}, {38, 39, 3}, {40, 41, 3}, {42, 43, 3}, {44, 45, 3}, {46, 47, 3},
    {0, 2, 3}, {1, 3, 3}, {4, 6, 3}, {5, 7, 3}, {8, 10, 3}, {9, 11, 3}, {12, 14, 3}, {13, 15, 3},
    {16, 18, 3}, {17, 19, 3}, {20, 22, 3}, {21, 23, 3}, {24, 26, 3}, {25, 27, 3}, {28, 30, 3}, {29, 31, 3},
    {32, 34, 3}, {33, 35, 3}, {36, 38, 3}, {37, 39, 3}, {40, 42, 3}, {41, 43, 3}, {44, 46, 3}, {45, 47, 3},
    {1, 2, 3}, {5, 6, 3}, {9, 10, 3}, {13, 14, 3}, {17, 18, 3}, {21, 22, 3}, {25, 26, 3}, {29, 30, 3},
    {33, 34, 3}, {37, 38, 3}, {41, 42, 3}, {45, 46, 3}, {0, 4, 3}, {1, 5, 3}, {2, 6, 3}, {3, 7, 3},
    {8, 12, 3}, {9, 13, 3}, {10, 14, 3}, {11, 15, 3}, {16, 20, 3}, {17, 21, 3}, {18, 22, 3}, {19, 23, 3},
    {24, 28, 3}, {25, 29, 3}, {26, 30, 3}, {27, 31, 3}, {32, 36, 3}, {33, 37, 3}, {34, 38, 3}, {35, 39, 3},
    {40, 44, 3}, {41, 45, 3}, {42, 46, 3}, {43, 47, 3}, {2, 4, 3}, {3, 5, 3}, {10, 12, 3}, {11, 13, 3},
    {18, 20, 3}, {19, 21, 3}, {26, 28, 3}, {27, 29, 3}, {34, 36, 3}, {35, 37, 3}, {42, 44, 3}, {43, 45, 3},
    {1, 2, 3}, {3, 4, 3}, {5, 6, 3}, {9, 10, 3}, {11, 12, 3}, {13, 14, 3}, {17, 18, 3}, {19, 20, 3},
    {21, 22, 3}, {25, 26, 3}, {27, 28, 3}, {29, 30, 3}, {33, 34, 3}, {35, 36, 3}, {37, 38, 3}, {41, 42, 3},
    {43, 44, 3}, {45, 46, 3}, {0, 8, 3}, {1, 9, 3}, {2, 10, 3}, {3, 11, 3}, {4, 12, 3}, {5, 13, 3},
    {6, 14, 3}, {7, 15, 3}, {16, 24, 3}, {17, 25, 3}, {18, 26, 3}, {19, 27, 3}, {20, 28, 3}, {21, 29, 3},
    {22, 30, 3}, {23, 31, 3}, {32, 40, 3}, {33, 41, 3}, {34, 42, 3}, {35, 43, 3}, {36, 44, 3}, {37, 45, 3},
    {38, 46, 3}, {39, 47, 3}, {4, 8, 3}, {5, 9, 3}, {6, 10, 3}, {7, 11, 3}, {20, 24, 3}, {21, 25, 3},
    {22, 26, 3}, {23, 27, 3}, {36, 40, 3}, {37, 41, 3}, {38, 42, 3}, {39, 43, 3}, {2, 4, 3}, {3, 5, 3},
    {6, 8, 3}, {7, 9, 3}, {10, 12, 3}, {11, 13, 3}, {18, 20, 3}, {19, 21, 3}, {22, 24, 3}, {23, 25, 3},
    {26, 28, 3}, {27, 29, 3}, {34, 36, 3}, {35, 37, 3}, {38, 40, 3}, {39, 41, 3}, {42, 44, 3}, {43, 45, 3},
    {1, 2, 3}, {3, 4, 3}, {5, 6, 3}, {7, 8, 3}, {9, 10, 3}, {11, 12, 3}, {13, 14, 3}, {17, 18, 3},
    {19, 20, 3}, {21, 22, 3}, {23, 24, 3}, {25, 26, 3}, {27, 28, 3}, {29, 30, 3}, {33, 34, 3}, {35, 36, 3},
    {37, 38, 3}, {39, 40, 3}, {41, 42, 3}, {43, 44, 3}, {45, 46, 3}, {0, 16, 3}, {1, 17, 3}, {2, 18, 3},
    {3, 19, 3}, {4, 20, 3}, {5, 21, 3}, {6, 22, 3}, {7, 23, 3}, {8, 24, 3}, {9, 25, 3}, {10, 26, 3},
    {11, 27, 3}, {12, 28, 3}, {13, 29, 3}, {14, 30, 1}, {15, 31, 1}, {32, 48, 3}, {8, 16, 3}, {9, 17, 3},
    {10, 18, 3}, {11, 19, 3}, {12, 20, 3}, {13, 21, 3}, {14, 22, 3}, {15, 23, 3}, {40, 48, 3}, {4, 8, 3},
    {5, 9, 3}, {6, 10, 3}, {7, 11, 3}, {12, 16, 3}, {13, 17, 3}, {14, 18, 3}, {15, 19, 3}, {20, 24, 3},
    {21, 25, 3}, {22, 26, 3}, {23, 27, 3}, {36, 40, 3}, {37, 41, 3}, {38, 42, 3}, {39, 43, 3}, {44, 48, 3},
    {2, 4, 3}, {3, 5, 3}, {6, 8, 3}, {7, 9, 3}, {10, 12, 3}, {11, 13, 3}, {14, 16, 3}, {15, 17, 3},
    {18, 20, 3}, {19, 21, 3}, {22, 24, 3}, {23, 25, 3}, {26, 28, 3}, {27, 29, 1}, {34, 36, 3}, {35, 37, 3},
    {38, 40, 3}, {39, 41, 3}, {42, 44, 3}, {43, 45, 3}, {46, 48, 3}, {1, 2, 3}, {3, 4, 3}, {5, 6, 3},
    {7, 8, 3}, {9, 10, 3}, {11, 12, 3}, {13, 14, 3}, {15, 16, 3}, {17, 18, 3}, {19, 20, 3}, {21, 22, 3},
    {23, 24, 3}, {25, 26, 3}, {27, 28, 1}, {33, 34, 3}, {35, 36, 3}, {37, 38, 3}, {39, 40, 3}, {41, 42, 3},
    {43, 44, 3}, {45, 46, 3}, {47, 48, 3}, {0, 32, 2}, {1, 33, 2}, {2, 34, 2}, {3, 35, 2}, {4, 36, 2},
    {5, 37, 2}, {6, 38, 2}, {7, 39, 2}, {8, 40, 2}, {9, 41, 2}, {10, 42, 2}, {11, 43, 2}, {12, 44, 1},
    {13, 45, 1}, {14, 46, 1}, {15, 47, 1}, {16, 48, 1}, {16, 32, 2}, {17, 33, 2}, {18, 34, 2}, {19, 35, 2},
    {20, 36, 1}, {21, 37, 1}, {22, 38, 1}, {23, 39, 1}, {24, 40, 1}, {25, 41, 1}, {26, 42, 1}, {27, 43, 1},
    {12, 20, 2}, {13, 21, 2}, {14, 22, 2}, {15, 23, 2}, {24, 32, 1}, {25, 33, 1}, {26, 34, 1}, {27, 35, 1},
    {20, 24, 2}, {21, 25, 2}, {22, 26, 1}, {23, 27, 1}, {22, 24, 2}, {23, 25, 1}, {23, 24, 2}};

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

/* a network on v[] (slots), min/max of bytes or words; unrolled, so that the slots live in registers */
#define NET_RUN(NET, v, MIN, MAX)                                                                                     \
    do {                                                                                                              \
        int c_;                                                                                                       \
        _Pragma("GCC unroll 400")                                                                                     \
        for (c_ = 0; c_ < (int)(sizeof(NET) / sizeof(NET[0])); c_++) {                                               \
            const vi x_ = (v)[NET[c_][0]], y_ = (v)[NET[c_][1]];                                                      \
            if (NET[c_][2] & 1)                                                                                       \
                (v)[NET[c_][0]] = MIN(x_, y_);                                                                        \
            if (NET[c_][2] & 2)                                                                                       \
                (v)[NET[c_][1]] = MAX(x_, y_);                                                                        \
        }                                                                                                             \
    } while (0)

/* v[] = the n x n window at element q of a row (rows `stride` elements apart, columns `step`), LD per element */
#define LOAD_WINDOW(v, nn, q, stride, step, LD)                                                                       \
    do {                                                                                                              \
        int w_;                                                                                                       \
        _Pragma("GCC unroll 64")                                                                                      \
        for (w_ = 0; w_ < (nn) * (nn); w_++)                                                                          \
            (v)[w_] = LD((q) + (ptrdiff_t)(w_ / (nn) - (nn) / 2) * (ptrdiff_t)(stride)                                \
                         + (w_ % (nn) - (nn) / 2) * (step));                                                          \
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

/* med_ = the median of the n x n window at element q (n = 3, 5 or 7) */
#define MEDIAN(n, q, stride, step, LD, MIN, MAX)                                                                      \
    do {                                                                                                              \
        if ((n) == 3) {                                                                                               \
            MED9((q) - (stride), (q), (q) + (stride), (step), LD, MIN, MAX);                                          \
        } else if ((n) == 5) {                                                                                        \
            vi v_[25];                                                                                                \
            LOAD_WINDOW(v_, 5, (q), (stride), (step), LD);                                                            \
            NET_RUN(NET5, v_, MIN, MAX);                                                                              \
            med_ = v_[NET5_OUT];                                                                                      \
        } else {                                                                                                      \
            vi v_[49];                                                                                                \
            LOAD_WINDOW(v_, 7, (q), (stride), (step), LD);                                                            \
            NET_RUN(NET7, v_, MIN, MAX);                                                                              \
            med_ = v_[NET7_OUT];                                                                                      \
        }                                                                                                             \
    } while (0)

static int VF(despeckle_u8)(const uint8_t *src, uint8_t *dst, int width, mj_region r, int n)
{
    const int h = n / 2, ey = r.y + r.h - 1;
    const size_t stride = (size_t)width * 3u, len = 3u * (size_t)(r.w - 2 * h); /* interior bytes of a row, >= VB */
    int *scratch = (int *)calloc(MJ_DESPECKLE_SCRATCH, sizeof(int));
    mj_region fr[4];
    int y, i;

    if (scratch == NULL)
        return MJ_ERR_NOMEM;
    for (y = r.y + h; y <= ey - h; y++) {
        const uint8_t *row = src + mj_off(r.x + h, y, width);
        uint8_t *out = dst + mj_off(r.x + h, y, width);
        size_t k;
        for (k = 0; k < len; k += VB) {
            const size_t p = k + VB <= len ? k : len - VB; /* the last vector overlaps the one before */
            vi med_;
            MEDIAN(n, row + p, stride, 3, ld, min_u8, max_u8);
            st(out + p, med_);
        }
    }
    frame_rects(r, h, fr);
    for (i = 0; i < 4; i++)
        mj_despeckle_rect(src, dst, width, r, n, scratch, fr[i]);
    free(scratch);
    return MJ_OK;
}

/* grey words as offset values: wrapping add of -min, unsigned min/max, + min back */
static int VF(despeckle_g)(const uint16_t *src, uint16_t *dst, int width, mj_region r, mj_gray_format fmt, int n)
{
    const int h = n / 2, ey = r.y + r.h - 1, min = mj_g_min(fmt);
    const size_t stride = (size_t)width, len = (size_t)(r.w - 2 * h);
    const vi bias = set1_16(-min), unbias = set1_16(min);
    int *scratch = (int *)calloc(mj_despeckle_gray16_scratch(fmt), sizeof(int));
    mj_region fr[4];
    int y, i;

    if (scratch == NULL)
        return MJ_ERR_NOMEM;
#define LDU(q) add16(ld(q), bias)
    for (y = r.y + h; y <= ey - h; y++) {
        const uint16_t *row = src + mj_g_off(r.x + h, y, width);
        uint16_t *out = dst + mj_g_off(r.x + h, y, width);
        size_t k;
        for (k = 0; k < len; k += V16) {
            const size_t p = k + V16 <= len ? k : len - V16;
            vi med_;
            MEDIAN(n, row + p, stride, 1, LDU, min_u16, max_u16);
            st(out + p, add16(med_, unbias));
        }
    }
#undef LDU
    frame_rects(r, h, fr);
    for (i = 0; i < 4; i++)
        mj_despeckle_gray16_rect(src, dst, width, r, fmt, n, scratch, fr[i]);
    free(scratch);
    return MJ_OK;
}

#undef NET_RUN
#undef LOAD_WINDOW
#undef MEDIAN
#undef MED9

#endif
