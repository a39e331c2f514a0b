/* Pixelize on 16-bit grey (docs/xv-filters-16bit.md 2.7): the centred grid of A x B blocks;
 * every block's in-region pixels become floor(sum / count) of their offset values (64-bit). */
#include <stdlib.h>
#include <string.h>
#include "mj_internal.h"

static int pix_args_ok(int a, int b) { return a >= 1 && a <= 65535 && b >= 1 && b <= 65535; }

int mj_pixelize_gray16_straightforward(const uint16_t *src, uint16_t *dst, int width, int height,
                                       mj_region r, mj_gray_format fmt, int block_w, int block_h)
{
    int nw, nh, x0, y0, i, j, x, y, min;

    if (!mj_check_gray_args(src, width, height, r, fmt) || dst == NULL ||
        !pix_args_ok(block_w, block_h))
        return MJ_ERR_ARG;
    min = mj_g_min(fmt);
    nw = (int)(((long long)r.w + block_w - 1) / block_w);
    nh = (int)(((long long)r.h + block_h - 1) / block_h);
    x0 = r.x - (int)(((long long)nw * block_w - r.w) / 2);
    y0 = r.y - (int)(((long long)nh * block_h - r.h) / 2);
    for (j = 0; j < nh; j++) {
        for (i = 0; i < nw; i++) {
            long long bx0 = (long long)x0 + (long long)i * block_w;
            long long by0 = (long long)y0 + (long long)j * block_h;
            int cx0 = (int)(bx0 < r.x ? r.x : bx0);
            int cy0 = (int)(by0 < r.y ? r.y : by0);
            int cx1 = (int)(bx0 + block_w > r.x + r.w ? r.x + r.w : bx0 + block_w);
            int cy1 = (int)(by0 + block_h > r.y + r.h ? r.y + r.h : by0 + block_h);
            uint64_t sum = 0, count;
            uint16_t mean;
            for (y = cy0; y < cy1; y++)
                for (x = cx0; x < cx1; x++)
                    sum += (uint64_t)mj_g_u(src[mj_g_off(x, y, width)], min);
            count = (uint64_t)(cx1 - cx0) * (uint64_t)(cy1 - cy0);
            mean = mj_g_w((int)(sum / count), min);
            for (y = cy0; y < cy1; y++)
                for (x = cx0; x < cx1; x++)
                    dst[mj_g_off(x, y, width)] = mean;
        }
    }
    return MJ_OK;
}

/*
 * Optimized: one block row at a time, region rows added into per-column sums in raster order
 * (every pixel read once, sequentially); block sums add A column sums; one division per block;
 * the block row's output row is built once and copied into each of its rows.
 */
int mj_pixelize_gray16_optimized(const uint16_t *src, uint16_t *dst, int width, int height,
                                 mj_region r, mj_gray_format fmt, int block_w, int block_h)
{
    const int sw = r.w, sh = r.h;
    int nw, nh, left, y0, i, j, y, k, min;
    uint64_t *col;
    uint16_t *pattern;

    if (!mj_check_gray_args(src, width, height, r, fmt) || dst == NULL ||
        !pix_args_ok(block_w, block_h))
        return MJ_ERR_ARG;
    if (block_w == 1 && block_h == 1)
        return MJ_OK;
    min = mj_g_min(fmt);
    nw = (int)(((long long)sw + block_w - 1) / block_w);
    nh = (int)(((long long)sh + block_h - 1) / block_h);
    left = (int)(((long long)nw * block_w - sw) / 2);
    y0 = r.y - (int)(((long long)nh * block_h - sh) / 2);
    col = (uint64_t *)malloc((size_t)sw * sizeof(uint64_t));
    pattern = (uint16_t *)malloc((size_t)sw * sizeof(uint16_t));
    if (col == NULL || pattern == NULL) {
        free(col);
        free(pattern);
        return MJ_ERR_NOMEM;
    }
    for (j = 0; j < nh; j++) {
        long long by0 = (long long)y0 + (long long)j * block_h;
        int cy0 = (int)(by0 < r.y ? r.y : by0);
        int cy1 = (int)(by0 + block_h > r.y + sh ? r.y + sh : by0 + block_h);
        uint64_t rows = (uint64_t)(cy1 - cy0);
        for (y = cy0; y < cy1; y++) {
            const uint16_t *p = src + mj_g_off(r.x, y, width);
            if (y == cy0)
                for (k = 0; k < sw; k++)
                    col[k] = (uint64_t)mj_g_u(p[k], min);
            else
                for (k = 0; k < sw; k++)
                    col[k] += (uint64_t)mj_g_u(p[k], min);
        }
        for (i = 0; i < nw; i++) {
            long long c0l = (long long)i * block_w - left, c1l = c0l + block_w;
            int c0 = (int)(c0l < 0 ? 0 : c0l), c1 = (int)(c1l > sw ? sw : c1l);
            uint64_t sum = 0;
            uint16_t mean;
            for (k = c0; k < c1; k++)
                sum += col[k];
            mean = mj_g_w((int)(sum / (rows * (uint64_t)(c1 - c0))), min);
            for (k = c0; k < c1; k++)
                pattern[k] = mean;
        }
        for (y = cy0; y < cy1; y++)
            memcpy(dst + mj_g_off(r.x, y, width), pattern, (size_t)sw * sizeof(uint16_t));
    }
    free(col);
    free(pattern);
    return MJ_OK;
}
