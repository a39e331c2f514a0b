/* DeSpeckle on 16-bit grey (docs/xv-filters-16bit.md 2.3): median of the offset values of the
 * n x n window clipped to the region; an even count gives floor((a[k-1] + a[k]) / 2). */
#include <stdlib.h>
#include "mj_internal.h"

static int desp_n_ok(int n) { return n >= 1 && n <= 255 && (n & 1) == 1; }

/* xv's Shell sort: gaps count/2, count/4, ..., 1 */
static void shell_sort(int *a, int count)
{
    int gap, i, j;
    for (gap = count / 2; gap > 0; gap /= 2)
        for (i = gap; i < count; i++)
            for (j = i - gap; j >= 0 && a[j] > a[j + gap]; j -= gap) {
                int t = a[j];
                a[j] = a[j + gap];
                a[j + gap] = t;
            }
}

static int median_of_sorted(const int *a, int count)
{
    return (count & 1) ? a[count / 2] : (a[count / 2 - 1] + a[count / 2]) / 2;
}

int mj_despeckle_gray16_straightforward(const uint16_t *src, uint16_t *dst, int width, int height,
                                        mj_region r, mj_gray_format fmt, int n)
{
    const int ex = r.x + r.w - 1, ey = r.y + r.h - 1;
    int x, y, xx, yy, h, min;
    int *a;

    if (!mj_check_gray_args(src, width, height, r, fmt) || dst == NULL || !desp_n_ok(n))
        return MJ_ERR_ARG;
    min = mj_g_min(fmt);
    h = n / 2;
    a = (int *)malloc((size_t)mj_imin(n, r.w) * (size_t)mj_imin(n, r.h) * sizeof(int));
    if (a == NULL)
        return MJ_ERR_NOMEM;
    for (y = r.y; y <= ey; y++) {
        for (x = r.x; x <= ex; x++) {
            int count = 0;
            for (yy = mj_lo(y, h, r.y); yy <= mj_hi(y, h, ey); yy++)
                for (xx = mj_lo(x, h, r.x); xx <= mj_hi(x, h, ex); xx++)
                    a[count++] = mj_g_u(src[mj_g_off(xx, yy, width)], min);
            shell_sort(a, count);
            dst[mj_g_off(x, y, width)] = mj_g_w(median_of_sorted(a, count), min);
        }
    }
    free(a);
    return MJ_OK;
}

/* ---------------------------------------------------------------------------------- */
/* optimized                                                                           */

static inline int imin3(int a, int b, int c) { return mj_imin(mj_imin(a, b), c); }
static inline int imax3(int a, int b, int c) { return mj_imax(mj_imax(a, b), c); }
static inline int med3(int a, int b, int c) { return mj_imax(mj_imin(a, b), mj_imin(mj_imax(a, b), c)); }

/* a frame pixel of n = 3: gather (at most 6 values) and insertion-sort */
static void frame3(const uint16_t *src, uint16_t *dst, int width, mj_region r, int min, int x, int y)
{
    const int ex = r.x + r.w - 1, ey = r.y + r.h - 1;
    int v[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0}, count = 0, xx, yy;
    for (yy = mj_lo(y, 1, r.y); yy <= mj_hi(y, 1, ey); yy++) {
        for (xx = mj_lo(x, 1, r.x); xx <= mj_hi(x, 1, ex); xx++) {
            int u = mj_g_u(src[mj_g_off(xx, yy, width)], min), j = count++;
            for (; j > 0 && v[j - 1] > u; j--)
                v[j] = v[j - 1];
            v[j] = u;
        }
    }
    dst[mj_g_off(x, y, width)] = mj_g_w(median_of_sorted(v, count), min);
}

/* n = 3: the interior's median of 9 from sorted columns (each sorted once, used by three
 * windows): med3(max of minima, med3 of medians, min of maxima). */
static void despeckle3(const uint16_t *src, uint16_t *dst, int width, mj_region r, int min)
{
    const int ex = r.x + r.w - 1, ey = r.y + r.h - 1;
    int x, y;
    for (y = r.y; y <= ey; y++) {
        const uint16_t *up, *row, *down;
        uint16_t *out;
        int a, b, c, lo0, md0, hi0, lo1, md1, hi1;
        if (y == r.y || y == ey || r.w < 3) {
            for (x = r.x; x <= ex; x++)
                frame3(src, dst, width, r, min, x, y);
            continue;
        }
        frame3(src, dst, width, r, min, r.x, y);
        up = src + mj_g_off(0, y - 1, width);
        row = src + mj_g_off(0, y, width);
        down = src + mj_g_off(0, y + 1, width);
        out = dst + mj_g_off(0, y, width);
        a = mj_g_u(up[r.x], min); b = mj_g_u(row[r.x], min); c = mj_g_u(down[r.x], min);
        lo0 = imin3(a, b, c); hi0 = imax3(a, b, c); md0 = a + b + c - lo0 - hi0;
        a = mj_g_u(up[r.x + 1], min); b = mj_g_u(row[r.x + 1], min); c = mj_g_u(down[r.x + 1], min);
        lo1 = imin3(a, b, c); hi1 = imax3(a, b, c); md1 = a + b + c - lo1 - hi1;
        for (x = r.x + 1; x < ex; x++) {
            int lo2, md2, hi2;
            a = mj_g_u(up[x + 1], min); b = mj_g_u(row[x + 1], min); c = mj_g_u(down[x + 1], min);
            lo2 = imin3(a, b, c); hi2 = imax3(a, b, c); md2 = a + b + c - lo2 - hi2;
            out[x] = mj_g_w(med3(imax3(lo0, lo1, lo2), med3(md0, md1, md2), imin3(hi0, hi1, hi2)), min);
            lo0 = lo1; md0 = md1; hi0 = hi1;
            lo1 = lo2; md1 = md2; hi1 = hi2;
        }
        frame3(src, dst, width, r, min, ex, y);
    }
}

/* n >= 5: Huang's sliding histogram, two levels sized to the format (2^ceil(b/2) fine bins
 * under each of 2^floor(b/2) coarse bins); the window's values are removed again at the end
 * of every row, so the histogram is never cleared in full. */
typedef struct {
    int *fine, *coarse, fine_bits;
} hist2;

static inline void hist_col(hist2 *hs, const uint16_t *src, int width, int min, int x, int y0,
                            int y1, int delta)
{
    int y;
    for (y = y0; y <= y1; y++) {
        int u = mj_g_u(src[mj_g_off(x, y, width)], min);
        hs->fine[u] += delta;
        hs->coarse[u >> hs->fine_bits] += delta;
    }
}

static inline int hist_rank(const hist2 *hs, int rank)
{
    int c = 0, below = 0, f;
    while (below + hs->coarse[c] <= rank)
        below += hs->coarse[c++];
    f = c << hs->fine_bits;
    while (below + hs->fine[f] <= rank)
        below += hs->fine[f++];
    return f;
}

size_t mj_despeckle_gray16_scratch(mj_gray_format fmt)
{
    const int bits = fmt.bits_stored, fine_bits = (bits + 1) / 2;
    return ((size_t)1 << bits) + ((size_t)1 << (bits - fine_bits));
}

/* the output rectangle o of region r (the whole region, or the vectorized kernels' frame); scratch: the two levels,
 * zero on entry and on return */
void mj_despeckle_gray16_rect(const uint16_t *src, uint16_t *dst, int width, mj_region r, mj_gray_format fmt, int n,
                              int *scratch, mj_region o)
{
    const int h = n / 2, ex = r.x + r.w - 1, ey = r.y + r.h - 1, min = mj_g_min(fmt), oex = o.x + o.w - 1;
    const int bits = fmt.bits_stored, fine_bits = (bits + 1) / 2;
    int x, y;
    hist2 hs;
    hs.fine_bits = fine_bits;
    hs.fine = scratch;
    hs.coarse = hs.fine + ((size_t)1 << bits);
    if (n == 3) { /* at most 6 values: a small sort beats the histogram's walks (the vectorized frame) */
        for (y = o.y; y < o.y + o.h; y++)
            for (x = o.x; x <= oex; x++)
                frame3(src, dst, width, r, min, x, y);
        return;
    }
    for (y = o.y; y < o.y + o.h; y++) {
        const int y0 = mj_lo(y, h, r.y), y1 = mj_hi(y, h, ey), rows = y1 - y0 + 1;
        for (x = mj_lo(o.x, h, r.x); x <= mj_hi(o.x, h, ex); x++)
            hist_col(&hs, src, width, min, x, y0, y1, 1);
        for (x = o.x; x <= oex; x++) {
            int count, half, m;
            if (x > o.x) {
                if (x - h - 1 >= r.x)
                    hist_col(&hs, src, width, min, x - h - 1, y0, y1, -1);
                if (x <= ex - h)
                    hist_col(&hs, src, width, min, x + h, y0, y1, 1);
            }
            count = rows * (mj_hi(x, h, ex) - mj_lo(x, h, r.x) + 1);
            half = count / 2;
            m = (count & 1) ? hist_rank(&hs, half)
                            : (hist_rank(&hs, half - 1) + hist_rank(&hs, half)) / 2;
            dst[mj_g_off(x, y, width)] = mj_g_w(m, min);
        }
        for (x = mj_lo(oex, h, r.x); x <= mj_hi(oex, h, ex); x++)
            hist_col(&hs, src, width, min, x, y0, y1, -1);
    }
}

static int despeckle_sliding(const uint16_t *src, uint16_t *dst, int width, mj_region r,
                             mj_gray_format fmt, int n)
{
    int *scratch = (int *)calloc(mj_despeckle_gray16_scratch(fmt), sizeof(int));
    if (scratch == NULL)
        return MJ_ERR_NOMEM;
    mj_despeckle_gray16_rect(src, dst, width, r, fmt, n, scratch, r);
    free(scratch);
    return MJ_OK;
}

int mj_despeckle_gray16_optimized(const uint16_t *src, uint16_t *dst, int width, int height,
                                  mj_region r, mj_gray_format fmt, int n)
{
    if (!mj_check_gray_args(src, width, height, r, fmt) || dst == NULL || !desp_n_ok(n))
        return MJ_ERR_ARG;
    if (n == 1)
        return MJ_OK;
    if (n == 3) {
        despeckle3(src, dst, width, r, mj_g_min(fmt));
        return MJ_OK;
    }
    return despeckle_sliding(src, dst, width, r, fmt, n);
}
