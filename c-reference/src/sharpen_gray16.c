/* Sharpen on 16-bit grey (docs/xv-filters-16bit.md 2.2): on the interior, V = u / R (binary64),
 * v' = (Vc - (f*S)/9) / g with S the nine V summed left to right in row-major order, clamped to
 * [0, 1], u' = floor(v'*R + 0.5). Build with -ffp-contract=off. */
#include <math.h>
#include <stdlib.h>
#include "mj_internal.h"

static double g_value(const uint16_t *src, int x, int y, int width, int min, double range)
{
    return (double)mj_g_u(src[mj_g_off(x, y, width)], min) / range;
}

int mj_sharpen_gray16_straightforward(const uint16_t *src, uint16_t *dst, int width, int height,
                                      mj_region r, mj_gray_format fmt, int p)
{
    int x, y, dx, dy, min;
    double f, g, range;

    if (!mj_check_gray_args(src, width, height, r, fmt) || dst == NULL || p < 0 || p > 99)
        return MJ_ERR_ARG;
    if (r.w < 3 || r.h < 3)
        return MJ_OK;
    min = mj_g_min(fmt);
    range = (double)mj_g_range(fmt);
    f = p / 100.0;
    g = 1.0 - f;
    for (y = r.y + 1; y <= r.y + r.h - 2; y++) {
        for (x = r.x + 1; x <= r.x + r.w - 2; x++) {
            double s = 0.0, v;
            int first = 1;
            for (dy = -1; dy <= 1; dy++) {
                for (dx = -1; dx <= 1; dx++) {
                    double vv = g_value(src, x + dx, y + dy, width, min, range);
                    s = first ? vv : s + vv;
                    first = 0;
                }
            }
            v = (g_value(src, x, y, width, min, range) - (f * s) / 9) / g;
            if (v < 0.0)
                v = 0.0;
            if (v > 1.0)
                v = 1.0;
            dst[mj_g_off(x, y, width)] = mj_g_w((int)floor(v * range + 0.5), min);
        }
    }
    return MJ_OK;
}

/* V of one region row, computed once per pixel */
static void g_values(const uint16_t *row, int n, int min, double range, double *v)
{
    int i;
    for (i = 0; i < n; i++)
        v[i] = (double)mj_g_u(row[i], min) / range;
}

/*
 * Optimized: V once per pixel into three rolling line buffers; the 3x3 window slides through
 * locals and the nine-term sum is re-added in the spec's order; the clamp and
 * floor(v*R + 0.5) of a value >= 0.5 are a conditional and a truncating cast.
 */
int mj_sharpen_gray16_optimized(const uint16_t *src, uint16_t *dst, int width, int height,
                                mj_region r, mj_gray_format fmt, int p)
{
    const int sw = r.w;
    int y, i, min;
    double f, g, range, *buf, *top, *mid, *bot;

    if (!mj_check_gray_args(src, width, height, r, fmt) || dst == NULL || p < 0 || p > 99)
        return MJ_ERR_ARG;
    if (r.w < 3 || r.h < 3)
        return MJ_OK;
    min = mj_g_min(fmt);
    range = (double)mj_g_range(fmt);
    f = p / 100.0;
    g = 1.0 - f;
    buf = (double *)malloc(3 * (size_t)sw * sizeof(double));
    if (buf == NULL)
        return MJ_ERR_NOMEM;
    top = buf;
    mid = buf + sw;
    bot = buf + 2 * (size_t)sw;
    g_values(src + mj_g_off(r.x, r.y, width), sw, min, range, top);
    g_values(src + mj_g_off(r.x, r.y + 1, width), sw, min, range, mid);
    for (y = r.y + 1; y <= r.y + r.h - 2; y++) {
        uint16_t *out = dst + mj_g_off(r.x, y, width);
        double t0 = top[0], t1 = top[1], m0 = mid[0], m1 = mid[1], b0, b1, *spare;
        g_values(src + mj_g_off(r.x, y + 1, width), sw, min, range, bot);
        b0 = bot[0];
        b1 = bot[1];
        for (i = 1; i < sw - 1; i++) {
            const double t2 = top[i + 1], m2 = mid[i + 1], b2 = bot[i + 1];
            double s = t0 + t1 + t2 + m0 + m1 + m2 + b0 + b1 + b2;
            double v = (m1 - (f * s) / 9) / g;
            v = v < 0.0 ? 0.0 : (v > 1.0 ? 1.0 : v);
            out[i] = mj_g_w((int)(v * range + 0.5), min);
            t0 = t1; t1 = t2;
            m0 = m1; m1 = m2;
            b0 = b1; b1 = b2;
        }
        spare = top;
        top = mid;
        mid = bot;
        bot = spare;
    }
    free(buf);
    return MJ_OK;
}
