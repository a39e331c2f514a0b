/*
 * Spread (spec 2.8): in place on the output buffer, raster order, two XVR draws per pixel
 * (R1 for x, R2 for y), "value mod range" mapping, swap with the chosen pixel.
 * Diamond mode (radius d): y range restricted by r = d - |x1 - x|. Box mode: +-A, +-B.
 */
#include <stdlib.h>
#include <string.h>
#include "mj_internal.h"

int mj_spread_args_ok(mj_spread_mode mode, int a, int b, uint32_t seed)
{
    if (mode != MJ_SPREAD_DIAMOND && mode != MJ_SPREAD_BOX)
        return 0;
    if (a < 0 || a > 65535 || seed > 2147483647u)
        return 0;
    if (mode == MJ_SPREAD_BOX && (b < 0 || b > 65535))
        return 0;
    return 1;
}

static void swap_px(uint8_t *p, uint8_t *q)
{
    int c;
    for (c = 0; c < 3; c++) {
        uint8_t t = p[c];
        p[c] = q[c];
        q[c] = t;
    }
}

int mj_spread_straightforward(uint8_t *img, int width, int height, mj_region r,
                              mj_spread_mode mode, int a, int b, uint32_t seed)
{
    const int ex = r.x + r.w - 1, ey = r.y + r.h - 1;
    int x, y;
    mj_xvr g;

    if (!mj_check_args(img, width, height, r) || !mj_spread_args_ok(mode, a, b, seed))
        return MJ_ERR_ARG;
    if (mode == MJ_SPREAD_DIAMOND)
        b = a;
    if (a == 0 && b == 0)
        return MJ_OK; /* "0" / "0x0": does nothing */
    mj_xvr_seed(&g, seed);
    for (y = r.y; y <= ey; y++) {
        for (x = r.x; x <= ex; x++) {
            uint32_t r1 = mj_xvr_next(&g);
            uint32_t r2 = mj_xvr_next(&g);
            int xlo = mj_lo(x, a, r.x), xhi = mj_hi(x, a, ex);
            int x1 = xlo + (int)(r1 % (uint32_t)(xhi - xlo + 1));
            int ylo = mj_lo(y, b, r.y), yhi = mj_hi(y, b, ey);
            int y1;
            if (mode == MJ_SPREAD_DIAMOND) {
                int rr = a - (x1 > x ? x1 - x : x - x1);
                ylo = mj_lo(y, rr, ylo); /* max(ylo, y - rr) */
                yhi = mj_hi(y, rr, yhi); /* min(yhi, y + rr) */
            }
            y1 = ylo + (int)(r2 % (uint32_t)(yhi - ylo + 1));
            swap_px(img + mj_off(x, y, width), img + mj_off(x1, y1, width));
        }
    }
    return MJ_OK;
}

/* ---------------------------------------------------------------------------------- */
/* optimized                                                                           */

/*
 * Remainder by a runtime divisor via a precomputed 64-bit reciprocal (Lemire, Kaser and
 * Kurz, "Faster remainder by direct computation", 2019): for 32-bit a and d,
 * a mod d == ((M * a mod 2^64) * d) >> 64 with M = floor((2^64 - 1) / d) + 1 (M wraps to 0
 * for d = 1, which correctly yields 0).
 */
#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 mj_u128;
static inline uint32_t fastmod(uint32_t a, uint64_t M, uint32_t d)
{
    uint64_t low = M * a;
    return (uint32_t)(((mj_u128)low * d) >> 64);
}
static inline uint64_t fastmod_magic(uint32_t d) { return UINT64_MAX / d + 1; }
#else
static inline uint32_t fastmod(uint32_t a, uint64_t M, uint32_t d) { (void)M; return a % d; }
static inline uint64_t fastmod_magic(uint32_t d) { (void)d; return 0; }
#endif

/*
 * XVR generated a row at a time into a linear buffer: ext[0..30] holds the last 31 values
 * r[i-31..i-1]; ext[31 + j] = ext[j] + ext[j + 28] (= r[i-31] + r[i-3]) needs no index
 * wrapping; afterwards the last 31 values move to the front.
 */
static void ext_seed(uint32_t *ext, uint32_t seed)
{
    mj_xvr g;
    uint32_t k;
    mj_xvr_seed(&g, seed);
    for (k = 0; k < 31; k++) /* r[g.i - 31 + k] */
        ext[k] = g.r[(g.i - 31 + k) % 34];
}

static void ext_fill(uint32_t *ext, size_t n)
{
    /* r[i-3], r[i-2], r[i-1] stay in registers: no reloading of just-stored values (which a
     * vectorizing compiler would otherwise turn into store-forwarding stalls) */
    uint32_t m3 = ext[28], m2 = ext[29], m1 = ext[30];
    size_t j;
    for (j = 0; j < n; j++) {
        const uint32_t v = ext[j] + m3;
        ext[31 + j] = v;
        m3 = m2;
        m2 = m1;
        m1 = v;
    }
}

static void ext_shift(uint32_t *ext, size_t n)
{
    memmove(ext, ext + n, 31 * sizeof(uint32_t));
}

/*
 * One allocation for both optimized kernels: fastmod reciprocals for every range size up to the largest a window can
 * have (ranges never exceed min(2a+1, sw) and min(2b+1, sh)) and the 31 + 2 * sw XVR values of ext_fill, seeded.
 * Returns the block to free, or NULL when out of memory.
 */
static void *spread_tables(int sw, int sh, int a, int b, uint32_t seed, uint64_t **magic, uint32_t **rnd)
{
    uint32_t maxrange = (uint32_t)(sw > sh ? sw : sh), d;
    void *mem;

    if (maxrange > 2u * (uint32_t)(a > b ? a : b) + 1u)
        maxrange = 2u * (uint32_t)(a > b ? a : b) + 1u;
    mem = malloc(((size_t)maxrange + 1) * sizeof(uint64_t) + (31u + 2u * (size_t)sw) * sizeof(uint32_t));
    if (mem == NULL)
        return NULL;
    *magic = (uint64_t *)mem;
    *rnd = (uint32_t *)(*magic + maxrange + 1);
    for (d = 1; d <= maxrange; d++)
        (*magic)[d] = fastmod_magic(d);
    ext_seed(*rnd, seed);
    return mem;
}

int mj_spread_optimized(uint8_t *img, int width, int height, mj_region r,
                        mj_spread_mode mode, int a, int b, uint32_t seed)
{
    const int sw = r.w, sh = r.h, ex = r.x + sw - 1, ey = r.y + sh - 1;
    const int diamond = (mode == MJ_SPREAD_DIAMOND);
    uint32_t *rnd;   /* 31 + 2 * sw XVR values, see ext_fill */
    uint64_t *magic; /* fastmod reciprocals by range size */
    int x, y;
    void *mem;

    if (!mj_check_args(img, width, height, r) || !mj_spread_args_ok(mode, a, b, seed))
        return MJ_ERR_ARG;
    if (diamond)
        b = a;
    if (a == 0 && b == 0)
        return MJ_OK; /* every swap would be a self-swap */
    mem = spread_tables(sw, sh, a, b, seed, &magic, &rnd);
    if (mem == NULL)
        return MJ_ERR_NOMEM;

    for (y = r.y; y <= ey; y++) {
        const int bylo = mj_lo(y, b, r.y), byhi = mj_hi(y, b, ey);
        const uint32_t *rp = rnd + 31;
        uint8_t *row = img + mj_off(r.x, y, width);
        ext_fill(rnd, 2u * (size_t)sw);
        for (x = r.x; x <= ex; x++, rp += 2, row += 3) {
            const int xlo = mj_lo(x, a, r.x), xhi = mj_hi(x, a, ex);
            const uint32_t xr = (uint32_t)(xhi - xlo + 1);
            const int x1 = xlo + (int)fastmod(rp[0] >> 1, magic[xr], xr);
            int ylo = bylo, yhi = byhi, y1;
            uint32_t yr;
            uint8_t *t, tmp;
            if (diamond) {
                const int rr = a - (x1 > x ? x1 - x : x - x1);
                ylo = mj_lo(y, rr, ylo);
                yhi = mj_hi(y, rr, yhi);
            }
            yr = (uint32_t)(yhi - ylo + 1);
            y1 = ylo + (int)fastmod(rp[1] >> 1, magic[yr], yr);
            t = img + mj_off(x1, y1, width);
            tmp = row[0]; row[0] = t[0]; t[0] = tmp;
            tmp = row[1]; row[1] = t[1]; t[1] = tmp;
            tmp = row[2]; row[2] = t[2]; t[2] = tmp;
        }
        ext_shift(rnd, 2u * (size_t)sw);
    }
    free(mem);
    return MJ_OK;
}

/* ---------------------------------------------------------------------------------- */
/* 16-bit grey (docs/xv-filters-16bit.md 2.8): the same walk and draws, whole words swapped */

int mj_spread_gray16_straightforward(uint16_t *img, int width, int height, mj_region r,
                                     mj_gray_format fmt, mj_spread_mode mode, int a, int b,
                                     uint32_t seed)
{
    const int ex = r.x + r.w - 1, ey = r.y + r.h - 1;
    int x, y;
    mj_xvr g;

    if (!mj_check_gray_args(img, width, height, r, fmt) || !mj_spread_args_ok(mode, a, b, seed))
        return MJ_ERR_ARG;
    if (mode == MJ_SPREAD_DIAMOND)
        b = a;
    if (a == 0 && b == 0)
        return MJ_OK;
    mj_xvr_seed(&g, seed);
    for (y = r.y; y <= ey; y++) {
        for (x = r.x; x <= ex; x++) {
            uint32_t r1 = mj_xvr_next(&g);
            uint32_t r2 = mj_xvr_next(&g);
            int xlo = mj_lo(x, a, r.x), xhi = mj_hi(x, a, ex);
            int x1 = xlo + (int)(r1 % (uint32_t)(xhi - xlo + 1));
            int ylo = mj_lo(y, b, r.y), yhi = mj_hi(y, b, ey);
            int y1;
            uint16_t t, *p, *q;
            if (mode == MJ_SPREAD_DIAMOND) {
                int rr = a - (x1 > x ? x1 - x : x - x1);
                ylo = mj_lo(y, rr, ylo);
                yhi = mj_hi(y, rr, yhi);
            }
            y1 = ylo + (int)(r2 % (uint32_t)(yhi - ylo + 1));
            p = img + mj_g_off(x, y, width);
            q = img + mj_g_off(x1, y1, width);
            t = *p;
            *p = *q;
            *q = t;
        }
    }
    return MJ_OK;
}

int mj_spread_gray16_optimized(uint16_t *img, int width, int height, mj_region r,
                               mj_gray_format fmt, mj_spread_mode mode, int a, int b,
                               uint32_t seed)
{
    const int sw = r.w, sh = r.h, ex = r.x + sw - 1, ey = r.y + sh - 1;
    const int diamond = (mode == MJ_SPREAD_DIAMOND);
    uint32_t *rnd;
    uint64_t *magic;
    int x, y;
    void *mem;

    if (!mj_check_gray_args(img, width, height, r, fmt) || !mj_spread_args_ok(mode, a, b, seed))
        return MJ_ERR_ARG;
    if (diamond)
        b = a;
    if (a == 0 && b == 0)
        return MJ_OK;
    mem = spread_tables(sw, sh, a, b, seed, &magic, &rnd);
    if (mem == NULL)
        return MJ_ERR_NOMEM;

    for (y = r.y; y <= ey; y++) {
        const int bylo = mj_lo(y, b, r.y), byhi = mj_hi(y, b, ey);
        const uint32_t *rp = rnd + 31;
        uint16_t *row = img + mj_g_off(r.x, y, width);
        ext_fill(rnd, 2u * (size_t)sw);
        for (x = r.x; x <= ex; x++, rp += 2, row++) {
            const int xlo = mj_lo(x, a, r.x), xhi = mj_hi(x, a, ex);
            const uint32_t xr = (uint32_t)(xhi - xlo + 1);
            const int x1 = xlo + (int)fastmod(rp[0] >> 1, magic[xr], xr);
            int ylo = bylo, yhi = byhi, y1;
            uint32_t yr;
            uint16_t *t, tmp;
            if (diamond) {
                const int rr = a - (x1 > x ? x1 - x : x - x1);
                ylo = mj_lo(y, rr, ylo);
                yhi = mj_hi(y, rr, yhi);
            }
            yr = (uint32_t)(yhi - ylo + 1);
            y1 = ylo + (int)fastmod(rp[1] >> 1, magic[yr], yr);
            t = img + mj_g_off(x1, y1, width);
            tmp = *row;
            *row = *t;
            *t = tmp;
        }
        ext_shift(rnd, 2u * (size_t)sw);
    }
    free(mem);
    return MJ_OK;
}
