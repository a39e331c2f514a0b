/* Blur (spec 2.1): floor(sum / count) over the n x n window clipped to the region. */
#include <stdlib.h>
#include "mj_internal.h"

static int blur_n_ok(int n) { return n >= 1 && n <= 255 && (n & 1) == 1; }

int mj_blur_straightforward(const uint8_t *src, uint8_t *dst, int width, int height,
                            mj_region r, int n)
{
    int x, y, xx, yy, c;
    int h, ex, ey;

    if (!mj_check_args(src, width, height, r) || dst == NULL || !blur_n_ok(n))
        return MJ_ERR_ARG;
    h = n / 2;
    ex = r.x + r.w - 1;
    ey = r.y + r.h - 1;
    for (y = r.y; y <= ey; y++) {
        int y0 = mj_lo(y, h, r.y), y1 = mj_hi(y, h, ey);
        for (x = r.x; x <= ex; x++) {
            int x0 = mj_lo(x, h, r.x), x1 = mj_hi(x, h, ex);
            int sum[3] = {0, 0, 0};
            int count = 0;
            for (yy = y0; yy <= y1; yy++) {
                for (xx = x0; xx <= x1; xx++) {
                    const uint8_t *p = src + mj_off(xx, yy, width);
                    sum[0] += p[0];
                    sum[1] += p[1];
                    sum[2] += p[2];
                    count++;
                }
            }
            for (c = 0; c < 3; c++)
                dst[mj_off(x, y, width) + (size_t)c] = (uint8_t)(sum[c] / count);
        }
    }
    return MJ_OK;
}

/*
 * Optimized: per-column running sums over the clipped vertical window (one add and one
 * subtract of a source row per output row), then a horizontal running sum over those
 * column sums. The per-pixel division uses exact multiply-shift reciprocals (mj_div24):
 * sums are < 255 * 255 * 255 < 2^24 and counts <= 65025.
 */
int mj_blur_optimized(const uint8_t *src, uint8_t *dst, int width, int height,
                      mj_region r, int n)
{
    const int sw = r.w, sh = r.h;
    const size_t rowlen = (size_t)sw * 3u;
    int h, y, i, cy_cached = -1, wy0, wy1;
    uint32_t *col;
    uint64_t magic[256];

    if (!mj_check_args(src, width, height, r) || dst == NULL || !blur_n_ok(n))
        return MJ_ERR_ARG;
    if (n == 1)
        return MJ_OK; /* identity */
    h = n / 2;
    col = (uint32_t *)calloc(rowlen, sizeof(uint32_t));
    if (col == NULL)
        return MJ_ERR_NOMEM;

    /* current vertical window, relative rows [wy0, wy1] (empty at first) */
    wy0 = 0;
    wy1 = -1;
    for (y = 0; y < sh; y++) {
        const int ny0 = mj_lo(y, h, 0), ny1 = mj_hi(y, h, sh - 1);
        int cy, cxmax, lastleft, firstright;
        uint32_t a0 = 0, a1 = 0, a2 = 0;
        uint64_t mfast;
        uint8_t *out = dst + mj_off(r.x, r.y + y, width);
        size_t k;

        while (wy1 < ny1) {
            const uint8_t *s = src + mj_off(r.x, r.y + (++wy1), width);
            for (k = 0; k < rowlen; k++)
                col[k] += s[k];
        }
        while (wy0 < ny0) {
            const uint8_t *s = src + mj_off(r.x, r.y + (wy0++), width);
            for (k = 0; k < rowlen; k++)
                col[k] -= s[k];
        }
        cy = wy1 - wy0 + 1;
        cxmax = n < sw ? n : sw;
        if (cy != cy_cached) {
            int cx;
            for (cx = 1; cx <= cxmax; cx++)
                magic[cx] = mj_magic24((uint32_t)(cx * cy));
            cy_cached = cy;
        }
        mfast = magic[cxmax];

        /* window for i = 0: columns [0, min(h, sw-1)] */
        for (i = 0; i <= h && i < sw; i++) {
            a0 += col[3 * (size_t)i];
            a1 += col[3 * (size_t)i + 1];
            a2 += col[3 * (size_t)i + 2];
        }
        /* i in [0, lastleft]: left part (window clipped on the left, maybe also right);
         * i in (lastleft, firstright): full window; i in [firstright, sw): right part. */
        lastleft = h < sw - 1 ? h : sw - 1;
        firstright = sw - h > lastleft + 1 ? sw - h : lastleft + 1;
        for (i = 0; i < sw; i++) {
            uint64_t m;
            if (i > 0) {
                if (i <= lastleft || i >= firstright) {
                    if (i <= sw - 1 - h) { /* i + h < sw */
                        const uint32_t *cadd = col + 3 * (size_t)(i + h);
                        a0 += cadd[0]; a1 += cadd[1]; a2 += cadd[2];
                    }
                    if (i - h - 1 >= 0) {
                        const uint32_t *csub = col + 3 * (size_t)(i - h - 1);
                        a0 -= csub[0]; a1 -= csub[1]; a2 -= csub[2];
                    }
                } else {
                    /* full-window run: no bounds checks, constant count n * cy */
                    const uint32_t *cadd = col + 3 * (size_t)(i + h);
                    const uint32_t *csub = col + 3 * (size_t)(i - h - 1);
                    uint8_t *o = out + 3 * (size_t)i;
                    int j, end = firstright;
                    for (j = i; j < end; j++) {
                        a0 += cadd[0]; a1 += cadd[1]; a2 += cadd[2];
                        a0 -= csub[0]; a1 -= csub[1]; a2 -= csub[2];
                        o[0] = (uint8_t)mj_div24(a0, mfast);
                        o[1] = (uint8_t)mj_div24(a1, mfast);
                        o[2] = (uint8_t)mj_div24(a2, mfast);
                        cadd += 3; csub += 3; o += 3;
                    }
                    i = end - 1;
                    continue;
                }
            }
            {
                const int cx = mj_hi(i, h, sw - 1) - mj_lo(i, h, 0) + 1;
                m = magic[cx];
                out[3 * (size_t)i] = (uint8_t)mj_div24(a0, m);
                out[3 * (size_t)i + 1] = (uint8_t)mj_div24(a1, m);
                out[3 * (size_t)i + 2] = (uint8_t)mj_div24(a2, m);
            }
        }
    }
    free(col);
    return MJ_OK;
}
