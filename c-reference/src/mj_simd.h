/* Run-time choice of the vectorized kernels' code path (simd.c). Not part of the public API. */
#ifndef MJ_SIMD_H
#define MJ_SIMD_H

#include "mj_internal.h"

/* x86 intrinsics are compiled in with gcc/clang on x86 when SSE2 is there (OPT=scalar's -U__SSE2__ builds what a
 * non-x86 machine gets: the scalar path only). The SIMD functions carry their own target, so -O2 builds them. */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__SSE2__) && defined(__GNUC__)
#define MJ_X86_SIMD 1
#include <immintrin.h>
#else
#define MJ_X86_SIMD 0
#endif

#define MJ_SIMD_SCALAR 0
#define MJ_SIMD_AVX2   1
#define MJ_SIMD_AVX512 2 /* F + BW + VL */

/* x / d == (x * m) >> k for every 0 <= x <= xmax: m = ceil(2^k / d), e = m d - 2^k, exact when xmax * e < 2^k
 * (see mj_magic24). k = 0: none with m <= mmax and k >= max(kmin, 1) (then the caller divides). With
 * mmax = 2^33 - 1 there always is one for d <= 65536 and xmax < 2^32 (k near 32 + log2 d leaves e < 2^33 / 65536). */
typedef struct {
    uint64_t m;
    int k;
} div_mk;

static inline div_mk div_make(uint32_t d, uint64_t xmax, int kmin, uint64_t mmax)
{
    div_mk r = {0, 0};
    int k;
    for (k = kmin > 1 ? kmin : 1; k <= 63; k++) {
        const uint64_t p = (uint64_t)1 << k, m = (p + d - 1) / d;
        if (m > mmax)
            break;
        if (xmax * (m * d - p) < p) {
            r.m = m;
            r.k = k;
            break;
        }
    }
    return r;
}

/* the largest multiplier of the vector divisions of 32-bit lanes (VF(divq) in mj_vec.h) */
#define MJ_DIV_MMAX ((((uint64_t)1) << 33) - 1)

/* The level the vectorized functions use: the CPU's, capped by MJ_SIMD; decided once per process. */
MJ_INTERNAL int mj_simd(void);

#endif
