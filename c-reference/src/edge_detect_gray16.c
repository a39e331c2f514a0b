/* Edge Detect on 16-bit grey (docs/xv-filters-16bit.md 2.4): Prewitt max-norm of the offset
 * values on the interior, written as offset values (no edge = min); frame=black sets the frame
 * to u = 0; maxv = the largest u of the region; if maxv > 0 every u becomes
 * min(R, u * R / maxv) in 64 bits. */
#include <stdlib.h>
#include "mj_internal.h"

#define U(xx, yy) mj_g_u(src[mj_g_off((xx), (yy), width)], min)

int mj_edge_detect_gray16_straightforward(const uint16_t *src, uint16_t *dst, int width,
                                          int height, mj_region r, mj_gray_format fmt,
                                          mj_edge_frame frame)
{
    int x, y, min, range, maxv = 0;
    const int ex = r.x + r.w - 1, ey = r.y + r.h - 1;

    if (!mj_check_gray_args(src, width, height, r, fmt) || dst == NULL ||
        (frame != MJ_EDGE_FRAME_XV && frame != MJ_EDGE_FRAME_BLACK))
        return MJ_ERR_ARG;
    min = mj_g_min(fmt);
    range = mj_g_range(fmt);
    for (y = r.y + 1; y <= ey - 1; y++) {
        for (x = r.x + 1; x <= ex - 1; x++) {
            int gx = (U(x + 1, y - 1) + U(x + 1, y) + U(x + 1, y + 1))
                     - (U(x - 1, y - 1) + U(x - 1, y) + U(x - 1, y + 1));
            int gy = (U(x - 1, y + 1) + U(x, y + 1) + U(x + 1, y + 1))
                     - (U(x - 1, y - 1) + U(x, y - 1) + U(x + 1, y - 1));
            int ax = gx < 0 ? -gx : gx, ay = gy < 0 ? -gy : gy;
            dst[mj_g_off(x, y, width)] = mj_g_w((ax > ay ? ax : ay) / 3, min);
        }
    }
    if (frame == MJ_EDGE_FRAME_BLACK) {
        for (y = r.y; y <= ey; y++)
            for (x = r.x; x <= ex; x++)
                if (x == r.x || y == r.y || x == ex || y == ey)
                    dst[mj_g_off(x, y, width)] = mj_g_w(0, min);
    }
    for (y = r.y; y <= ey; y++)
        for (x = r.x; x <= ex; x++)
            maxv = mj_imax(maxv, mj_g_u(dst[mj_g_off(x, y, width)], min));
    if (maxv > 0) {
        for (y = r.y; y <= ey; y++) {
            for (x = r.x; x <= ex; x++) {
                uint16_t *p = dst + mj_g_off(x, y, width);
                uint64_t v = (uint64_t)mj_g_u(*p, min) * (uint64_t)range / (uint64_t)maxv;
                *p = mj_g_w(v > (uint64_t)range ? range : (int)v, min);
            }
        }
    }
    return MJ_OK;
}

/*
 * Optimized: steps 1 and 2 (and the black frame) fused into one pass that tracks the maximum;
 * the Prewitt sums are separable (C = up + mid + down, D = down - up per column; Gx = C[x+1] -
 * C[x-1], Gy = D[x-1] + D[x] + D[x+1]) with only the right column new per pixel. The stretch
 * is skipped for maxv = 0 or R, and runs through a table of maxv + 1 entries when the region
 * has at least twice as many pixels.
 */
int mj_edge_detect_gray16_optimized(const uint16_t *src, uint16_t *dst, int width, int height,
                                    mj_region r, mj_gray_format fmt, mj_edge_frame frame)
{
    int x, y, min, range, maxv = 0;
    const int ex = r.x + r.w - 1, ey = r.y + r.h - 1;
    const int black = frame == MJ_EDGE_FRAME_BLACK;
    uint16_t blackw;

    if (!mj_check_gray_args(src, width, height, r, fmt) || dst == NULL ||
        (frame != MJ_EDGE_FRAME_XV && frame != MJ_EDGE_FRAME_BLACK))
        return MJ_ERR_ARG;
    min = mj_g_min(fmt);
    range = mj_g_range(fmt);
    blackw = mj_g_w(0, min);
    for (y = r.y; y <= ey; y++) {
        const uint16_t *up, *row, *down;
        uint16_t *out = dst + mj_g_off(0, y, width);
        int c0, d0, c1, d1, a, b, c;
        row = src + mj_g_off(0, y, width);
        if (y == r.y || y == ey || r.w < 3) {
            for (x = r.x; x <= ex; x++) {
                if (black)
                    out[x] = blackw;
                else
                    maxv = mj_imax(maxv, mj_g_u(row[x], min));
            }
            continue;
        }
        if (black) {
            out[r.x] = blackw;
            out[ex] = blackw;
        } else {
            maxv = mj_imax(maxv, mj_imax(mj_g_u(row[r.x], min), mj_g_u(row[ex], min)));
        }
        up = src + mj_g_off(0, y - 1, width);
        down = src + mj_g_off(0, y + 1, width);
        a = mj_g_u(up[r.x], min); b = mj_g_u(row[r.x], min); c = mj_g_u(down[r.x], min);
        c0 = a + b + c; d0 = c - a;
        a = mj_g_u(up[r.x + 1], min); b = mj_g_u(row[r.x + 1], min); c = mj_g_u(down[r.x + 1], min);
        c1 = a + b + c; d1 = c - a;
        for (x = r.x + 1; x < ex; x++) {
            int c2, d2, gx, gy, e;
            a = mj_g_u(up[x + 1], min); b = mj_g_u(row[x + 1], min); c = mj_g_u(down[x + 1], min);
            c2 = a + b + c; d2 = c - a;
            gx = c2 - c0;
            gy = d0 + d1 + d2;
            gx = gx < 0 ? -gx : gx;
            gy = gy < 0 ? -gy : gy;
            e = (gx > gy ? gx : gy) / 3;
            out[x] = mj_g_w(e, min);
            maxv = mj_imax(maxv, e);
            c0 = c1; d0 = d1;
            c1 = c2; d1 = d2;
        }
    }
    if (maxv == 0 || maxv == range)
        return MJ_OK;
    {
        const uint64_t pixels = (uint64_t)r.w * (uint64_t)r.h;
        int *table = NULL, u;
        if (pixels >= 2u * (uint64_t)(maxv + 1)) {
            table = (int *)malloc(((size_t)maxv + 1) * sizeof(int));
            if (table == NULL)
                return MJ_ERR_NOMEM;
            for (u = 0; u <= maxv; u++) {
                uint64_t v = (uint64_t)u * (uint64_t)range / (uint64_t)maxv;
                table[u] = v > (uint64_t)range ? range : (int)v;
            }
        }
        for (y = r.y; y <= ey; y++) {
            uint16_t *out = dst + mj_g_off(0, y, width);
            for (x = r.x; x <= ex; x++) {
                int s;
                u = mj_g_u(out[x], min);
                if (table != NULL) {
                    s = table[u];
                } else {
                    uint64_t v = (uint64_t)u * (uint64_t)range / (uint64_t)maxv;
                    s = v > (uint64_t)range ? range : (int)v;
                }
                out[x] = mj_g_w(s, min);
            }
        }
        free(table);
    }
    return MJ_OK;
}
