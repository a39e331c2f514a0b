/*
 * Spread (spec 2.8), vectorized as far as it goes. Each pixel swaps with a partner drawn from XVR, in raster order and
 * in place: a swap reads what earlier swaps wrote (chains of any length), so the swaps stay one at a time. Everything
 * before them is a function of the position and the random values alone and runs on vectors, a row at a time:
 *   - XVR itself, r[i] = r[i-31] + r[i-3], unrolled to a lag at least the vector length (r[i-3] expanded m times:
 *     r[i] = r[i-3m] + sum_{t<m} r[i-31-3t]; m = 3 for 8 lanes, 6 for 16), so a whole vector of values is one sum of
 *     earlier ones. 46 values of history are kept instead of 31.
 *   - the partners: the x range clipped to the region, (R1 >> 1) mod its size, the diamond's y range from |x1 - x|,
 *     (R2 >> 1) mod its size. The remainders by per-lane divisors (up to 2 * 65535 + 1) on binary64 lanes:
 *     q = trunc(a * (1/d)) is floor(a / d) or one less (a < 2^31: the error of the product is < 2^-20 < 1/d), and
 *     a - q d is corrected by one unsigned min (a - q d - d wraps above a - q d when that is already < d).
 * The swaps then read the row's partners from two small arrays. The scalar path is mj_spread_optimized.
 */
#ifndef MJ_VEC_BITS
#include <stdlib.h>
#include <string.h>
#include "mj_simd.h"

/* XVR values kept before a row's: the unrolled recurrence reaches 46 back */
#define HIST 48

#if MJ_X86_SIMD

/* the per-call state: the partners of a row (x1, y1), XVR values (HIST of history, then the row's 2 sw and a vector
 * of slack), 1/d for every range size */
typedef struct {
    int32_t *x1, *y1;
    uint32_t *ext;
    double *inv;
    int valid_from; /* ext[valid_from..HIST) hold XVR history (fewer right after seeding) */
    void *mem;
} spread_state;

static int state_init(spread_state *s, int sw, int sh, int a, int b, uint32_t seed, int lanes)
{
    mj_xvr g;
    uint32_t maxrange = (uint32_t)(sw > sh ? sw : sh), d, k;
    const size_t next = HIST + 2u * (size_t)sw + (size_t)lanes;
    if (maxrange > 2u * (uint32_t)(a > b ? a : b) + 1u)
        maxrange = 2u * (uint32_t)(a > b ? a : b) + 1u;
    s->mem = malloc(((size_t)maxrange + 1) * sizeof(double) + 2u * (size_t)sw * sizeof(int32_t)
                    + next * sizeof(uint32_t));
    if (s->mem == NULL)
        return 0;
    s->inv = (double *)s->mem;
    s->x1 = (int32_t *)(s->inv + maxrange + 1);
    s->y1 = s->x1 + sw;
    s->ext = (uint32_t *)(s->y1 + sw);
    s->inv[0] = 0.0; /* never a range size */
    for (d = 1; d <= maxrange; d++)
        s->inv[d] = 1.0 / (double)d;
    mj_xvr_seed(&g, seed);
    for (k = 0; k < 31; k++) /* the last 31 values r[g.i - 31 + k] */
        s->ext[HIST - 31 + k] = g.r[(g.i - 31 + k) % 34];
    s->valid_from = HIST - 31;
    return 1;
}

#define MJ_VEC_BITS 256
#include "mj_vec.h"
#include "spread_vectorized.c"
#include "mj_vec_end.h"
#undef MJ_VEC_BITS
#define MJ_VEC_BITS 512
#include "mj_vec.h"
#include "spread_vectorized.c"
#include "mj_vec_end.h"
#undef MJ_VEC_BITS
#endif

int mj_spread_vectorized(uint8_t *img, int width, int height, mj_region r, mj_spread_mode mode, int a, int b,
                         uint32_t seed)
{
    if (!mj_check_args(img, width, height, r) || !mj_spread_args_ok(mode, a, b, seed))
        return MJ_ERR_ARG;
#if MJ_X86_SIMD
    /* a row of partners is at least one vector (the last vector of a row overlaps the one before) */
    if (r.w >= 16 && !(a == 0 && (mode == MJ_SPREAD_DIAMOND || b == 0))) {
        switch (mj_simd()) {
        case MJ_SIMD_AVX512: return spread_px_avx512(img, 3, width, r, mode, a, b, seed);
        case MJ_SIMD_AVX2: return spread_px_avx2(img, 3, width, r, mode, a, b, seed);
        default: break;
        }
    }
#endif
    return mj_spread_optimized(img, width, height, r, mode, a, b, seed);
}

int mj_spread_gray16_vectorized(uint16_t *img, int width, int height, mj_region r, mj_gray_format fmt,
                                mj_spread_mode mode, int a, int b, uint32_t seed)
{
    if (!mj_check_gray_args(img, width, height, r, fmt) || !mj_spread_args_ok(mode, a, b, seed))
        return MJ_ERR_ARG;
#if MJ_X86_SIMD
    if (r.w >= 16 && !(a == 0 && (mode == MJ_SPREAD_DIAMOND || b == 0))) {
        switch (mj_simd()) {
        case MJ_SIMD_AVX512: return spread_px_avx512((uint8_t *)img, 2, width, r, mode, a, b, seed);
        case MJ_SIMD_AVX2: return spread_px_avx2((uint8_t *)img, 2, width, r, mode, a, b, seed);
        default: break;
        }
    }
#endif
    return mj_spread_gray16_optimized(img, width, height, r, fmt, mode, a, b, seed);
}

#else /* ---- the kernels at one vector width (MJ_VEC_BITS), included above ---- */

#if MJ_VEC_BITS == 512
/* r[i-3] expanded 6 times: r[i] = r[i-18] + r[i-31] + r[i-34] + ... + r[i-46], lag 18 >= 16 lanes; the window at
 * offset o back is alignr of the two vectors it spans */
#define AL(hi, lo, k) _mm512_alignr_epi32((hi), (lo), (k))
#define XVR_NEXT(b1, b2, b3)                                                                                          \
    add32(add32(add32(AL(b1, b2, 14), AL(b1, b2, 1)), add32(AL(b2, b3, 14), AL(b2, b3, 11))),                         \
          add32(add32(AL(b2, b3, 8), AL(b2, b3, 5)), AL(b2, b3, 2)))
#define srli32 _mm512_srli_epi32
#define min32 _mm512_min_epi32
#define min_u32 _mm512_min_epu32
#define abs32v _mm512_abs_epi32
#define iota() _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
/* even and odd 32-bit lanes of p[0 .. 2 V32) */
static inline void VF(deinterleave)(const uint32_t *p, vi *even, vi *odd)
{
    const vi a = ld(p), b = ld(p + V32);
    *even = _mm512_permutex2var_epi32(a, _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30),
                                      b);
    *odd = _mm512_permutex2var_epi32(a, _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31),
                                     b);
}
/* n mod d for 0 <= n < 2^31 and 1 <= d lanes; inv: 1/d, or NULL when every d is dc (then 1/dc is broadcast) */
static inline vi VF(mod)(vi n, vi d, const double *inv, double dc)
{
    const __m256i nl = lo_half(n), nh = hi_half(n);
    const vd il = inv ? _mm512_i32gather_pd(lo_half(d), inv, 8) : _mm512_set1_pd(1.0 / dc);
    const vd ih = inv ? _mm512_i32gather_pd(hi_half(d), inv, 8) : il;
    const __m256i ql = _mm512_cvttpd_epi32(_mm512_mul_pd(_mm512_cvtepi32_pd(nl), il));
    const __m256i qh = _mm512_cvttpd_epi32(_mm512_mul_pd(_mm512_cvtepi32_pd(nh), ih));
    const vi rem = sub32(n, mullo32(_mm512_inserti64x4(_mm512_castsi256_si512(ql), qh, 1), d));
    return min_u32(rem, sub32(rem, d));
}
#else
/* r[i-3] expanded 3 times: r[i] = r[i-9] + r[i-31] + r[i-34] + r[i-37], lag 9 >= 8 lanes; the windows
 * 9 back from registers ([b2 lane 7, b1 lanes 0..6]), those 31..37 back (four and five vectors ago) from memory */
static inline vi VF(back9)(vi b1, vi b2)
{
    const vi up = _mm256_setr_epi32(7, 0, 1, 2, 3, 4, 5, 6);
    return _mm256_blend_epi32(_mm256_permutevar8x32_epi32(b1, up), _mm256_permutevar8x32_epi32(b2, up), 1);
}
#define XVR_NEXT(b1, b2, b3)                                                                                          \
    add32(add32(VF(back9)(b1, b2), ld(e + j - 31)), add32(ld(e + j - 34), ld(e + j - 37)))
#define srli32 _mm256_srli_epi32
#define min32 _mm256_min_epi32
#define min_u32 _mm256_min_epu32
#define abs32v _mm256_abs_epi32
#define iota() _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)
static inline void VF(deinterleave)(const uint32_t *p, vi *even, vi *odd)
{
    const __m256 a = _mm256_castsi256_ps(ld(p)), b = _mm256_castsi256_ps(ld(p + V32));
    /* [a0 a2 b0 b2 | a4 a6 b4 b6], then the 64-bit quarters in order 0 2 1 3 */
    *even = _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0))),
                                     _MM_SHUFFLE(3, 1, 2, 0));
    *odd = _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1))),
                                    _MM_SHUFFLE(3, 1, 2, 0));
}
static inline vi VF(mod)(vi n, vi d, const double *inv, double dc)
{
    const __m128i nl = lo_half(n), nh = hi_half(n);
    const vd il = inv ? _mm256_i32gather_pd(inv, lo_half(d), 8) : _mm256_set1_pd(1.0 / dc);
    const vd ih = inv ? _mm256_i32gather_pd(inv, hi_half(d), 8) : il;
    const __m128i ql = _mm256_cvttpd_epi32(_mm256_mul_pd(_mm256_cvtepi32_pd(nl), il));
    const __m128i qh = _mm256_cvttpd_epi32(_mm256_mul_pd(_mm256_cvtepi32_pd(nh), ih));
    const vi rem = sub32(n, mullo32(_mm256_set_m128i(qh, ql), d));
    return min_u32(rem, sub32(rem, d));
}
#endif

/* the XVR values of the next row: e[0 .. 2 sw) after HIST values of history. The terms of a vector come from the
 * three vectors before it in registers (loads across two recent stores would stall store forwarding). */
static void VF(xvr_row)(spread_state *s, int sw)
{
    uint32_t *e = s->ext + HIST;
    const int total = 2 * sw;
    int j = 0;
    vi b1, b2, b3; /* e[j - V32 ..), e[j - 2 V32 ..), e[j - 3 V32 ..) */
    for (; j < s->valid_from - 2; j++) /* right after seeding: history for the scalar recurrence only */
        e[j] = e[j - 31] + e[j - 3];
    b1 = ld(e + j - V32);
    b2 = ld(e + j - 2 * V32);
    b3 = ld(e + j - 3 * V32);
    for (; j < total; j += V32) {
        const vi v = XVR_NEXT(b1, b2, b3);
        st(e + j, v);
        b3 = b2;
        b2 = b1;
        b1 = v;
    }
    (void)b3; /* AVX2 takes the older terms from memory */
}

/* the partners (x1, y1) of the region's row y */
static void VF(partners)(spread_state *s, mj_region r, int y, int diamond, int a, int b)
{
    const int sw = r.w, ex = r.x + sw - 1, ey = r.y + r.h - 1;
    const int bylo = mj_lo(y, b, r.y), byhi = mj_hi(y, b, ey);
    const vi va = set1_32(a), vrx = set1_32(r.x), vex = set1_32(ex), vy = set1_32(y), one = set1_32(1);
    const vi vbylo = set1_32(bylo), vbyhi = set1_32(byhi);
    int k;
    for (k = 0; k < sw; k += V32) {
        const int p = k + V32 <= sw ? k : sw - V32; /* the last vector overlaps the one before */
        const vi x = add32(set1_32(r.x + p), iota());
        const vi xlo = sub32(x, min32(va, sub32(x, vrx))), xhi = add32(x, min32(va, sub32(vex, x)));
        vi r1, r2, x1, ylo = vbylo, yhi = vbyhi;
        VF(deinterleave)(s->ext + HIST + 2 * p, &r1, &r2);
        /* away from the region's sides every x range is 2a + 1: no gather */
        const int inner = p >= a && sw - 1 - (p + V32 - 1) >= a;
        x1 = add32(xlo, VF(mod)(srli32(r1, 1), add32(sub32(xhi, xlo), one), inner ? NULL : s->inv, 2.0 * a + 1.0));
        if (diamond) {
            const vi rr = sub32(va, abs32v(sub32(x1, x)));
            ylo = sub32(vy, min32(rr, sub32(vy, vbylo)));
            yhi = add32(vy, min32(rr, sub32(vbyhi, vy)));
        }
        st(s->x1 + p, x1);
        st(s->y1 + p, add32(ylo, VF(mod)(srli32(r2, 1), add32(sub32(yhi, ylo), one), diamond ? s->inv : NULL,
                                         (double)byhi - bylo + 1.0)));
    }
    memmove(s->ext, s->ext + 2 * sw, HIST * sizeof(uint32_t));
    s->valid_from = s->valid_from > 2 * sw ? s->valid_from - 2 * sw : 0;
}

/* bpp 3: RGB pixels; 2: grey words, swapped as their two bytes */
static int VF(spread_px)(uint8_t *img, int bpp, int width, mj_region r, mj_spread_mode mode, int a, int b,
                         uint32_t seed)
{
    const int diamond = mode == MJ_SPREAD_DIAMOND;
    spread_state s;
    int y, k, c;
    if (diamond)
        b = a;
    if (!state_init(&s, r.w, r.h, a, b, seed, V32))
        return MJ_ERR_NOMEM;
    for (y = r.y; y < r.y + r.h; y++) {
        uint8_t *row = img + ((size_t)y * (size_t)width + (size_t)r.x) * (size_t)bpp;
        VF(xvr_row)(&s, r.w);
        VF(partners)(&s, r, y, diamond, a, b);
        for (k = 0; k < r.w; k++, row += bpp) {
            uint8_t *t = img + ((size_t)s.y1[k] * (size_t)width + (size_t)s.x1[k]) * (size_t)bpp;
            for (c = 0; c < bpp; c++) {
                const uint8_t tmp = row[c];
                row[c] = t[c];
                t[c] = tmp;
            }
        }
    }
    free(s.mem);
    return MJ_OK;
}

#undef XVR_NEXT
#if MJ_VEC_BITS == 512
#undef AL
#endif
#undef srli32
#undef min32
#undef min_u32
#undef abs32v
#undef iota

#endif
