/* Blur on 16-bit grey (docs/xv-filters-16bit.md 2.1): floor(sum / count) of the offset values
 * of the n x n window clipped to the region. Sums fit uint32_t: at most 255*255*65535 < 2^32. */
#include <stdlib.h>
#include "mj_internal.h"

static int blur_n_ok(int n) { return n >= 1 && n <= 255 && (n & 1) == 1; }

int mj_blur_gray16_straightforward(const uint16_t *src, uint16_t *dst, int width, int height,
                                   mj_region r, mj_gray_format fmt, int n)
{
    int x, y, xx, yy, h, ex, ey, min;

    if (!mj_check_gray_args(src, width, height, r, fmt) || dst == NULL || !blur_n_ok(n))
        return MJ_ERR_ARG;
    min = mj_g_min(fmt);
    h = n / 2;
    ex = r.x + r.w - 1;
    ey = r.y + r.h - 1;
    for (y = r.y; y <= ey; y++) {
        int y0 = mj_lo(y, h, r.y), y1 = mj_hi(y, h, ey);
        for (x = r.x; x <= ex; x++) {
            int x0 = mj_lo(x, h, r.x), x1 = mj_hi(x, h, ex);
            uint64_t sum = 0;
            uint32_t count = 0;
            for (yy = y0; yy <= y1; yy++) {
                for (xx = x0; xx <= x1; xx++) {
                    sum += (uint64_t)mj_g_u(src[mj_g_off(xx, yy, width)], min);
                    count++;
                }
            }
            dst[mj_g_off(x, y, width)] = mj_g_w((int)(sum / count), min);
        }
    }
    return MJ_OK;
}

/* x / d as (x * m) >> k for every 0 <= x <= maxx: m = ceil(2^k / d), e = m d - 2^k, exact when
 * maxx * e < 2^k (the argument of mj_div24) and maxx * m fits 64 bits. k = 0 means: divide. */
typedef struct {
    uint64_t m;
    int k;
} g_div;

static g_div g_div_make(uint32_t d, uint64_t maxx)
{
    g_div r = {0, 0};
    int k;
    for (k = 1; k <= 63; k++) {
        uint64_t p = (uint64_t)1 << k;
        uint64_t m = (p + d - 1) / d;
        uint64_t e = m * d - p;
        if (maxx * e < p && m <= UINT64_MAX / (maxx > 0 ? maxx : 1)) {
            r.m = m;
            r.k = k;
            return r;
        }
    }
    return r;
}

static inline uint32_t g_div_do(uint32_t x, g_div dv, uint32_t d)
{
    return dv.k ? (uint32_t)(((uint64_t)x * dv.m) >> dv.k) : x / d;
}

/*
 * Optimized: per-column running sums over the clipped vertical window (one add and one
 * subtract of a source row per output row), then a horizontal running sum over those column
 * sums; the interior's division by its constant count is an exact multiply and shift.
 */
int mj_blur_gray16_optimized(const uint16_t *src, uint16_t *dst, int width, int height,
                             mj_region r, mj_gray_format fmt, int n)
{
    const int sw = r.w, sh = r.h;
    int h, y, i, min, wy0, wy1, cy_cached = -1;
    uint32_t *col, range;
    g_div interior = {0, 0};

    if (!mj_check_gray_args(src, width, height, r, fmt) || dst == NULL || !blur_n_ok(n))
        return MJ_ERR_ARG;
    if (n == 1)
        return MJ_OK; /* identity */
    min = mj_g_min(fmt);
    range = (uint32_t)mj_g_range(fmt);
    h = n / 2;
    col = (uint32_t *)calloc((size_t)sw, sizeof(uint32_t));
    if (col == NULL)
        return MJ_ERR_NOMEM;
    wy0 = 0;
    wy1 = -1;
    for (y = 0; y < sh; y++) {
        const int ny0 = mj_lo(y, h, 0), ny1 = mj_hi(y, h, sh - 1);
        uint16_t *out = dst + mj_g_off(r.x, r.y + y, width);
        uint32_t s = 0, cy, dfull;
        int k, lastleft, firstright;

        while (wy1 < ny1) {
            const uint16_t *p = src + mj_g_off(r.x, r.y + (++wy1), width);
            for (k = 0; k < sw; k++)
                col[k] += (uint32_t)mj_g_u(p[k], min);
        }
        while (wy0 < ny0) {
            const uint16_t *p = src + mj_g_off(r.x, r.y + (wy0++), width);
            for (k = 0; k < sw; k++)
                col[k] -= (uint32_t)mj_g_u(p[k], min);
        }
        cy = (uint32_t)(wy1 - wy0 + 1);
        dfull = cy * (uint32_t)n;
        if ((int)cy != cy_cached) {
            interior = g_div_make(dfull, (uint64_t)range * dfull);
            cy_cached = (int)cy;
        }
        for (i = 0; i <= h && i < sw; i++)
            s += col[i];
        lastleft = h < sw - 1 ? h : sw - 1;
        firstright = sw - h > lastleft + 1 ? sw - h : lastleft + 1;
        for (i = 0; i < sw; i++) {
            if (i > 0) {
                if (i <= lastleft || i >= firstright) {
                    if (i <= sw - 1 - h)
                        s += col[i + h];
                    if (i - h - 1 >= 0)
                        s -= col[i - h - 1];
                } else {
                    /* full-window run: constant count n * cy */
                    int j;
                    for (j = i; j < firstright; j++) {
                        s += col[j + h];
                        s -= col[j - h - 1];
                        out[j] = mj_g_w((int)g_div_do(s, interior, dfull), min);
                    }
                    i = firstright - 1;
                    continue;
                }
            }
            {
                const uint32_t cx = (uint32_t)(mj_hi(i, h, sw - 1) - mj_lo(i, h, 0) + 1);
                out[i] = mj_g_w((int)(s / (cx * cy)), min);
            }
        }
    }
    free(col);
    return MJ_OK;
}
