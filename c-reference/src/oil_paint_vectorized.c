/*
 * Oil Painting (spec 2.6), vectorized for windows of at most 4 x 4 (xv's default 4x4, xv n <= 4, centred n <= 3):
 * every output pixel of a row in its own 32-bit lane, keys 0xRRGGBB (8-bit) or the grey word, one packed row per
 * source row (a ring of window-height rows, packed once, with byte shuffles).
 *   - distinct-colour fast path (noise): per row, the equal pairs between each column and the next ones
 *     (pairs_d[q]: column q with column q + d, d = 0 inside the column) on vectors, shared by every window holding
 *     both columns; a window's pair count is a sum of ten of them. Where a whole vector of windows has none, each
 *     answer is its first cell, xv's (+h,+h) translation.
 *   - otherwise, for the vector of windows: xv's count of each cell (equal cells at or after it, row-major) from all
 *     pairs of cells compared lane-wise, the score count * 64 + (63 - index) (first cell with the largest count,
 *     which is xv's winner: only a colour's first cell carries its full count), its maximum and the key of the
 *     matching cell. Cells outside the region are masked per lane (the sides) or left out (the rows).
 * Larger windows: the optimized port's sliding colour hash (8-bit) or value histogram (grey); a hash table is
 * scattered, dependent loads and stores, with nothing to put in lanes. The scalar path is mj_oil_paint_optimized.
 */
#ifndef MJ_VEC_BITS
#include <stdlib.h>
#include <string.h>
#include "mj_simd.h"

#define OIL_VEC_MAX 4 /* the widest window side on vectors: 16 cells */

#if MJ_X86_SIMD

/* the per-call state: a ring of W packed rows (column q holds region column q - L; rl entries each), the pair counts
 * pairs[d * rl + q] and the row's answers */
typedef struct {
    uint32_t *ring, *pairs, *out;
    size_t rl;
    int W, L, packed; /* rows up to `packed` are in the ring */
    void *mem;
} oil_state;

static int oil_init(oil_state *s, mj_region r, int L, int R, int lanes)
{
    const size_t W = (size_t)(L + R + 1);
    s->W = (int)W;
    s->L = L;
    s->rl = (size_t)r.w + W - 1 + (size_t)lanes;
    s->packed = r.y - 1;
    s->mem = calloc(2 * W * s->rl + (size_t)r.w, sizeof(uint32_t)); /* pads stay 0: compared, never counted */
    if (s->mem == NULL)
        return 0;
    s->ring = (uint32_t *)s->mem;
    s->pairs = s->ring + W * s->rl;
    s->out = s->pairs + W * s->rl;
    return 1;
}

static uint32_t *oil_slot(const oil_state *s, int y)
{
    return s->ring + (size_t)(y % s->W) * s->rl + (size_t)s->L;
}

#define MJ_VEC_BITS 256
#include "mj_vec.h"
#include "oil_paint_vectorized.c"
#include "mj_vec_end.h"
#undef MJ_VEC_BITS
#define MJ_VEC_BITS 512
#include "mj_vec.h"
#include "oil_paint_vectorized.c"
#include "mj_vec_end.h"
#undef MJ_VEC_BITS

/* the windows' row range and the ring's rows pointers for output row y */
static int oil_rows(const oil_state *s, mj_region r, int R, int y, const uint32_t **rows)
{
    const int y0 = mj_lo(y, s->L, r.y), y1 = mj_hi(y, R, r.y + r.h - 1);
    int i;
    for (i = 0; i <= y1 - y0; i++)
        rows[i] = oil_slot(s, y0 + i) - s->L;
    return y1 - y0 + 1;
}

/* bpp 3: RGB pixels, keys 0xRRGGBB; 2: grey words, the word as the key (equal words are equal values) */
static int oil_px(const void *src, void *dst, int bpp, int width, mj_region r, int L, int R)
{
    const int avx512 = mj_simd() == MJ_SIMD_AVX512;
    oil_state s;
    int y;
    if (!oil_init(&s, r, L, R, avx512 ? 16 : 8))
        return MJ_ERR_NOMEM;
    for (y = r.y; y < r.y + r.h; y++) {
        const uint32_t *rows[OIL_VEC_MAX];
        const int y1 = mj_hi(y, R, r.y + r.h - 1), k = oil_rows(&s, r, R, y, rows);
        const size_t first = (size_t)y * (size_t)width + (size_t)r.x;
        for (; s.packed < y1; s.packed++) { /* each source row once, as it enters the windows */
            const size_t from = (size_t)(s.packed + 1) * (size_t)width + (size_t)r.x;
            if (avx512)
                pack_row_avx512(src, from, bpp, oil_slot(&s, s.packed + 1), r.w);
            else
                pack_row_avx2(src, from, bpp, oil_slot(&s, s.packed + 1), r.w);
        }
        if (avx512) {
            oil_row_avx512(rows, k, s.W, L, r.w, s.pairs, s.rl, s.out);
            unpack_row_avx512(s.out, dst, first, bpp, r.w);
        } else {
            oil_row_avx2(rows, k, s.W, L, r.w, s.pairs, s.rl, s.out);
            unpack_row_avx2(s.out, dst, first, bpp, r.w);
        }
    }
    free(s.mem);
    return MJ_OK;
}

/* on vectors: a window of 2..4 columns and rows, a region at least a vector wide */
static int oil_vec_ok(mj_region r, int L, int R)
{
    const int W = L + R + 1;
    return W >= 2 && W <= OIL_VEC_MAX && mj_simd() != MJ_SIMD_SCALAR
           && r.w >= (mj_simd() == MJ_SIMD_AVX512 ? 16 : 8);
}
#endif

int mj_oil_paint_vectorized(const uint8_t *src, uint8_t *dst, int width, int height, mj_region r, int n,
                            mj_oil_window window)
{
    int L, R;
    if (!mj_check_args(src, width, height, r) || dst == NULL || !mj_oil_args_ok(n, window))
        return MJ_ERR_ARG;
    mj_oil_extents(n, window, &L, &R);
#if MJ_X86_SIMD
    if (oil_vec_ok(r, L, R))
        return oil_px(src, dst, 3, width, r, L, R);
#endif
    return mj_oil_paint_optimized(src, dst, width, height, r, n, window);
}

int mj_oil_paint_gray16_vectorized(const uint16_t *src, uint16_t *dst, int width, int height, mj_region r,
                                   mj_gray_format fmt, int n, mj_oil_window window)
{
    int L, R;
    if (!mj_check_gray_args(src, width, height, r, fmt) || dst == NULL || !mj_oil_args_ok(n, window))
        return MJ_ERR_ARG;
    mj_oil_extents(n, window, &L, &R);
#if MJ_X86_SIMD
    if (oil_vec_ok(r, L, R))
        return oil_px(src, dst, 2, width, r, L, R);
#endif
    return mj_oil_paint_gray16_optimized(src, dst, width, height, r, fmt, n, window);
}

#else /* ---- the kernels at one vector width (MJ_VEC_BITS), included above ---- */

#if MJ_VEC_BITS == 512
/* lane masks as vectors of 0 / -1 (AVX-512 F: a masked move of all ones) */
#define EQ32(a, b) _mm512_maskz_mov_epi32(_mm512_cmpeq_epi32_mask((a), (b)), set1_32(-1))
#define GT32(a, b) _mm512_maskz_mov_epi32(_mm512_cmpgt_epi32_mask((a), (b)), set1_32(-1))
#define ANY(v) (_mm512_test_epi32_mask((v), (v)) != 0)
#define IOTA32 _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
/* cnt + (a == b) per lane; where score > best, key */
#define COUNT_EQ(cnt, a, b) _mm512_mask_sub_epi32((cnt), _mm512_cmpeq_epi32_mask((a), (b)), (cnt), set1_32(-1))
#define TAKE_GT(win, key, score, best) _mm512_mask_mov_epi32((win), _mm512_cmpgt_epi32_mask((score), (best)), (key))
/* 16 RGB pixels: 48 bytes in, 48 bytes out (byte masks), dwords moved between 128-bit lanes */
#define LOAD_PX(p) _mm512_maskz_loadu_epi8((__mmask64)0xFFFFFFFFFFFFull, (p))
#define STORE_PX(p, v) _mm512_mask_storeu_epi8((p), (__mmask64)0xFFFFFFFFFFFFull, (v))
#define PERM32(v, idx) _mm512_permutexvar_epi32((idx), (v))
#define SHUF8 _mm512_shuffle_epi8
#define PACK_IDX _mm512_setr_epi32(0, 1, 2, 2, 3, 4, 5, 5, 6, 7, 8, 8, 9, 10, 11, 11)
#define UNPACK_IDX _mm512_setr_epi32(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 15, 15, 15, 15)
#define PACK_SHUF _mm512_broadcast_i32x4(PACK_SHUF128)
#define UNPACK_SHUF _mm512_broadcast_i32x4(UNPACK_SHUF128)
#else
#define EQ32 _mm256_cmpeq_epi32
#define GT32 _mm256_cmpgt_epi32
#define ANY(v) (!_mm256_testz_si256((v), (v)))
#define IOTA32 _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)
#define COUNT_EQ(cnt, a, b) sub32((cnt), _mm256_cmpeq_epi32((a), (b)))
#define TAKE_GT(win, key, score, best) _mm256_blendv_epi8((win), (key), _mm256_cmpgt_epi32((score), (best)))
/* 8 RGB pixels: 24 bytes = 6 dwords in and out (dword masks) */
#define MASK6 _mm256_setr_epi32(-1, -1, -1, -1, -1, -1, 0, 0)
#define LOAD_PX(p) _mm256_maskload_epi32((const int *)(const void *)(p), MASK6)
#define STORE_PX(p, v) _mm256_maskstore_epi32((int *)(void *)(p), MASK6, (v))
#define PERM32(v, idx) _mm256_permutevar8x32_epi32((v), (idx))
#define SHUF8 _mm256_shuffle_epi8
#define PACK_IDX _mm256_setr_epi32(0, 1, 2, 2, 3, 4, 5, 5)
#define UNPACK_IDX _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 7, 7)
#define PACK_SHUF _mm256_broadcastsi128_si256(PACK_SHUF128)
#define UNPACK_SHUF _mm256_broadcastsi128_si256(UNPACK_SHUF128)
#endif
/* within a 128-bit lane: pixel m's bytes 3m, 3m+1, 3m+2 (R, G, B) to key bytes 4m+2, 4m+1, 4m (little-endian
 * 0xRRGGBB, top byte 0), and back */
#define PACK_SHUF128 _mm_setr_epi8(2, 1, 0, -128, 5, 4, 3, -128, 8, 7, 6, -128, 11, 10, 9, -128)
#define UNPACK_SHUF128 _mm_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -128, -128, -128, -128)

/* keys of n pixels from element `from` of src (bpp 3: 0xRRGGBB from RGB bytes; 2: grey words); RGB: four pixels
 * (12 bytes) into each 128-bit lane, then a byte shuffle per lane; masked loads never read past the pixels */
static void VF(pack_row)(const void *src, size_t from, int bpp, uint32_t *q, int n)
{
    int x = 0;
    if (bpp == 3) {
        const uint8_t *p = (const uint8_t *)src + 3u * from;
        const vi shuf = PACK_SHUF;
        for (; x + V32 <= n; x += V32)
            st(q + x, SHUF8(PERM32(LOAD_PX(p + 3 * x), PACK_IDX), shuf));
        for (; x < n; x++)
            q[x] = ((uint32_t)p[3 * x] << 16) | ((uint32_t)p[3 * x + 1] << 8) | p[3 * x + 2];
    } else {
        const uint16_t *p = (const uint16_t *)src + from;
        for (; x + V32 <= n; x += V32)
            st(q + x, u16_u32(ldh(p + x)));
        for (; x < n; x++)
            q[x] = p[x];
    }
}

/* the reverse: n keys into pixels from element `first` of dst */
static void VF(unpack_row)(const uint32_t *keys, void *dst, size_t first, int bpp, int n)
{
    int x = 0;
    if (bpp == 3) {
        uint8_t *o = (uint8_t *)dst + 3u * first;
        const vi shuf = UNPACK_SHUF;
        for (; x + V32 <= n; x += V32)
            STORE_PX(o + 3 * x, PERM32(SHUF8(ld(keys + x), shuf), UNPACK_IDX));
        for (; x < n; x++) {
            o[3 * x] = (uint8_t)(keys[x] >> 16);
            o[3 * x + 1] = (uint8_t)(keys[x] >> 8);
            o[3 * x + 2] = (uint8_t)keys[x];
        }
    } else {
        uint16_t *o = (uint16_t *)dst + first;
        for (; x + V32 <= n; x += V32)
            sth(o + x, u32_u16(ld(keys + x)));
        for (; x < n; x++)
            o[x] = (uint16_t)keys[x];
    }
}

/* the answers (keys) of one output row: rows[i][q] is the key of window row i at region column q - L (k rows);
 * W-column windows, sw columns */
static void VF(oil_row)(const uint32_t *const *rows, int k, int W, int L, int sw, uint32_t *pairs, size_t rl,
                        uint32_t *out)
{
    const int R = W - 1 - L, qn = sw + W - 1;
    int d, q, p;
    /* pairs_d[q]: equal pairs of column q with column q + d over the k rows (d = 0: inside column q) */
    for (d = 0; d < W; d++) {
        for (q = 0; q < qn - d; q += V32) {
            const int qq = q + V32 <= qn - d ? q : qn - d - V32; /* the last vector overlaps the one before */
            vi acc = zero();
            int i, i2;
            for (i = 0; i < k; i++) {
                const vi a = ld(rows[i] + qq);
                for (i2 = d == 0 ? i + 1 : 0; i2 < k; i2++)
                    acc = sub32(acc, EQ32(a, ld(rows[i2] + qq + d)));
            }
            st(pairs + (size_t)d * rl + (size_t)qq, acc);
        }
    }
    for (p = 0; p < sw; p += V32) {
        const int pp = p + V32 <= sw ? p : sw - V32;
        vi key[OIL_VEC_MAX * OIL_VEC_MAX], valid[OIL_VEC_MAX], best, win;
        int i, j, c, c2, border;
        if (pp >= L && pp + V32 - 1 + R <= sw - 1) { /* every window of the vector inside the region's sides */
            vi np = zero();
            for (c = 0; c < W; c++)
                for (d = 0; d < W - c; d++)
                    np = add32(np, ld(pairs + (size_t)d * rl + (size_t)(pp + c)));
            if (!ANY(np)) {
                st(out + pp, ld(rows[0] + pp)); /* all distinct: the first cell */
                continue;
            }
        }
        border = !(pp >= L && pp + V32 - 1 + R <= sw - 1);
        for (j = 0; j < W; j++) { /* cell column j is region column pp + lane + j - L: inside [0, sw)? */
            const vi col = add32(set1_32(pp + j - L), IOTA32);
            valid[j] = and_(GT32(col, set1_32(-1)), GT32(set1_32(sw), col));
        }
        for (i = 0; i < k; i++)
            for (j = 0; j < W; j++)
                key[i * W + j] = ld(rows[i] + pp + j);
        /* cell by cell in row-major order: its equal cells after it (outside cells not counted), the score
         * count * 64 + 64 + 63 - index (0 outside); a larger score takes over: the largest is xv's winner */
        best = zero();
        win = zero();
        for (c = 0; c < k * W; c++) {
            vi cnt = zero(), score;
            if (border) {
                for (c2 = c + 1; c2 < k * W; c2++)
                    cnt = sub32(cnt, and_(EQ32(key[c], key[c2]), valid[c2 % W]));
                score = and_(add32(slli32(cnt, 6), set1_32(127 - c)), valid[c % W]);
            } else {
                for (c2 = c + 1; c2 < k * W; c2++)
                    cnt = COUNT_EQ(cnt, key[c], key[c2]);
                score = add32(slli32(cnt, 6), set1_32(127 - c));
            }
            win = TAKE_GT(win, key[c], score, best);
            best = max32(best, score);
        }
        st(out + pp, win);
    }
}

#undef EQ32
#undef GT32
#undef ANY
#undef IOTA32
#undef COUNT_EQ
#undef TAKE_GT
#undef LOAD_PX
#undef STORE_PX
#undef PERM32
#undef SHUF8
#undef PACK_IDX
#undef UNPACK_IDX
#undef PACK_SHUF
#undef UNPACK_SHUF
#undef PACK_SHUF128
#undef UNPACK_SHUF128
#if MJ_VEC_BITS == 256
#undef MASK6
#endif

#endif
