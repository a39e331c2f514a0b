/* Oil Painting on 16-bit grey (docs/xv-filters-16bit.md 2.6): the most frequent value of the
 * window clipped to the region, ties to the value occurring first in row-major order; the xv
 * window (odd n -> n + 1, [x-h, x+h-1]) or window=centred ([x-h, x+h], h = n div 2). */
#include <stdlib.h>
#include "mj_internal.h"

static void oil_extents(int n, mj_oil_window window, int *L, int *R)
{
    if (window == MJ_OIL_WINDOW_CENTRED) {
        *L = n / 2;
        *R = n / 2;
    } else {
        int np = (n & 1) ? n + 1 : n;
        *L = np / 2;
        *R = np / 2 - 1;
    }
}

static int oil_args_ok(int n, mj_oil_window window)
{
    return n >= 1 && n <= 31 && (window == MJ_OIL_WINDOW_XV || window == MJ_OIL_WINDOW_CENTRED);
}

int mj_oil_paint_gray16_straightforward(const uint16_t *src, uint16_t *dst, int width, int height,
                                        mj_region r, mj_gray_format fmt, int n,
                                        mj_oil_window window)
{
    const int ex = r.x + r.w - 1, ey = r.y + r.h - 1;
    int L, R, x, y;
    uint16_t cells[32 * 32];

    if (!mj_check_gray_args(src, width, height, r, fmt) || dst == NULL || !oil_args_ok(n, window))
        return MJ_ERR_ARG;
    oil_extents(n, window, &L, &R);
    for (y = r.y; y <= ey; y++) {
        for (x = r.x; x <= ex; x++) {
            int m = 0, i, j, best = 0, bestcount = 0, xx, yy;
            for (yy = mj_lo(y, L, r.y); yy <= mj_hi(y, R, ey); yy++)
                for (xx = mj_lo(x, L, r.x); xx <= mj_hi(x, R, ex); xx++)
                    cells[m++] = src[mj_g_off(xx, yy, width)];
            /* xv's procedure: count the equal cells at or after each cell, keep the first
             * strict maximum */
            for (i = 0; i < m; i++) {
                int cnt = 0;
                for (j = i; j < m; j++)
                    if (cells[j] == cells[i])
                        cnt++;
                if (cnt > bestcount) {
                    bestcount = cnt;
                    best = i;
                }
            }
            dst[mj_g_off(x, y, width)] = cells[best];
        }
    }
    return MJ_OK;
}

/*
 * Optimized: a histogram of 2^b bins indexed by the offset value. Per pixel: count the cells
 * (gathered in row-major order), walk them again and keep the first whose count is strictly
 * larger than the best (xv's tie rule; stops once no later value can win), then reset the
 * cells' bins. O(m) per pixel instead of O(m^2).
 */
int mj_oil_paint_gray16_optimized(const uint16_t *src, uint16_t *dst, int width, int height,
                                  mj_region r, mj_gray_format fmt, int n, mj_oil_window window)
{
    const int ex = r.x + r.w - 1, ey = r.y + r.h - 1;
    int L, R, x, y, min;
    uint32_t *count;
    int cells[32 * 32];

    if (!mj_check_gray_args(src, width, height, r, fmt) || dst == NULL || !oil_args_ok(n, window))
        return MJ_ERR_ARG;
    oil_extents(n, window, &L, &R);
    min = mj_g_min(fmt);
    count = (uint32_t *)calloc((size_t)mj_g_range(fmt) + 1, sizeof(uint32_t));
    if (count == NULL)
        return MJ_ERR_NOMEM;
    for (y = r.y; y <= ey; y++) {
        const int y0 = mj_lo(y, L, r.y), y1 = mj_hi(y, R, ey);
        for (x = r.x; x <= ex; x++) {
            const int x0 = mj_lo(x, L, r.x), x1 = mj_hi(x, R, ex);
            int m = 0, i, xx, yy, mode = 0;
            uint32_t best = 0;
            for (yy = y0; yy <= y1; yy++) {
                const uint16_t *row = src + mj_g_off(0, yy, width);
                for (xx = x0; xx <= x1; xx++) {
                    int u = mj_g_u(row[xx], min);
                    cells[m++] = u;
                    count[u]++;
                }
            }
            for (i = 0; i < m && best < (uint32_t)(m - i); i++) {
                uint32_t c = count[cells[i]];
                if (c > best) {
                    best = c;
                    mode = cells[i];
                }
            }
            for (i = 0; i < m; i++)
                count[cells[i]] = 0;
            dst[mj_g_off(x, y, width)] = mj_g_w(mode, min);
        }
    }
    free(count);
    return MJ_OK;
}
