/* DeSpeckle (spec 2.3): per-channel median over the n x n window clipped to the region;
 * an even count gives floor of the mean of the two middle values. */
#include <stdlib.h>
#include <string.h>
#include "mj_internal.h"

static int despeckle_n_ok(int n) { return n >= 1 && n <= 255 && (n & 1) == 1; }

/* xv's in-place Shell sort (gaps count/2, count/4, ..., 1). */
static void shell_sort(int *a, int count)
{
    int gap, i, j;
    for (gap = count / 2; gap > 0; gap /= 2) {
        for (i = gap; i < count; i++) {
            for (j = i - gap; j >= 0 && a[j] > a[j + gap]; j -= gap) {
                int t = a[j];
                a[j] = a[j + gap];
                a[j + gap] = t;
            }
        }
    }
}

static int median_of_sorted(const int *a, int count)
{
    if (count & 1)
        return a[count / 2];
    return (a[count / 2 - 1] + a[count / 2]) / 2;
}

int mj_despeckle_straightforward(const uint8_t *src, uint8_t *dst, int width, int height,
                                 mj_region r, int n)
{
    int x, y, xx, yy, c, h, ex, ey;
    int *vals;

    if (!mj_check_args(src, width, height, r) || dst == NULL || !despeckle_n_ok(n))
        return MJ_ERR_ARG;
    vals = (int *)malloc((size_t)n * (size_t)n * 3u * sizeof(int));
    if (vals == NULL)
        return MJ_ERR_NOMEM;
    h = n / 2;
    ex = r.x + r.w - 1;
    ey = r.y + r.h - 1;
    for (y = r.y; y <= ey; y++) {
        int y0 = mj_lo(y, h, r.y), y1 = mj_hi(y, h, ey);
        for (x = r.x; x <= ex; x++) {
            int x0 = mj_lo(x, h, r.x), x1 = mj_hi(x, h, ex);
            int count = 0;
            int *rv = vals, *gv = vals + n * n, *bv = vals + 2 * n * n;
            for (yy = y0; yy <= y1; yy++) {
                for (xx = x0; xx <= x1; xx++) {
                    const uint8_t *p = src + mj_off(xx, yy, width);
                    rv[count] = p[0];
                    gv[count] = p[1];
                    bv[count] = p[2];
                    count++;
                }
            }
            for (c = 0; c < 3; c++) {
                int *a = vals + c * n * n;
                shell_sort(a, count);
                dst[mj_off(x, y, width) + (size_t)c] = (uint8_t)median_of_sorted(a, count);
            }
        }
    }
    free(vals);
    return MJ_OK;
}

/* ---------------------------------------------------------------------------------- */
/* optimized                                                                           */

#define SORT2(a, b) do { int lo_ = (a) < (b) ? (a) : (b); int hi_ = (a) ^ (b) ^ lo_; \
                         (a) = lo_; (b) = hi_; } while (0)

static inline int min3i(int a, int b, int c) { int m = a < b ? a : b; return m < c ? m : c; }
static inline int max3i(int a, int b, int c) { int m = a > b ? a : b; return m > c ? m : c; }
static inline int med3i(int a, int b, int c)
{
    int lo = a < b ? a : b, hi = a ^ b ^ lo;
    /* median = max(lo, min(hi, c)) */
    int t = hi < c ? hi : c;
    return lo > t ? lo : t;
}

/* Median (spec rule) of a small clipped window, used for the frame of the n = 3 path. */
static void small_window_median(const uint8_t *src, uint8_t *dst, int width, int x, int y,
                                int x0, int x1, int y0, int y1)
{
    int v[3][9];
    int count = 0, xx, yy, c;
    for (yy = y0; yy <= y1; yy++) {
        const uint8_t *p = src + mj_off(x0, yy, width);
        for (xx = x0; xx <= x1; xx++, p += 3) {
            v[0][count] = p[0];
            v[1][count] = p[1];
            v[2][count] = p[2];
            count++;
        }
    }
    for (c = 0; c < 3; c++) {
        int *a = v[c], i, j;
        for (i = 1; i < count; i++) { /* insertion sort, count <= 6 here */
            int t = a[i];
            for (j = i - 1; j >= 0 && a[j] > t; j--)
                a[j + 1] = a[j];
            a[j + 1] = t;
        }
        dst[mj_off(x, y, width) + (size_t)c] = (uint8_t)median_of_sorted(a, count);
    }
}

/*
 * n = 3: interior via sorted columns. Each column triple (per channel) is sorted once per
 * row into lo/mid/hi; the median of the 3x3 window of columns a,b,c is
 * med3(max(lo), med3(mid), min(hi)) -- exact, since each of those three is the 5th
 * smallest candidate bound of the 9 values. The frame (counts 4 or 6) uses a small sort.
 */
static int despeckle3(const uint8_t *src, uint8_t *dst, int width, mj_region r)
{
    const int sw = r.w, sh = r.h, ex = r.x + sw - 1, ey = r.y + sh - 1;
    const size_t rowlen = (size_t)sw * 3u;
    int x, y;

    /* frame: top and bottom rows, left and right columns */
    for (x = r.x; x <= ex; x++) {
        small_window_median(src, dst, width, x, r.y, mj_lo(x, 1, r.x), mj_hi(x, 1, ex),
                            r.y, mj_hi(r.y, 1, ey));
        if (sh > 1)
            small_window_median(src, dst, width, x, ey, mj_lo(x, 1, r.x), mj_hi(x, 1, ex),
                                mj_lo(ey, 1, r.y), ey);
    }
    for (y = r.y + 1; y < ey; y++) {
        small_window_median(src, dst, width, r.x, y, r.x, mj_hi(r.x, 1, ex), y - 1, y + 1);
        if (sw > 1)
            small_window_median(src, dst, width, ex, y, mj_lo(ex, 1, r.x), ex, y - 1, y + 1);
    }
    if (sw < 3 || sh < 3)
        return MJ_OK;

    {
        uint8_t *lo = (uint8_t *)malloc(rowlen * 3u);
        uint8_t *mid, *hi;
        if (lo == NULL)
            return MJ_ERR_NOMEM;
        mid = lo + rowlen;
        hi = mid + rowlen;
        for (y = r.y + 1; y < ey; y++) {
            const uint8_t *a = src + mj_off(r.x, y - 1, width);
            const uint8_t *b = src + mj_off(r.x, y, width);
            const uint8_t *c = src + mj_off(r.x, y + 1, width);
            uint8_t *o = dst + mj_off(r.x + 1, y, width);
            size_t k;
            for (k = 0; k < rowlen; k++) {
                int p = a[k], q = b[k], s = c[k];
                SORT2(p, q);
                SORT2(q, s);
                SORT2(p, q);
                lo[k] = (uint8_t)p;
                mid[k] = (uint8_t)q;
                hi[k] = (uint8_t)s;
            }
            for (k = 3; k + 3 < rowlen; k++) {
                int mx = max3i(lo[k - 3], lo[k], lo[k + 3]);
                int md = med3i(mid[k - 3], mid[k], mid[k + 3]);
                int mn = min3i(hi[k - 3], hi[k], hi[k + 3]);
                o[k - 3] = (uint8_t)med3i(mx, md, mn);
            }
        }
        free(lo);
    }
    return MJ_OK;
}

/*
 * General n: Huang's sliding histogram per channel along each row (one column removed and
 * one added per step), with a moving median pointer. Order statistic k is the smallest
 * bin m with below(m) <= k < below(m) + hist[m], where below(m) counts values < m.
 */
typedef struct {
    int hist[256];
    int m;     /* current pointer bin */
    int below; /* number of values < m */
} huang_t;
typedef char huang_scratch_fits[MJ_DESPECKLE_SCRATCH * sizeof(int) >= 3 * sizeof(huang_t) ? 1 : -1];

static inline void huang_add(huang_t *hs, int v)
{
    hs->hist[v]++;
    hs->below += (v < hs->m);
}
static inline void huang_remove(huang_t *hs, int v)
{
    hs->hist[v]--;
    hs->below -= (v < hs->m);
}
/* k-th smallest (0-based); leaves the pointer at the result. */
static inline int huang_kth(huang_t *hs, int k)
{
    int m = hs->m, below = hs->below;
    while (below > k) {
        m--;
        below -= hs->hist[m];
    }
    while (below + hs->hist[m] <= k) {
        below += hs->hist[m];
        m++;
    }
    hs->m = m;
    hs->below = below;
    return m;
}
static inline int huang_median(huang_t *hs, int count)
{
    if (count & 1)
        return huang_kth(hs, count / 2);
    {
        int k = count / 2 - 1;
        int a = huang_kth(hs, k), b = a;
        if (hs->below + hs->hist[a] <= k + 1) { /* a[k+1] lies in a higher bin */
            b = a + 1;
            while (hs->hist[b] == 0)
                b++;
        }
        return (a + b) / 2;
    }
}

/* Huang over the output rows [o.y, o.y + o.h) and columns [o.x, o.x + o.w) of region r, windows clipped to r (the
 * whole region, or the frame of the vectorized kernels). hs: 3 histograms, zero on entry and again on return. */
void mj_despeckle_rect(const uint8_t *src, uint8_t *dst, int width, mj_region r, int n, int *scratch, mj_region o)
{
    const int h = n / 2, ex = r.x + r.w - 1, ey = r.y + r.h - 1, oex = o.x + o.w - 1;
    const size_t rowstep = (size_t)width * 3u;
    huang_t *hs = (huang_t *)(void *)scratch;
    int x, y, c;

    if (n == 3) { /* at most 6 values: a small sort beats the histogram's walks (the vectorized frame) */
        for (y = o.y; y < o.y + o.h; y++)
            for (x = o.x; x <= oex; x++)
                small_window_median(src, dst, width, x, y, mj_lo(x, 1, r.x), mj_hi(x, 1, ex), mj_lo(y, 1, r.y),
                                    mj_hi(y, 1, ey));
        return;
    }
    for (y = o.y; y < o.y + o.h; y++) {
        const int y0 = mj_lo(y, h, r.y), y1 = mj_hi(y, h, ey), cy = y1 - y0 + 1;
        uint8_t *out = dst + mj_off(o.x, y, width);
        int xadd;
        /* initial window for x = o.x: columns [lo(o.x), hi(o.x)] */
        for (xadd = mj_lo(o.x, h, r.x); xadd <= mj_hi(o.x, h, ex); xadd++) {
            const uint8_t *p = src + mj_off(xadd, y0, width);
            int yy;
            for (yy = y0; yy <= y1; yy++, p += rowstep) {
                huang_add(&hs[0], p[0]);
                huang_add(&hs[1], p[1]);
                huang_add(&hs[2], p[2]);
            }
        }
        for (x = o.x; x <= oex; x++, out += 3) {
            const int cx = mj_hi(x, h, ex) - mj_lo(x, h, r.x) + 1;
            const int count = cx * cy;
            out[0] = (uint8_t)huang_median(&hs[0], count);
            out[1] = (uint8_t)huang_median(&hs[1], count);
            out[2] = (uint8_t)huang_median(&hs[2], count);
            /* slide to x + 1: remove column x - h, add column x + h + 1; after the last pixel, empty the window */
            if (x - h >= r.x || x == oex) {
                const int xa = x == oex ? mj_lo(x, h, r.x) : x - h, xb = x == oex ? mj_hi(x, h, ex) : x - h;
                int xr;
                for (xr = xa; xr <= xb; xr++) {
                    const uint8_t *p = src + mj_off(xr, y0, width);
                    int yy;
                    for (yy = y0; yy <= y1; yy++, p += rowstep) {
                        huang_remove(&hs[0], p[0]);
                        huang_remove(&hs[1], p[1]);
                        huang_remove(&hs[2], p[2]);
                    }
                }
            }
            if (x < oex && x < ex - h) {
                const uint8_t *p = src + mj_off(x + h + 1, y0, width);
                int yy;
                for (yy = y0; yy <= y1; yy++, p += rowstep) {
                    huang_add(&hs[0], p[0]);
                    huang_add(&hs[1], p[1]);
                    huang_add(&hs[2], p[2]);
                }
            }
        }
        for (c = 0; c < 3; c++)
            hs[c].below = 0; /* the pointer bin stays: the next window's median is likely near */
    }
}

static int despeckle_huang(const uint8_t *src, uint8_t *dst, int width, mj_region r, int n)
{
    int *scratch = (int *)calloc(MJ_DESPECKLE_SCRATCH, sizeof(int));
    if (scratch == NULL)
        return MJ_ERR_NOMEM;
    mj_despeckle_rect(src, dst, width, r, n, scratch, r);
    free(scratch);
    return MJ_OK;
}

int mj_despeckle_optimized(const uint8_t *src, uint8_t *dst, int width, int height,
                           mj_region r, int n)
{
    if (!mj_check_args(src, width, height, r) || dst == NULL || !despeckle_n_ok(n))
        return MJ_ERR_ARG;
    if (n == 1)
        return MJ_OK; /* a window of one value: identity */
    if (n == 3)
        return despeckle3(src, dst, width, r);
    return despeckle_huang(src, dst, width, r, n);
}
