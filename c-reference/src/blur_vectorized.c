/*
 * Blur (spec 2.1), vectorized; the design of the Java kernel (BlurVector) at its vector width:
 *   - column sums over the clipped vertical window, one add and one subtract of a source row per output row, in
 *     16-bit lanes for 8-bit RGB (a column of n <= 255 bytes sums to at most 65025) and 32-bit lanes for grey;
 *   - for n <= 11 the interior of each row is a direct window sum of n column sums per byte or word (every lane
 *     independent: no running sum), divided by the constant count with an exact multiply and shift: the high half
 *     of a 16 x 16-bit product for 8-bit (window sums 255 n n < 2^15), of a 32 x 32-bit one for grey;
 *   - for larger n (where the direct sum's O(n) per output would lose to a running sum) a scalar pass makes the
 *     row's prefix sums of the column sums (one add per byte), and the window sums are differences of two prefix
 *     sums, divided in 32-bit lanes: more vector work than the Java kernel, whose output is scalar there;
 *   - border columns (clipped windows) and tails shorter than a vector are scalar.
 * The scalar path is mj_blur_optimized / mj_blur_gray16_optimized. Byte-identical with the straightforward port.
 */
#ifndef MJ_VEC_BITS
#include <stdlib.h>
#include "mj_simd.h"

/* the largest n whose interior is a direct window sum (255 n n < 2^15: 16-bit lanes) */
#define MAX_DIRECT_N 11

static int blur_n_ok(int n) { return n >= 1 && n <= 255 && (n & 1) == 1; }

#if MJ_X86_SIMD /* the helpers of the SIMD kernels, then the kernels at both widths */

/* 8-bit: byte j of a row from its full window [j - 3h, j + 3h] (step 3) of column sums */
static inline uint32_t window_u8(const uint16_t *col, size_t j, int h)
{
    uint32_t s = 0;
    int d;
    for (d = -h; d <= h; d++)
        s += col[(ptrdiff_t)j + 3 * d];
    return s;
}

/* 8-bit output of region column i whose window is clipped to [c0, c1]: direct sums and divisions */
static void border_u8(const uint16_t *col, uint8_t *out, int i, int c0, int c1, int cy)
{
    const uint32_t count = (uint32_t)(cy * (c1 - c0 + 1));
    int c, ch;
    for (ch = 0; ch < 3; ch++) {
        uint32_t s = 0;
        for (c = c0; c <= c1; c++)
            s += col[3 * c + ch];
        out[3 * i + ch] = (uint8_t)(s / count);
    }
}

/* 8-bit, n > MAX_DIRECT_N: pre[3 + j] = col[j] + col[j - 3] + ... (per channel; pre[0..2] = 0), so that a window
 * sum is a difference of two entries; made by a vector scan (prefix_u8 below), the differences and divisions then
 * go on vectors too. Sums mod 2^32 are exact. Grey: pre[1 + i] = col[i] + ... + col[0] (pre[0] = 0). */

/* 8-bit output of region column i with window [c0, c1] from the prefix sums */
static void border_pre_u8(const uint32_t *pre, uint8_t *out, int i, int c0, int c1, int cy)
{
    const uint32_t count = (uint32_t)(cy * (c1 - c0 + 1));
    int ch;
    for (ch = 0; ch < 3; ch++)
        out[3 * i + ch] = (uint8_t)((pre[3 * c1 + 3 + ch] - pre[3 * c0 + ch]) / count);
}

/* grey output of region column i with window [c0, c1] from the prefix sums */
static void border_pre_g(const uint32_t *pre, uint16_t *out, int i, int c0, int c1, int cy, int min)
{
    out[i] = mj_g_w((int)((pre[c1 + 1] - pre[c0]) / (uint32_t)(cy * (c1 - c0 + 1))), min);
}

/* grey output of region column i whose window is clipped to [c0, c1] */
static void border_g(const uint32_t *col, uint16_t *out, int i, int c0, int c1, int cy, int min)
{
    uint32_t s = 0;
    int c;
    for (c = c0; c <= c1; c++)
        s += col[c];
    out[i] = mj_g_w((int)(s / (uint32_t)(cy * (c1 - c0 + 1))), min);
}

#define MJ_VEC_BITS 256
#include "mj_vec.h"
#include "blur_vectorized.c"
#include "mj_vec_end.h"
#undef MJ_VEC_BITS
#define MJ_VEC_BITS 512
#include "mj_vec.h"
#include "blur_vectorized.c"
#include "mj_vec_end.h"
#undef MJ_VEC_BITS
#endif

int mj_blur_vectorized(const uint8_t *src, uint8_t *dst, int width, int height, mj_region r, int n)
{
    if (!mj_check_args(src, width, height, r) || dst == NULL || !blur_n_ok(n))
        return MJ_ERR_ARG;
    if (n == 1)
        return MJ_OK; /* identity */
#if MJ_X86_SIMD
    switch (mj_simd()) {
    case MJ_SIMD_AVX512: return blur_u8_avx512(src, dst, width, r, n);
    case MJ_SIMD_AVX2: return blur_u8_avx2(src, dst, width, r, n);
    default: break;
    }
#endif
    return mj_blur_optimized(src, dst, width, height, r, n);
}

int mj_blur_gray16_vectorized(const uint16_t *src, uint16_t *dst, int width, int height, mj_region r,
                              mj_gray_format fmt, int n)
{
    if (!mj_check_gray_args(src, width, height, r, fmt) || dst == NULL || !blur_n_ok(n))
        return MJ_ERR_ARG;
    if (n == 1)
        return MJ_OK;
#if MJ_X86_SIMD
    switch (mj_simd()) {
    case MJ_SIMD_AVX512: return blur_g_avx512(src, dst, width, r, fmt, n);
    case MJ_SIMD_AVX2: return blur_g_avx2(src, dst, width, r, fmt, n);
    default: break;
    }
#endif
    return mj_blur_gray16_optimized(src, dst, width, height, r, fmt, n);
}

#else /* ---- the kernels at one vector width (MJ_VEC_BITS), included above ---- */

/* col[k] += add[k] - sub[k] over len bytes (add or sub may be NULL); 16-bit sums wrap, the final ones are exact */
static void VF(cols_u8)(uint16_t *col, const uint8_t *add, const uint8_t *sub, size_t len)
{
    size_t k = 0;
    if (add != NULL && sub != NULL) {
        for (; k + V16 <= len; k += V16)
            st(col + k, sub16(add16(ld(col + k), u8_u16(ldh(add + k))), u8_u16(ldh(sub + k))));
        for (; k < len; k++)
            col[k] = (uint16_t)(col[k] + add[k] - sub[k]);
    } else if (add != NULL) {
        for (; k + V16 <= len; k += V16)
            st(col + k, add16(ld(col + k), u8_u16(ldh(add + k))));
        for (; k < len; k++)
            col[k] = (uint16_t)(col[k] + add[k]);
    } else {
        for (; k + V16 <= len; k += V16)
            st(col + k, sub16(ld(col + k), u8_u16(ldh(sub + k))));
        for (; k < len; k++)
            col[k] = (uint16_t)(col[k] - sub[k]);
    }
}

/* interior bytes [j, end): (window sum * m) >> (16 + s), the high half of the product then a shift; returns the
 * first byte not written (a tail shorter than a vector) */
static size_t VF(interior_u8)(const uint16_t *col, uint8_t *out, size_t j, size_t end, int h, div_mk dv)
{
    const vi m = set1_16((uint16_t)dv.m);
    const __m128i s = _mm_cvtsi32_si128(dv.k - 16);
    if (h == 1) { /* n = 3, the default: three loads */
        for (; j + V16 <= end; j += V16) {
            const vi sum = add16(add16(ld(col + j - 3), ld(col + j)), ld(col + j + 3));
            sth(out + j, u16_u8(srl16(mulhi16(sum, m), s)));
        }
    } else {
        for (; j + V16 <= end; j += V16) {
            const uint16_t *c = col + j - 3 * h;
            vi sum = ld(c);
            int d;
            for (d = 1; d <= 2 * h; d++)
                sum = add16(sum, ld(c + 3 * d));
            sth(out + j, u16_u8(srl16(mulhi16(sum, m), s)));
        }
    }
    return j;
}

#if MJ_VEC_BITS == 512
#define shift_up32(x, s) _mm512_alignr_epi32((x), _mm512_setzero_si512(), 16 - (s)) /* lane t <- t - s, 0 below */
#define lanes32(idx, x) _mm512_permutexvar_epi32((idx), (x))
#else
static inline __m256i VF(shift_up32)(__m256i x, int s)
{
    const __m256i t = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i idx = _mm256_sub_epi32(t, _mm256_set1_epi32(s));
    return _mm256_and_si256(_mm256_permutevar8x32_epi32(x, idx), _mm256_cmpgt_epi32(t, _mm256_set1_epi32(s - 1)));
}
#define shift_up32(x, s) VF(shift_up32)((x), (s))
#define lanes32(idx, x) _mm256_permutevar8x32_epi32((x), (idx))
#endif

/* prefix_u8 on vectors: a scan with stride 3 inside the vector (shifted adds), plus each lane's carry, the previous
 * vector's last lane of the same channel (lane V32 - 3 + t mod 3) */
static void VF(prefix_u8)(const uint16_t *col, uint32_t *pre, size_t len)
{
    uint32_t idx[V32];
    vi carry_idx, last = zero();
    size_t j = 0;
    int t;
    for (t = 0; t < V32; t++)
        idx[t] = (uint32_t)(V32 - 3 + t % 3);
    carry_idx = ld(idx);
    for (; j + V32 <= len; j += V32) {
        vi x = u16_u32(ldh(col + j));
        x = add32(x, shift_up32(x, 3));
        x = add32(x, shift_up32(x, 6));
        if (V32 > 9)
            x = add32(x, shift_up32(x, 12));
        last = add32(x, lanes32(carry_idx, last));
        st(pre + j + 3, last);
    }
    for (; j < len; j++)
        pre[j + 3] = pre[j] + col[j];
}

/* prefix_g on vectors: a scan inside the vector, plus the previous vector's last lane */
static void VF(prefix_g)(const uint32_t *col, uint32_t *pre, int sw)
{
    const vi top = set1_32(V32 - 1);
    vi last = zero();
    int i = 0;
    for (; i + V32 <= sw; i += V32) {
        vi x = ld(col + i);
        x = add32(x, shift_up32(x, 1));
        x = add32(x, shift_up32(x, 2));
        x = add32(x, shift_up32(x, 4));
        if (V32 > 8)
            x = add32(x, shift_up32(x, 8));
        last = add32(x, lanes32(top, last));
        st(pre + i + 1, last);
    }
    for (; i < sw; i++)
        pre[i + 1] = pre[i] + col[i];
}

/* n > MAX_DIRECT_N: interior bytes [j, end) from the prefix sums (pre[j + 3h + 3] - pre[j - 3h]), divided in 32-bit
 * lanes; returns the first byte not written */
static size_t VF(interior_pre_u8)(const uint32_t *pre, uint8_t *out, size_t j, size_t end, int h, div_mk dv)
{
    const VF(divq_t) q = VF(divq_make)(dv);
    for (; j + V32 <= end; j += V32)
        st_u32_u8(out + j, VF(divq)(sub32(ld(pre + j + 3 * h + 3), ld(pre + j - 3 * h)), q));
    return j;
}

/* n > MAX_DIRECT_N: one output row from the column sums through their prefix sums */
static void VF(row_pre_u8)(const uint16_t *col, uint32_t *pre, uint8_t *out, int sw, int h, int cy, div_mk dv)
{
    const int left_end = h < sw ? h : sw, mid_end = sw - h > left_end ? sw - h : left_end;
    int i;
    VF(prefix_u8)(col, pre, 3 * (size_t)sw);
    for (i = 0; i < left_end; i++)
        border_pre_u8(pre, out, i, 0, mj_hi(i, h, sw - 1), cy);
    for (i = mid_end; i < sw; i++)
        border_pre_u8(pre, out, i, mj_lo(i, h, 0), sw - 1, cy);
    i = left_end;
    if (dv.k != 0)
        i = (int)(VF(interior_pre_u8)(pre, out, 3 * (size_t)left_end, 3 * (size_t)mid_end, h, dv) / 3);
    /* the tail: whole pixels from i (a vector may have ended inside one: rewrite it, same values) */
    for (; i < mid_end; i++)
        border_pre_u8(pre, out, i, i - h, i + h, cy);
}

static int VF(blur_u8)(const uint8_t *src, uint8_t *dst, int width, mj_region r, int n)
{
    const int sw = r.w, sh = r.h, h = n / 2;
    const size_t len = (size_t)sw * 3u;
    const int left_end = h < sw ? h : sw, mid_end = sw - h > left_end ? sw - h : left_end;
    int y, i, wy0 = 0, wy1 = -1, cy_cached = -1;
    div_mk dv = {0, 0};
    uint16_t *col = (uint16_t *)calloc(len, sizeof(uint16_t));
    uint32_t *pre = n > MAX_DIRECT_N ? (uint32_t *)calloc(len + 3, sizeof(uint32_t)) : NULL;

    if (col == NULL || (n > MAX_DIRECT_N && pre == NULL)) {
        free(col);
        free(pre);
        return MJ_ERR_NOMEM;
    }
    for (y = 0; y < sh; y++) {
        const int ny0 = mj_lo(y, h, 0), ny1 = mj_hi(y, h, sh - 1);
        uint8_t *out = dst + mj_off(r.x, r.y + y, width);
        int cy;
        while (wy1 < ny1 || wy0 < ny0) { /* one row in and one out per step where both move */
            const uint8_t *a = wy1 < ny1 ? src + mj_off(r.x, r.y + (++wy1), width) : NULL;
            const uint8_t *s = wy0 < ny0 ? src + mj_off(r.x, r.y + (wy0++), width) : NULL;
            VF(cols_u8)(col, a, s, len);
        }
        cy = wy1 - wy0 + 1;
        if (cy != cy_cached) { /* 16-bit multiplier for the direct sums, 32-bit for the prefix sums */
            const uint32_t d = (uint32_t)(cy * n);
            dv = n > MAX_DIRECT_N ? div_make(d, 255u * d, 0, MJ_DIV_MMAX) : div_make(d, 255u * d, 16, 65535);
            cy_cached = cy;
        }
        if (n > MAX_DIRECT_N) {
            VF(row_pre_u8)(col, pre, out, sw, h, cy, dv);
            continue;
        }
        for (i = 0; i < left_end; i++)
            border_u8(col, out, i, 0, mj_hi(i, h, sw - 1), cy);
        for (i = mid_end; i < sw; i++)
            border_u8(col, out, i, mj_lo(i, h, 0), sw - 1, cy);
        {
            size_t j = 3 * (size_t)left_end;
            const size_t end = 3 * (size_t)mid_end;
            if (dv.k != 0)
                j = VF(interior_u8)(col, out, j, end, h, dv);
            for (; j < end; j++)
                out[j] = (uint8_t)(window_u8(col, j, h) / (uint32_t)(cy * n));
        }
    }
    free(col);
    free(pre);
    return MJ_OK;
}

/* col[k] += u(add[k]) - u(sub[k]) over sw words, u = word - min (a 16-bit add of -min before widening) */
static void VF(cols_g)(uint32_t *col, const uint16_t *add, const uint16_t *sub, int sw, int min)
{
    const vh bias = set1h16(-min);
    int k = 0;
    if (add != NULL && sub != NULL) {
        for (; k + V32 <= sw; k += V32)
            st(col + k, sub32(add32(ld(col + k), u16_u32(addh16(ldh(add + k), bias))),
                              u16_u32(addh16(ldh(sub + k), bias))));
    } else if (add != NULL) {
        for (; k + V32 <= sw; k += V32)
            st(col + k, add32(ld(col + k), u16_u32(addh16(ldh(add + k), bias))));
    } else {
        for (; k + V32 <= sw; k += V32)
            st(col + k, sub32(ld(col + k), u16_u32(addh16(ldh(sub + k), bias))));
    }
    for (; k < sw; k++)
        col[k] = col[k] + (add != NULL ? (uint32_t)mj_g_u(add[k], min) : 0u)
                 - (sub != NULL ? (uint32_t)mj_g_u(sub[k], min) : 0u);
}

/* interior words [i, end): window sums of 2h + 1 column sums, divided; returns the first word not written */
static int VF(interior_g)(const uint32_t *col, uint16_t *out, int i, int end, int h, div_mk dv, int min)
{
    const VF(divq_t) q = VF(divq_make)(dv);
    const vh bias = set1h16(min);
    for (; i + V32 <= end; i += V32) {
        const uint32_t *c = col + i - h;
        vi sum = ld(c);
        int d;
        for (d = 1; d <= 2 * h; d++)
            sum = add32(sum, ld(c + d));
        sth(out + i, addh16(u32_u16(VF(divq)(sum, q)), bias));
    }
    return i;
}

/* n > MAX_DIRECT_N: interior words [i, end) from the prefix sums; returns the first word not written */
static int VF(interior_pre_g)(const uint32_t *pre, uint16_t *out, int i, int end, int h, div_mk dv, int min)
{
    const VF(divq_t) q = VF(divq_make)(dv);
    const vh bias = set1h16(min);
    for (; i + V32 <= end; i += V32)
        sth(out + i, addh16(u32_u16(VF(divq)(sub32(ld(pre + i + h + 1), ld(pre + i - h)), q)), bias));
    return i;
}

static void VF(row_pre_g)(const uint32_t *col, uint32_t *pre, uint16_t *out, int sw, int h, int cy, div_mk dv,
                          int min)
{
    const int left_end = h < sw ? h : sw, mid_end = sw - h > left_end ? sw - h : left_end;
    int i;
    VF(prefix_g)(col, pre, sw);
    for (i = 0; i < left_end; i++)
        border_pre_g(pre, out, i, 0, mj_hi(i, h, sw - 1), cy, min);
    for (i = mid_end; i < sw; i++)
        border_pre_g(pre, out, i, mj_lo(i, h, 0), sw - 1, cy, min);
    i = dv.k != 0 ? VF(interior_pre_g)(pre, out, left_end, mid_end, h, dv, min) : left_end;
    for (; i < mid_end; i++)
        border_pre_g(pre, out, i, i - h, i + h, cy, min);
}

static int VF(blur_g)(const uint16_t *src, uint16_t *dst, int width, mj_region r, mj_gray_format fmt, int n)
{
    const int sw = r.w, sh = r.h, h = n / 2, min = mj_g_min(fmt);
    const uint32_t range = (uint32_t)mj_g_range(fmt);
    const int left_end = h < sw ? h : sw, mid_end = sw - h > left_end ? sw - h : left_end;
    int y, i, wy0 = 0, wy1 = -1, cy_cached = -1;
    div_mk dv = {0, 0};
    uint32_t *col = (uint32_t *)calloc((size_t)sw, sizeof(uint32_t));
    uint32_t *pre = n > MAX_DIRECT_N ? (uint32_t *)calloc((size_t)sw + 1, sizeof(uint32_t)) : NULL;

    if (col == NULL || (n > MAX_DIRECT_N && pre == NULL)) {
        free(col);
        free(pre);
        return MJ_ERR_NOMEM;
    }
    for (y = 0; y < sh; y++) {
        const int ny0 = mj_lo(y, h, 0), ny1 = mj_hi(y, h, sh - 1);
        uint16_t *out = dst + mj_g_off(r.x, r.y + y, width);
        int cy;
        while (wy1 < ny1 || wy0 < ny0) {
            const uint16_t *a = wy1 < ny1 ? src + mj_g_off(r.x, r.y + (++wy1), width) : NULL;
            const uint16_t *s = wy0 < ny0 ? src + mj_g_off(r.x, r.y + (wy0++), width) : NULL;
            VF(cols_g)(col, a, s, sw, min);
        }
        cy = wy1 - wy0 + 1;
        if (cy != cy_cached) {
            const uint32_t d = (uint32_t)(cy * n);
            dv = div_make(d, (uint64_t)range * d, 0, MJ_DIV_MMAX);
            cy_cached = cy;
        }
        if (n > MAX_DIRECT_N) {
            VF(row_pre_g)(col, pre, out, sw, h, cy, dv, min);
            continue;
        }
        for (i = 0; i < left_end; i++)
            border_g(col, out, i, 0, mj_hi(i, h, sw - 1), cy, min);
        for (i = mid_end; i < sw; i++)
            border_g(col, out, i, mj_lo(i, h, 0), sw - 1, cy, min);
        i = dv.k != 0 ? VF(interior_g)(col, out, left_end, mid_end, h, dv, min) : left_end;
        for (; i < mid_end; i++)
            border_g(col, out, i, i - h, i + h, cy, min);
    }
    free(col);
    free(pre);
    return MJ_OK;
}

#undef shift_up32
#undef lanes32

#endif
