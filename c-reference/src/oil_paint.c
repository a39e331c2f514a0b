/*
 * Oil Painting (spec 2.6): most frequent exact colour in the window clipped to the region;
 * ties go to the colour whose first occurrence (row-major) comes first.
 * xv window: n' = n + 1 for odd n, h = n' div 2, columns/rows [x-h, x+h-1] (4x4 for n = 3,
 * not centred). window=centred (non-xv): h = n div 2, [x-h, x+h].
 */
#include <stdlib.h>
#include <string.h>
#include "mj_internal.h"

/* window extents: [x - L, x + R] x [y - L, y + R] */
void mj_oil_extents(int n, mj_oil_window window, int *L, int *R)
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

int mj_oil_args_ok(int n, mj_oil_window window)
{
    return n >= 1 && n <= 31 && (window == MJ_OIL_WINDOW_XV || window == MJ_OIL_WINDOW_CENTRED);
}

static uint32_t key_at(const uint8_t *src, int x, int y, int width)
{
    const uint8_t *p = src + mj_off(x, y, width);
    return ((uint32_t)p[0] << 16) | ((uint32_t)p[1] << 8) | (uint32_t)p[2];
}

int mj_oil_paint_straightforward(const uint8_t *src, uint8_t *dst, int width, int height,
                                 mj_region r, int n, mj_oil_window window)
{
    const int ex = r.x + r.w - 1, ey = r.y + r.h - 1;
    int L, R, x, y;
    uint32_t keys[32 * 32];

    if (!mj_check_args(src, width, height, r) || dst == NULL || !mj_oil_args_ok(n, window))
        return MJ_ERR_ARG;
    mj_oil_extents(n, window, &L, &R);
    for (y = r.y; y <= ey; y++) {
        for (x = r.x; x <= ex; x++) {
            int m = 0, i, j, best = -1, bestcount = 0, xx, yy;
            uint8_t *o;
            /* walk the window [x-L, x+R] x [y-L, y+R] in scan order; cells outside the
             * region are skipped (the loop bounds are clipped to the region) */
            for (yy = mj_lo(y, L, r.y); yy <= mj_hi(y, R, ey); yy++)
                for (xx = mj_lo(x, L, r.x); xx <= mj_hi(x, R, ex); xx++)
                    keys[m++] = key_at(src, xx, yy, width);
            /* xv's procedure: count equal cells at or after each cell, keep the first strict
             * maximum */
            for (i = 0; i < m; i++) {
                int cnt = 0;
                for (j = i; j < m; j++)
                    if (keys[j] == keys[i])
                        cnt++;
                if (cnt > bestcount) {
                    bestcount = cnt;
                    best = i;
                }
            }
            o = dst + mj_off(x, y, width);
            o[0] = (uint8_t)(keys[best] >> 16);
            o[1] = (uint8_t)(keys[best] >> 8);
            o[2] = (uint8_t)keys[best];
        }
    }
    return MJ_OK;
}

/* ---------------------------------------------------------------------------------- */
/* optimized: windows wider than 4 columns use a sliding colour histogram (oil_hash),   */
/* smaller ones (xv's default 4x4 included) precomputed pair counts / SSE2 (oil_pairs)  */

/*
 * oil_hash. Along each row, the window slides one column at a time: the leaving column's colours are
 * decremented and the entering column's incremented in an open-addressing hash table
 * (linear probing, backward-shift deletion, load <= 1/4). A count-of-counts array gives the
 * current maximum count M in O(1). If M == 1 all colours are distinct and the answer is the
 * first valid cell (the (+2,+2) translation case) in O(1); otherwise the window is scanned
 * in row-major order for the first cell whose colour has count M -- which is exactly the
 * first-occurrence tie rule.
 */
#define EMPTY_KEY 0xFFFFFFFFu

typedef struct {
    uint32_t *key;
    int *cnt;
    int *cc; /* cc[k] = number of colours with count k */
    uint32_t mask;
    int shift;
    int maxc;
} colour_hist;

static inline uint32_t ch_home(const colour_hist *t, uint32_t key)
{
    return (key * 0x9E3779B1u) >> t->shift;
}

static inline void ch_add(colour_hist *t, uint32_t key)
{
    uint32_t i = ch_home(t, key);
    int c;
    while (t->key[i] != key && t->key[i] != EMPTY_KEY)
        i = (i + 1) & t->mask;
    if (t->key[i] == EMPTY_KEY) {
        t->key[i] = key;
        t->cnt[i] = 0;
    }
    c = ++t->cnt[i];
    t->cc[c - 1]--;
    t->cc[c]++;
    if (c > t->maxc)
        t->maxc = c;
}

static inline void ch_remove(colour_hist *t, uint32_t key)
{
    uint32_t i = ch_home(t, key);
    int c;
    while (t->key[i] != key)
        i = (i + 1) & t->mask;
    c = --t->cnt[i];
    t->cc[c + 1]--;
    t->cc[c]++;
    if (c + 1 == t->maxc && t->cc[c + 1] == 0)
        t->maxc = c;
    if (c == 0) {
        /* backward-shift deletion */
        uint32_t j = i;
        for (;;) {
            uint32_t k;
            j = (j + 1) & t->mask;
            if (t->key[j] == EMPTY_KEY)
                break;
            k = ch_home(t, t->key[j]);
            /* keep the entry at j if its home lies cyclically in (i, j] */
            if ((i < j) ? (i < k && k <= j) : (i < k || k <= j))
                continue;
            t->key[i] = t->key[j];
            t->cnt[i] = t->cnt[j];
            i = j;
        }
        t->key[i] = EMPTY_KEY;
    }
}

static inline int ch_count(const colour_hist *t, uint32_t key)
{
    uint32_t i = ch_home(t, key);
    while (t->key[i] != key)
        i = (i + 1) & t->mask;
    return t->cnt[i];
}

static int oil_hash(const uint8_t *src, uint8_t *dst, int width, mj_region r, int L, int R)
{
    const int ex = r.x + r.w - 1, ey = r.y + r.h - 1;
    const size_t rowstep = (size_t)width * 3u;
    int x, y, cells, bits;
    size_t tsize;
    colour_hist t;
    void *mem;

    cells = (L + R + 1) * (L + R + 1);
    for (bits = 4; ((size_t)1 << bits) < 4u * (size_t)cells; bits++) /* load <= 1/4 */
        ;
    tsize = (size_t)1 << bits;
    mem = malloc(tsize * (sizeof(uint32_t) + sizeof(int)) + ((size_t)cells + 2) * sizeof(int));
    if (mem == NULL)
        return MJ_ERR_NOMEM;
    t.key = (uint32_t *)mem;
    t.cnt = (int *)(t.key + tsize);
    t.cc = t.cnt + tsize;
    t.mask = (uint32_t)(tsize - 1);
    t.shift = 32 - bits;

    for (y = r.y; y <= ey; y++) {
        const int y0 = mj_lo(y, L, r.y), y1 = mj_hi(y, R, ey);
        const uint8_t *firstrow = src + mj_off(0, y0, width);
        uint8_t *o = dst + mj_off(r.x, y, width);
        int xa;
        memset(t.key, 0xFF, tsize * sizeof(uint32_t));
        memset(t.cc, 0, ((size_t)cells + 2) * sizeof(int));
        t.maxc = 0;
        /* initial window for x = r.x: columns [r.x, min(r.x + R, ex)] */
        for (xa = r.x; xa <= mj_hi(r.x, R, ex); xa++) {
            const uint8_t *p = firstrow + (size_t)xa * 3u;
            int yy;
            for (yy = y0; yy <= y1; yy++, p += rowstep)
                ch_add(&t, ((uint32_t)p[0] << 16) | ((uint32_t)p[1] << 8) | p[2]);
        }
        for (x = r.x; x <= ex; x++, o += 3) {
            const int x0 = mj_lo(x, L, r.x);
            const uint8_t *hit = firstrow + (size_t)x0 * 3u;
            if (t.maxc > 1) {
                const int x1 = mj_hi(x, R, ex);
                int yy, xx, found = 0;
                for (yy = y0; yy <= y1 && !found; yy++) {
                    const uint8_t *p = src + mj_off(x0, yy, width);
                    for (xx = x0; xx <= x1; xx++, p += 3) {
                        uint32_t k = ((uint32_t)p[0] << 16) | ((uint32_t)p[1] << 8) | p[2];
                        if (ch_count(&t, k) == t.maxc) {
                            hit = p;
                            found = 1;
                            break;
                        }
                    }
                }
            }
            o[0] = hit[0];
            o[1] = hit[1];
            o[2] = hit[2];
            if (x < ex) {
                /* slide to x + 1: column x - L leaves, column x + R + 1 enters */
                if (x - L >= r.x) {
                    const uint8_t *p = firstrow + (size_t)(x - L) * 3u;
                    int yy;
                    for (yy = y0; yy <= y1; yy++, p += rowstep)
                        ch_remove(&t, ((uint32_t)p[0] << 16) | ((uint32_t)p[1] << 8) | p[2]);
                }
                if (x < ex - R) {
                    const uint8_t *p = firstrow + (size_t)(x + R + 1) * 3u;
                    int yy;
                    for (yy = y0; yy <= y1; yy++, p += rowstep)
                        ch_add(&t, ((uint32_t)p[0] << 16) | ((uint32_t)p[1] << 8) | p[2]);
                }
            }
        }
    }
    free(mem);
    return MJ_OK;
}

/*
 * Small windows (at most 4 columns: xv's default 4x4, xv n=1 (2x2), centred n=2/3 (3x3)).
 * Per output row, the keys of each region column over the window rows are gathered once.
 *   - Distinct-colour rows (noisy data): for each column, the number of equal pairs inside it
 *     and with each of the next columns is counted once, branch-free, and reused by every
 *     window containing both columns. A window's number of equal pairs is a sum of those
 *     counts; when it is 0 all colours are distinct and the answer is the first valid cell
 *     (the (+2,+2) translation), without looking at the cells.
 *   - Otherwise the mode is computed on the window: with SSE2 and 3 or 4 columns, all 16
 *     counts of a (padded) 4x4 window at once; else xv's own rule (count the equal cells at
 *     or after each cell and keep the first strict maximum) on the gathered keys.
 *   - The pair counts are only computed for rows following a row where at least a quarter
 *     of the windows were all-distinct (repetitive data would not profit from them).
 */
#define OIL_SMALL_MAX 4

/* xv's rule on m keys in row-major order (the same loop as the straightforward port, on
 * pre-gathered keys); *bestcount receives the winning count */
static inline uint32_t mode_first(const uint32_t *kk, int m, int *bestcount)
{
    int i, j, best = 0, bi = 0;
    for (i = 0; i < m; i++) {
        int cnt = 0;
        for (j = i; j < m; j++)
            cnt += (kk[j] == kk[i]);
        if (cnt > best) {
            best = cnt;
            bi = i;
        }
    }
    *bestcount = best;
    return kk[bi];
}

#if defined(__SSE2__)
#include <emmintrin.h>
#define OIL_SSE2 1
/*
 * 4x4 window with SSE2 (xv's default; smaller windows arrive padded with unique sentinel
 * keys): cols points at 4 column vectors of 4 row keys (stride OIL_SMALL_MAX). For each column c, summing cmpeq(C_c, rotations of every column)
 * gives in lane r minus the window count of cell (r,c)'s colour. The score
 * count * 64 + (63 - row-major index) is maximal for the first cell with the highest count.
 */
/* minus the sum of the four 32-bit lanes (lanes hold 0 / -1 compare results) */
static inline int hsum_neg(__m128i v)
{
    v = _mm_add_epi32(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(1, 0, 3, 2)));
    v = _mm_add_epi32(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(2, 3, 0, 1)));
    return -_mm_cvtsi128_si32(v);
}

static inline uint32_t mode4x4_sse2(const uint32_t *cols, int *bestcount)
{
    const __m128i c0 = _mm_loadu_si128((const __m128i *)(const void *)cols);
    const __m128i c1 = _mm_loadu_si128((const __m128i *)(const void *)(cols + OIL_SMALL_MAX));
    const __m128i c2 = _mm_loadu_si128((const __m128i *)(const void *)(cols + 2 * OIL_SMALL_MAX));
    const __m128i c3 = _mm_loadu_si128((const __m128i *)(const void *)(cols + 3 * OIL_SMALL_MAX));
    __m128i rot[16], t[4], s[4], m;
    const __m128i *cv[4];
    int c, j, best, idx;
    cv[0] = &c0; cv[1] = &c1; cv[2] = &c2; cv[3] = &c3;
    for (c = 0; c < 4; c++) {
        rot[4 * c] = *cv[c];
        rot[4 * c + 1] = _mm_shuffle_epi32(*cv[c], _MM_SHUFFLE(0, 3, 2, 1));
        rot[4 * c + 2] = _mm_shuffle_epi32(*cv[c], _MM_SHUFFLE(1, 0, 3, 2));
        rot[4 * c + 3] = _mm_shuffle_epi32(*cv[c], _MM_SHUFFLE(2, 1, 0, 3));
    }
    for (c = 0; c < 4; c++) {
        __m128i acc = _mm_setzero_si128();
        for (j = 0; j < 16; j++)
            acc = _mm_add_epi32(acc, _mm_cmpeq_epi32(*cv[c], rot[j]));
        t[c] = acc; /* -count per lane */
    }
    for (c = 0; c < 4; c++) /* lane r: 63 - (4r + c) - 64 * (-count) */
        s[c] = _mm_sub_epi32(_mm_set_epi32(63 - 12 - c, 63 - 8 - c, 63 - 4 - c, 63 - c),
                             _mm_slli_epi32(t[c], 6));
    m = _mm_max_epi16(_mm_packs_epi32(s[0], s[1]), _mm_packs_epi32(s[2], s[3]));
    m = _mm_max_epi16(m, _mm_shuffle_epi32(m, _MM_SHUFFLE(1, 0, 3, 2)));
    m = _mm_max_epi16(m, _mm_shuffle_epi32(m, _MM_SHUFFLE(2, 3, 0, 1)));
    m = _mm_max_epi16(m, _mm_shufflelo_epi16(m, _MM_SHUFFLE(2, 3, 0, 1)));
    best = _mm_cvtsi128_si32(m) & 0xFFFF;
    idx = 63 - (best & 63); /* row-major index 4r + c */
    *bestcount = best >> 6;
    return cols[(size_t)(idx & 3) * OIL_SMALL_MAX + (size_t)(idx >> 2)];
}
#else
#define OIL_SSE2 0
#endif

static int oil_pairs(const uint8_t *src, uint8_t *dst, int width, mj_region r, int L, int R)
{
    const int sw = r.w, ey = r.y + r.h - 1, wc = L + R + 1, nd = wc - 1;
    uint32_t *keys;  /* keys[x * OIL_SMALL_MAX + row] */
    int *pairs;      /* pairs[x * OIL_SMALL_MAX + d]: equal pairs between columns x and x + d
                        (d = 0: inside column x) */
    void *mem;
    int x, y, use_pairs = 1;

    mem = malloc((size_t)sw * OIL_SMALL_MAX * (sizeof(uint32_t) + sizeof(int)));
    if (mem == NULL)
        return MJ_ERR_NOMEM;
    keys = (uint32_t *)mem;
    pairs = (int *)(keys + (size_t)sw * OIL_SMALL_MAX);

    for (y = r.y; y <= ey; y++) {
        const int y0 = mj_lo(y, L, r.y), y1 = mj_hi(y, R, ey), k = y1 - y0 + 1;
        uint8_t *o = dst + mj_off(r.x, y, width);
        int i, j, d, distinct = 0;
        /* gather column keys; rows k..3 get unique non-colour sentinels (>= 2^24) so that a
         * clipped window can be treated as a padded 4x4 one */
        for (i = 0; i < OIL_SMALL_MAX; i++) {
            uint32_t *kp = keys + i;
            if (i < k) {
                const uint8_t *p = src + mj_off(r.x, y0 + i, width);
                for (x = 0; x < sw; x++, p += 3, kp += OIL_SMALL_MAX)
                    *kp = ((uint32_t)p[0] << 16) | ((uint32_t)p[1] << 8) | p[2];
            } else {
                for (x = 0; x < sw; x++, kp += OIL_SMALL_MAX)
                    *kp = 0xFF000000u | ((uint32_t)(x & 0xFFFF) << 2) | (uint32_t)i;
            }
        }
        /* equal pairs inside each column and between nearby columns, branch-free */
#if OIL_SSE2
        if (use_pairs && k == 4 && nd == 3) {
            for (x = 0; x < sw; x++) {
                const uint32_t *a = keys + (size_t)x * OIL_SMALL_MAX;
                const __m128i va = _mm_loadu_si128((const __m128i *)(const void *)a);
                int *pp = pairs + (size_t)x * OIL_SMALL_MAX;
                /* rotation by 1 pairs each lane with the next (4 distinct pairs), rotation
                 * by 2 meets each of the 2 remaining pairs twice */
                pp[0] = hsum_neg(_mm_cmpeq_epi32(va, _mm_shuffle_epi32(va, _MM_SHUFFLE(0, 3, 2, 1)))) +
                        hsum_neg(_mm_cmpeq_epi32(va, _mm_shuffle_epi32(va, _MM_SHUFFLE(1, 0, 3, 2)))) / 2;
                for (d = 1; d <= 3 && d < sw - x; d++) {
                    const __m128i vb = _mm_loadu_si128(
                        (const __m128i *)(const void *)(a + (size_t)d * OIL_SMALL_MAX));
                    __m128i acc = _mm_cmpeq_epi32(va, vb);
                    acc = _mm_add_epi32(acc, _mm_cmpeq_epi32(va, _mm_shuffle_epi32(vb, _MM_SHUFFLE(0, 3, 2, 1))));
                    acc = _mm_add_epi32(acc, _mm_cmpeq_epi32(va, _mm_shuffle_epi32(vb, _MM_SHUFFLE(1, 0, 3, 2))));
                    acc = _mm_add_epi32(acc, _mm_cmpeq_epi32(va, _mm_shuffle_epi32(vb, _MM_SHUFFLE(2, 1, 0, 3))));
                    pp[d] = hsum_neg(acc);
                }
            }
        } else
#endif
        if (use_pairs && k == 4 && nd == 3) {
            for (x = 0; x < sw; x++) {
                const uint32_t *a = keys + (size_t)x * OIL_SMALL_MAX;
                const uint32_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
                int *pp = pairs + (size_t)x * OIL_SMALL_MAX;
                pp[0] = (a0 == a1) + (a0 == a2) + (a0 == a3) + (a1 == a2) + (a1 == a3) + (a2 == a3);
                for (d = 1; d <= 3 && d < sw - x; d++) {
                    const uint32_t *b = a + (size_t)d * OIL_SMALL_MAX;
                    int cp = 0;
                    for (j = 0; j < 4; j++) {
                        const uint32_t bj = b[j];
                        cp += (a0 == bj) + (a1 == bj) + (a2 == bj) + (a3 == bj);
                    }
                    pp[d] = cp;
                }
            }
        } else if (use_pairs) {
            for (x = 0; x < sw; x++) {
                const uint32_t *a = keys + (size_t)x * OIL_SMALL_MAX;
                int *pp = pairs + (size_t)x * OIL_SMALL_MAX, cp = 0;
                for (i = 0; i < k; i++)
                    for (j = i + 1; j < k; j++)
                        cp += (a[i] == a[j]);
                pp[0] = cp;
                for (d = 1; d <= nd && d < sw - x; d++) {
                    const uint32_t *b = a + (size_t)d * OIL_SMALL_MAX;
                    cp = 0;
                    for (i = 0; i < k; i++)
                        for (j = 0; j < k; j++)
                            cp += (a[i] == b[j]);
                    pp[d] = cp;
                }
            }
        }
        for (x = 0; x < sw; x++, o += 3) {
            const int x0 = mj_lo(x, L, 0), x1 = mj_hi(x, R, sw - 1), cw = x1 - x0 + 1;
            int npairs = 1, c, bestcount;
            uint32_t win;
            if (use_pairs && cw == 4) {
                /* full 4-column window: pairs of columns (c, c + d) for d <= 3 - (c - x0) */
                const int *p0 = pairs + (size_t)x0 * OIL_SMALL_MAX;
                npairs = p0[0] + p0[1] + p0[2] + p0[3] + p0[4] + p0[5] + p0[6] + p0[8] + p0[9] +
                         p0[12];
            } else if (use_pairs) {
                npairs = 0;
                for (c = x0; c <= x1; c++) {
                    const int *pc = pairs + (size_t)c * OIL_SMALL_MAX - c;
                    int c2;
                    for (c2 = c; c2 <= x1; c2++)
                        npairs += pc[c2];
                }
            }
            if (npairs == 0) {
                win = keys[(size_t)x0 * OIL_SMALL_MAX];
                distinct++;
#if OIL_SSE2
            } else if (wc >= 3 && cw == 4) {
                win = mode4x4_sse2(keys + (size_t)x0 * OIL_SMALL_MAX, &bestcount);
                distinct += (bestcount == 1);
            } else if (wc >= 3) {
                /* pad to 4 columns with unique sentinels: they have count 1 and come after the
                 * real cell (0,0) in row-major order, so they can never win */
                uint32_t cols[16];
                for (c = 0; c < 4; c++)
                    for (i = 0; i < 4; i++)
                        cols[c * 4 + i] = c < cw ? keys[(size_t)(x0 + c) * OIL_SMALL_MAX + (size_t)i]
                                                 : 0xFE000000u | (uint32_t)(c * 4 + i);
                win = mode4x4_sse2(cols, &bestcount);
                distinct += (bestcount == 1);
#endif
            } else {
                uint32_t kk[OIL_SMALL_MAX * OIL_SMALL_MAX];
                const uint32_t *kc = keys + (size_t)x0 * OIL_SMALL_MAX;
                for (i = 0; i < k; i++)
                    for (c = 0; c < cw; c++)
                        kk[i * cw + c] = kc[(size_t)c * OIL_SMALL_MAX + (size_t)i];
                win = mode_first(kk, k * cw, &bestcount);
                distinct += (bestcount == 1);
            }
            o[0] = (uint8_t)(win >> 16);
            o[1] = (uint8_t)(win >> 8);
            o[2] = (uint8_t)win;
        }
        use_pairs = 4 * distinct >= sw;
    }
    free(mem);
    return MJ_OK;
}

int mj_oil_paint_optimized(const uint8_t *src, uint8_t *dst, int width, int height,
                           mj_region r, int n, mj_oil_window window)
{
    int L, R;
    if (!mj_check_args(src, width, height, r) || dst == NULL || !mj_oil_args_ok(n, window))
        return MJ_ERR_ARG;
    mj_oil_extents(n, window, &L, &R);
    if (L == 0 && R == 0)
        return MJ_OK; /* 1x1 window: identity */
    if (L + R + 1 <= OIL_SMALL_MAX)
        return oil_pairs(src, dst, width, r, L, R);
    return oil_hash(src, dst, width, r, L, R);
}
