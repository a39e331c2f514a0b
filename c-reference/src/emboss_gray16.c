/* Emboss on 16-bit grey (docs/xv-filters-16bit.md 2.5): fill the region with the mid-grey
 * M = (R + 1) / 2 (offset value), interior u' = clamp(M + S/8, 0, R) with S/8 truncated toward
 * zero (xv) or floored (rounding=floor); MONO is the identity on grey. */
#include "mj_internal.h"

static int floor_div8(int s)
{
    int q = s / 8;
    if ((s % 8) != 0 && s < 0)
        q--;
    return q;
}

#define U(xx, yy) mj_g_u(src[mj_g_off((xx), (yy), width)], min)

int mj_emboss_gray16_straightforward(const uint16_t *src, uint16_t *dst, int width, int height,
                                     mj_region r, mj_gray_format fmt, mj_emboss_rounding rounding)
{
    int x, y, min, range, mid;
    const int ex = r.x + r.w - 1, ey = r.y + r.h - 1;

    if (!mj_check_gray_args(src, width, height, r, fmt) || dst == NULL ||
        (rounding != MJ_EMBOSS_ROUNDING_XV && rounding != MJ_EMBOSS_ROUNDING_FLOOR))
        return MJ_ERR_ARG;
    min = mj_g_min(fmt);
    range = mj_g_range(fmt);
    mid = (range + 1) / 2;
    for (y = r.y; y <= ey; y++)
        for (x = r.x; x <= ex; x++)
            dst[mj_g_off(x, y, width)] = mj_g_w(mid, min);
    for (y = r.y + 1; y <= ey - 1; y++) {
        for (x = r.x + 1; x <= ex - 1; x++) {
            int s = 2 * U(x + 1, y + 1) + U(x, y + 1) + U(x + 1, y) - U(x - 1, y) - U(x, y - 1)
                    - 2 * U(x - 1, y - 1);
            int t = rounding == MJ_EMBOSS_ROUNDING_XV ? s / 8 : floor_div8(s);
            dst[mj_g_off(x, y, width)] = mj_g_w(mj_iclamp(mid + t, 0, range), min);
        }
    }
    return MJ_OK;
}

/*
 * Optimized: fill and kernel fused into one pass over the region rows; the clamp is dropped
 * (|S| <= 4R keeps M + T in [0, R] for both roundings) and S/8 takes the division of the
 * rounding asked for, hoisted out of the loop.
 */
int mj_emboss_gray16_optimized(const uint16_t *src, uint16_t *dst, int width, int height,
                               mj_region r, mj_gray_format fmt, mj_emboss_rounding rounding)
{
    int x, y, min, mid;
    uint16_t midw;
    const int ex = r.x + r.w - 1, ey = r.y + r.h - 1;

    if (!mj_check_gray_args(src, width, height, r, fmt) || dst == NULL ||
        (rounding != MJ_EMBOSS_ROUNDING_XV && rounding != MJ_EMBOSS_ROUNDING_FLOOR))
        return MJ_ERR_ARG;
    min = mj_g_min(fmt);
    mid = (mj_g_range(fmt) + 1) / 2;
    midw = mj_g_w(mid, min);
    for (y = r.y; y <= ey; y++) {
        uint16_t *out = dst + mj_g_off(0, y, width);
        const uint16_t *up, *row, *down;
        if (y == r.y || y == ey || r.w < 3) {
            for (x = r.x; x <= ex; x++)
                out[x] = midw;
            continue;
        }
        up = src + mj_g_off(0, y - 1, width);
        row = src + mj_g_off(0, y, width);
        down = src + mj_g_off(0, y + 1, width);
        out[r.x] = midw;
        out[ex] = midw;
        if (rounding == MJ_EMBOSS_ROUNDING_XV) {
            for (x = r.x + 1; x < ex; x++) {
                int s = 2 * mj_g_u(down[x + 1], min) + mj_g_u(down[x], min) + mj_g_u(row[x + 1], min)
                        - mj_g_u(row[x - 1], min) - mj_g_u(up[x], min) - 2 * mj_g_u(up[x - 1], min);
                out[x] = mj_g_w(mid + s / 8, min);
            }
        } else {
            for (x = r.x + 1; x < ex; x++) {
                int s = 2 * mj_g_u(down[x + 1], min) + mj_g_u(down[x], min) + mj_g_u(row[x + 1], min)
                        - mj_g_u(row[x - 1], min) - mj_g_u(up[x], min) - 2 * mj_g_u(up[x - 1], min);
                out[x] = mj_g_w(mid + floor_div8(s), min);
            }
        }
    }
    return MJ_OK;
}
