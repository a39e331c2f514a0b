/*
 * Pixelize (spec 2.7): a grid of A x B blocks centred on the region (partial blocks on both
 * sides); every in-region pixel of a block gets floor(mean) of the block's in-region pixels,
 * per channel. Ports compute the intended mean (no emulation of xv's left-overhang defect).
 * Grid arithmetic is 64-bit and sums are 64-bit, so any region / block size is exact.
 */
#include <stdlib.h>
#include <string.h>
#include "mj_internal.h"

typedef long long i64;

static int pixelize_args_ok(int a, int b)
{
    return a >= 1 && a <= 65535 && b >= 1 && b <= 65535;
}

/* nw = ceil(sw/A), first grid line x0 = sx - floor((nw*A - sw)/2) */
static void grid(i64 s, i64 len, i64 a, i64 *nblocks, i64 *origin)
{
    i64 nb = (len + a - 1) / a;
    *nblocks = nb;
    *origin = s - (nb * a - len) / 2;
}

int mj_pixelize_straightforward(const uint8_t *src, uint8_t *dst, int width, int height,
                                mj_region r, int block_w, int block_h)
{
    i64 nw, nh, x0, y0, i, j;
    const i64 sx = r.x, sy = r.y, ex = (i64)r.x + r.w, ey = (i64)r.y + r.h; /* exclusive */

    if (!mj_check_args(src, width, height, r) || dst == NULL ||
        !pixelize_args_ok(block_w, block_h))
        return MJ_ERR_ARG;
    grid(sx, r.w, block_w, &nw, &x0);
    grid(sy, r.h, block_h, &nh, &y0);
    for (j = 0; j < nh; j++) {
        for (i = 0; i < nw; i++) {
            /* block (i,j) covers [x0+i*A, x0+(i+1)*A) x [y0+j*B, y0+(j+1)*B); clip */
            i64 bx0 = x0 + i * block_w, bx1 = x0 + (i + 1) * block_w;
            i64 by0 = y0 + j * block_h, by1 = y0 + (j + 1) * block_h;
            uint64_t sum[3] = {0, 0, 0}, count = 0;
            i64 xx, yy;
            int c;
            if (bx0 < sx) bx0 = sx;
            if (bx1 > ex) bx1 = ex;
            if (by0 < sy) by0 = sy;
            if (by1 > ey) by1 = ey;
            for (yy = by0; yy < by1; yy++) {
                for (xx = bx0; xx < bx1; xx++) {
                    const uint8_t *p = src + mj_off((int)xx, (int)yy, width);
                    sum[0] += p[0];
                    sum[1] += p[1];
                    sum[2] += p[2];
                    count++;
                }
            }
            for (yy = by0; yy < by1; yy++) {
                for (xx = bx0; xx < bx1; xx++) {
                    uint8_t *o = dst + mj_off((int)xx, (int)yy, width);
                    for (c = 0; c < 3; c++)
                        o[c] = (uint8_t)(sum[c] / count);
                }
            }
        }
    }
    return MJ_OK;
}

/*
 * Optimized: block rows are processed as a whole. Each source row is summed block by block
 * (no per-pixel index arithmetic), the means of one block row are expanded once into a line
 * buffer and that line is memcpy'd into every row of the block row.
 */
int mj_pixelize_optimized(const uint8_t *src, uint8_t *dst, int width, int height,
                          mj_region r, int block_w, int block_h)
{
    i64 nw, nh, x0, y0, j;
    const i64 sy = r.y, ey = (i64)r.y + r.h;
    const size_t rowlen = (size_t)r.w * 3u;
    size_t nb, i;
    int *bounds;      /* block i covers relative columns [bounds[i], bounds[i+1]) */
    uint64_t *sums;   /* 3 per block */
    uint8_t *line;
    void *mem;

    if (!mj_check_args(src, width, height, r) || dst == NULL ||
        !pixelize_args_ok(block_w, block_h))
        return MJ_ERR_ARG;
    grid(r.x, r.w, block_w, &nw, &x0);
    grid(sy, r.h, block_h, &nh, &y0);
    nb = (size_t)nw;
    mem = malloc((nb + 1) * sizeof(int) + nb * 3u * sizeof(uint64_t) + rowlen);
    if (mem == NULL)
        return MJ_ERR_NOMEM;
    sums = (uint64_t *)mem;
    bounds = (int *)(sums + nb * 3u);
    line = (uint8_t *)(bounds + nb + 1);
    for (i = 0; i <= nb; i++) {
        i64 b = x0 + (i64)i * block_w - r.x;
        if (b < 0) b = 0;
        if (b > r.w) b = r.w;
        bounds[i] = (int)b;
    }
    for (j = 0; j < nh; j++) {
        i64 by0 = y0 + j * block_h, by1 = by0 + block_h, yy;
        uint64_t rows;
        if (by0 < sy) by0 = sy;
        if (by1 > ey) by1 = ey;
        rows = (uint64_t)(by1 - by0);
        memset(sums, 0, nb * 3u * sizeof(uint64_t));
        for (yy = by0; yy < by1; yy++) {
            const uint8_t *p = src + mj_off(r.x, (int)yy, width);
            for (i = 0; i < nb; i++) {
                uint64_t s0 = 0, s1 = 0, s2 = 0;
                const uint8_t *e = p + (size_t)(bounds[i + 1] - bounds[i]) * 3u;
                for (; p < e; p += 3) {
                    s0 += p[0];
                    s1 += p[1];
                    s2 += p[2];
                }
                sums[3 * i] += s0;
                sums[3 * i + 1] += s1;
                sums[3 * i + 2] += s2;
            }
        }
        for (i = 0; i < nb; i++) {
            const uint64_t count = (uint64_t)(bounds[i + 1] - bounds[i]) * rows;
            const uint8_t m0 = (uint8_t)(sums[3 * i] / count);
            const uint8_t m1 = (uint8_t)(sums[3 * i + 1] / count);
            const uint8_t m2 = (uint8_t)(sums[3 * i + 2] / count);
            uint8_t *q = line + (size_t)bounds[i] * 3u;
            uint8_t *e = line + (size_t)bounds[i + 1] * 3u;
            for (; q < e; q += 3) {
                q[0] = m0;
                q[1] = m1;
                q[2] = m2;
            }
        }
        for (yy = by0; yy < by1; yy++)
            memcpy(dst + mj_off(r.x, (int)yy, width), line, rowlen);
    }
    free(mem);
    return MJ_OK;
}
