/*
 * Pixelize (spec 2.7), vectorized; the design of the Java kernel (PixelizeVector) at its vector width: per block
 * row, the per-column (per byte / word) sums of its rows on vectors, up to ROWS_AT_ONCE rows added in registers
 * before a vector of sums is stored (with one row at a time the 32-bit sums, four times the row's bytes, went
 * through memory once per row). 8-bit rows are added on 16-bit lanes (8 rows <= 2040) and widened once into the
 * 32-bit sums (a block row of 65535 rows sums to < 2^24); grey on 32-bit lanes (65535 * 65535 < 2^32). Block sums
 * along the row (64-bit), one division per block and the expansion into a line copied to each row are scalar, as in
 * the optimized port. The scalar path is mj_pixelize_optimized.
 */
#ifndef MJ_VEC_BITS
#include <stdlib.h>
#include <string.h>
#include "mj_simd.h"

/* rows of a block row summed in registers at once: one stream of the image per row in flight */
#define ROWS_AT_ONCE 8

static int pix_args_ok(int a, int b) { return a >= 1 && a <= 65535 && b >= 1 && b <= 65535; }

#if MJ_X86_SIMD /* the helpers of the SIMD kernels, then the kernels at both widths */

/* the grid along one axis: nb blocks of a over len, the first starting `lead` before the region (centred) */
static void grid(int len, int a, int *nb, int *lead)
{
    const long long n = ((long long)len + a - 1) / a;
    *nb = (int)n;
    *lead = (int)((n * a - len) / 2);
}

/* block i's columns [c0, c1) of a region sw wide (clipped) */
static void block_cols(int i, int a, int lead, int sw, int *c0, int *c1)
{
    const long long l = (long long)i * a - lead, h = l + a;
    *c0 = (int)(l < 0 ? 0 : l);
    *c1 = (int)(h > sw ? sw : h);
}

/* 8-bit: the block row's means from its column sums into line (then copied into each of its rows) */
static void means_u8(const uint32_t *col, uint8_t *line, int sw, int nw, int a, int lead, uint64_t rows)
{
    int i, c0, c1, k;
    for (i = 0; i < nw; i++) {
        uint64_t s0 = 0, s1 = 0, s2 = 0, count;
        uint8_t m0, m1, m2;
        block_cols(i, a, lead, sw, &c0, &c1);
        for (k = 3 * c0; k < 3 * c1; k += 3) {
            s0 += col[k];
            s1 += col[k + 1];
            s2 += col[k + 2];
        }
        count = rows * (uint64_t)(c1 - c0);
        m0 = (uint8_t)(s0 / count);
        m1 = (uint8_t)(s1 / count);
        m2 = (uint8_t)(s2 / count);
        for (k = 3 * c0; k < 3 * c1; k += 3) {
            line[k] = m0;
            line[k + 1] = m1;
            line[k + 2] = m2;
        }
    }
}

static void means_g(const uint32_t *col, uint16_t *line, int sw, int nw, int a, int lead, uint64_t rows, int min)
{
    int i, c0, c1, k;
    for (i = 0; i < nw; i++) {
        uint64_t s = 0;
        uint16_t m;
        block_cols(i, a, lead, sw, &c0, &c1);
        for (k = c0; k < c1; k++)
            s += col[k];
        m = mj_g_w((int)(s / (rows * (uint64_t)(c1 - c0))), min);
        for (k = c0; k < c1; k++)
            line[k] = m;
    }
}

#define MJ_VEC_BITS 256
#include "mj_vec.h"
#include "pixelize_vectorized.c"
#include "mj_vec_end.h"
#undef MJ_VEC_BITS
#define MJ_VEC_BITS 512
#include "mj_vec.h"
#include "pixelize_vectorized.c"
#include "mj_vec_end.h"
#undef MJ_VEC_BITS
#endif

int mj_pixelize_vectorized(const uint8_t *src, uint8_t *dst, int width, int height, mj_region r, int block_w,
                           int block_h)
{
    if (!mj_check_args(src, width, height, r) || dst == NULL || !pix_args_ok(block_w, block_h))
        return MJ_ERR_ARG;
    if (block_w == 1 && block_h == 1)
        return MJ_OK; /* every block is one pixel: the identity */
#if MJ_X86_SIMD
    switch (mj_simd()) {
    case MJ_SIMD_AVX512: return pixelize_u8_avx512(src, dst, width, r, block_w, block_h);
    case MJ_SIMD_AVX2: return pixelize_u8_avx2(src, dst, width, r, block_w, block_h);
    default: break;
    }
#endif
    return mj_pixelize_optimized(src, dst, width, height, r, block_w, block_h);
}

int mj_pixelize_gray16_vectorized(const uint16_t *src, uint16_t *dst, int width, int height, mj_region r,
                                  mj_gray_format fmt, int block_w, int block_h)
{
    if (!mj_check_gray_args(src, width, height, r, fmt) || dst == NULL || !pix_args_ok(block_w, block_h))
        return MJ_ERR_ARG;
    if (block_w == 1 && block_h == 1)
        return MJ_OK;
#if MJ_X86_SIMD
    switch (mj_simd()) {
    case MJ_SIMD_AVX512: return pixelize_g_avx512(src, dst, width, r, fmt, block_w, block_h);
    case MJ_SIMD_AVX2: return pixelize_g_avx2(src, dst, width, r, fmt, block_w, block_h);
    default: break;
    }
#endif
    return mj_pixelize_gray16_optimized(src, dst, width, height, r, fmt, block_w, block_h);
}

#else /* ---- the kernels at one vector width (MJ_VEC_BITS), included above ---- */

/* col[k] = sum of the bytes k of `rows` rows from p (stride bytes apart), k in [0, len) */
static void VF(sum_rows_u8)(const uint8_t *p, size_t stride, int rows, uint32_t *col, size_t len)
{
    int r0;
    for (r0 = 0; r0 < rows; r0 += ROWS_AT_ONCE) {
        const int n = rows - r0 < ROWS_AT_ONCE ? rows - r0 : ROWS_AT_ONCE;
        const uint8_t *first = p + (size_t)r0 * stride;
        size_t k = 0;
        for (; k + V16 <= len; k += V16) {
            const uint8_t *q = first + k;
            vi acc = u8_u16(ldh(q)), lo, hi;
            int r;
            for (r = 1; r < n; r++)
                acc = add16(acc, u8_u16(ldh(q + (size_t)r * stride)));
            lo = u16_u32(lo_half(acc));
            hi = u16_u32(hi_half(acc));
            if (r0 > 0) {
                lo = add32(lo, ld(col + k));
                hi = add32(hi, ld(col + k + V32));
            }
            st(col + k, lo);
            st(col + k + V32, hi);
        }
        for (; k < len; k++) {
            uint32_t s = r0 > 0 ? col[k] : 0;
            int r;
            for (r = 0; r < n; r++)
                s += first[(size_t)r * stride + k];
            col[k] = s;
        }
    }
}

static int VF(pixelize_u8)(const uint8_t *src, uint8_t *dst, int width, mj_region r, int block_w, int block_h)
{
    const int sw = r.w, sh = r.h;
    const size_t len = (size_t)sw * 3u;
    int nw, nh, lead_x, lead_y, j, y;
    uint32_t *col = (uint32_t *)malloc(len * sizeof(uint32_t));
    uint8_t *line = (uint8_t *)malloc(len);

    if (col == NULL || line == NULL) {
        free(col);
        free(line);
        return MJ_ERR_NOMEM;
    }
    grid(sw, block_w, &nw, &lead_x);
    grid(sh, block_h, &nh, &lead_y);
    for (j = 0; j < nh; j++) {
        int y0, y1;
        block_cols(j, block_h, lead_y, sh, &y0, &y1);
        VF(sum_rows_u8)(src + mj_off(r.x, r.y + y0, width), (size_t)width * 3u, y1 - y0, col, len);
        means_u8(col, line, sw, nw, block_w, lead_x, (uint64_t)(y1 - y0));
        for (y = y0; y < y1; y++)
            memcpy(dst + mj_off(r.x, r.y + y, width), line, len);
    }
    free(col);
    free(line);
    return MJ_OK;
}

/* grey: col[k] = sum of the offset values k of `rows` rows from p, k in [0, sw) */
static void VF(sum_rows_g)(const uint16_t *p, size_t stride, int rows, uint32_t *col, int sw, int min)
{
    const vh bias = set1h16(-min);
    int r0;
    for (r0 = 0; r0 < rows; r0 += ROWS_AT_ONCE) {
        const int n = rows - r0 < ROWS_AT_ONCE ? rows - r0 : ROWS_AT_ONCE;
        const uint16_t *first = p + (size_t)r0 * stride;
        int k = 0;
        for (; k + V32 <= sw; k += V32) {
            const uint16_t *q = first + k;
            vi acc = r0 > 0 ? ld(col + k) : zero();
            int r;
            for (r = 0; r < n; r++)
                acc = add32(acc, u16_u32(addh16(ldh(q + (size_t)r * stride), bias)));
            st(col + k, acc);
        }
        for (; k < sw; k++) {
            uint32_t s = r0 > 0 ? col[k] : 0;
            int r;
            for (r = 0; r < n; r++)
                s += (uint32_t)mj_g_u(first[(size_t)r * stride + (size_t)k], min);
            col[k] = s;
        }
    }
}

static int VF(pixelize_g)(const uint16_t *src, uint16_t *dst, int width, mj_region r, mj_gray_format fmt,
                          int block_w, int block_h)
{
    const int sw = r.w, sh = r.h, min = mj_g_min(fmt);
    int nw, nh, lead_x, lead_y, j, y;
    uint32_t *col = (uint32_t *)malloc((size_t)sw * sizeof(uint32_t));
    uint16_t *line = (uint16_t *)malloc((size_t)sw * sizeof(uint16_t));

    if (col == NULL || line == NULL) {
        free(col);
        free(line);
        return MJ_ERR_NOMEM;
    }
    grid(sw, block_w, &nw, &lead_x);
    grid(sh, block_h, &nh, &lead_y);
    for (j = 0; j < nh; j++) {
        int y0, y1;
        block_cols(j, block_h, lead_y, sh, &y0, &y1);
        VF(sum_rows_g)(src + mj_g_off(r.x, r.y + y0, width), (size_t)width, y1 - y0, col, sw, min);
        means_g(col, line, sw, nw, block_w, lead_x, (uint64_t)(y1 - y0), min);
        for (y = y0; y < y1; y++)
            memcpy(dst + mj_g_off(r.x, r.y + y, width), line, (size_t)sw * sizeof(uint16_t));
    }
    free(col);
    free(line);
    return MJ_OK;
}

#endif
