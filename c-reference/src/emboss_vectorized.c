/*
 * Emboss (spec 2.5), vectorized; the design of the Java kernel (EmbossVector, MonoVector) at its vector width.
 * 8-bit: an interior row on 16-bit lanes (|S| <= 1020), 128 + T with T = S >> 3 (floor) or the same shift after
 * adding 7 to negative sums (toward zero); the clamp to 0..255 never binds (|T| <= 127). MONO across the
 * interleaved channels:
 *   - AVX-512: in registers; a vector starts at a pixel and three word permutes (vpermw) give every lane its
 *     pixel's R, G and B, so (11 R + 16 G + 5 B) >> 5 lands in all three of the pixel's lanes. The last 32 mod 3
 *     lanes hold a partial pixel: the next vector starts there and writes them again.
 *   - AVX2 (no cross-lane word permute): the channel values go to a scratch row c, then q[k] = 11 c[k] + 16 c[k+1]
 *     + 5 c[k+2] everywhere, and each byte takes q of its pixel's first channel through two blends.
 * Grey: M + T on 32-bit lanes (|S| <= 4R needs 19 bits), the clamp dropped as in the optimized port.
 * Frame rows and columns are the grey 128 (= MONO(128,128,128)) / M. The scalar path is mj_emboss_optimized.
 */
#ifndef MJ_VEC_BITS
#include <stdlib.h>
#include "mj_simd.h"

static int rounding_ok(mj_emboss_rounding r)
{
    return r == MJ_EMBOSS_ROUNDING_XV || r == MJ_EMBOSS_ROUNDING_FLOOR;
}

#if MJ_X86_SIMD /* the helpers of the SIMD kernels, then the kernels at both widths */

/* floor(s / 8) without relying on an arithmetic shift */
static int floor_div8(int s)
{
    int q = s / 8;
    if ((s % 8) != 0 && s < 0)
        q--;
    return q;
}

/* 128 + T of byte k of an interior row (a, b, c: the rows above, at and below) */
static inline int channel_u8(const uint8_t *a, const uint8_t *b, const uint8_t *c, size_t k, int floor_rounding)
{
    const int s = 2 * (c[k + 3] - a[k - 3]) + (c[k] - a[k]) + (b[k + 3] - b[k - 3]);
    return 128 + (floor_rounding ? floor_div8(s) : s / 8);
}

/* the pixel at byte k (a pixel's first byte) of an interior row, scalar */
static inline void pixel_u8(const uint8_t *a, const uint8_t *b, const uint8_t *c, uint8_t *o, size_t k,
                            int floor_rounding)
{
    const int m = mj_mono(channel_u8(a, b, c, k, floor_rounding), channel_u8(a, b, c, k + 1, floor_rounding),
                          channel_u8(a, b, c, k + 2, floor_rounding));
    o[k] = o[k + 1] = o[k + 2] = (uint8_t)m;
}

/* the frame: a whole row, or the first and last pixel of an interior row */
static void grey_row_u8(uint8_t *o, size_t len)
{
    size_t k;
    for (k = 0; k < len; k++)
        o[k] = 128;
}

#define MJ_VEC_BITS 256
#include "mj_vec.h"
#include "emboss_vectorized.c"
#include "mj_vec_end.h"
#undef MJ_VEC_BITS
#define MJ_VEC_BITS 512
#include "mj_vec.h"
#include "emboss_vectorized.c"
#include "mj_vec_end.h"
#undef MJ_VEC_BITS
#endif

int mj_emboss_vectorized(const uint8_t *src, uint8_t *dst, int width, int height, mj_region r,
                         mj_emboss_rounding rounding)
{
    if (!mj_check_args(src, width, height, r) || dst == NULL || !rounding_ok(rounding))
        return MJ_ERR_ARG;
#if MJ_X86_SIMD
    switch (mj_simd()) {
    case MJ_SIMD_AVX512: return emboss_u8_avx512(src, dst, width, r, rounding == MJ_EMBOSS_ROUNDING_FLOOR);
    case MJ_SIMD_AVX2: return emboss_u8_avx2(src, dst, width, r, rounding == MJ_EMBOSS_ROUNDING_FLOOR);
    default: break;
    }
#endif
    return mj_emboss_optimized(src, dst, width, height, r, rounding);
}

int mj_emboss_gray16_vectorized(const uint16_t *src, uint16_t *dst, int width, int height, mj_region r,
                                mj_gray_format fmt, mj_emboss_rounding rounding)
{
    if (!mj_check_gray_args(src, width, height, r, fmt) || dst == NULL || !rounding_ok(rounding))
        return MJ_ERR_ARG;
#if MJ_X86_SIMD
    switch (mj_simd()) {
    case MJ_SIMD_AVX512: return emboss_g_avx512(src, dst, width, r, fmt, rounding == MJ_EMBOSS_ROUNDING_FLOOR);
    case MJ_SIMD_AVX2: return emboss_g_avx2(src, dst, width, r, fmt, rounding == MJ_EMBOSS_ROUNDING_FLOOR);
    default: break;
    }
#endif
    return mj_emboss_gray16_optimized(src, dst, width, height, r, fmt, rounding);
}

#else /* ---- the kernels at one vector width (MJ_VEC_BITS), included above ---- */

/* 128 + T of the V16 bytes from k of an interior row, on 16-bit lanes */
static inline vi VF(channels_u8)(const uint8_t *a, const uint8_t *b, const uint8_t *c, size_t k, int floor_rounding)
{
    /* S = 2 (P(+1,+1) - P(-1,-1)) + (P(0,+1) - P(0,-1)) + (P(+1,0) - P(-1,0)) */
    const vi s = add16(add16(slli16(sub16(u8_u16(ldh(c + k + 3)), u8_u16(ldh(a + k - 3))), 1),
                             sub16(u8_u16(ldh(c + k)), u8_u16(ldh(a + k)))),
                       sub16(u8_u16(ldh(b + k + 3)), u8_u16(ldh(b + k - 3))));
    const vi t = floor_rounding ? srai16(s, 3) : srai16(add16(s, and_(srai16(s, 15), set1_16(7))), 3);
    return add16(t, set1_16(128));
}

#if MJ_VEC_BITS == 512
/* interior bytes [3, to) of a row: MONO in registers (see the top); returns the first pixel byte not written */
static size_t VF(interior_u8)(const uint8_t *a, const uint8_t *b, const uint8_t *c, uint8_t *o, size_t to,
                              int floor_rounding, void *scratch)
{
    enum { STEP = V16 - V16 % 3 };
    uint16_t idx[3][V16];
    vi red, green, blue;
    size_t k = 3;
    int l;
    (void)scratch;
    for (l = 0; l < V16; l++) {
        idx[0][l] = (uint16_t)(l < STEP ? l - l % 3 : l);
        idx[1][l] = (uint16_t)(l < STEP ? l - l % 3 + 1 : l);
        idx[2][l] = (uint16_t)(l < STEP ? l - l % 3 + 2 : l);
    }
    red = ld(idx[0]);
    green = ld(idx[1]);
    blue = ld(idx[2]);
    for (; k + V16 <= to; k += STEP) {
        const vi t = VF(channels_u8)(a, b, c, k, floor_rounding);
        const vi m = add16(add16(_mm512_mullo_epi16(_mm512_permutexvar_epi16(red, t), set1_16(11)),
                                 slli16(_mm512_permutexvar_epi16(green, t), 4)),
                           _mm512_mullo_epi16(_mm512_permutexvar_epi16(blue, t), set1_16(5)));
        sth(o + k, u16_u8(srai16(m, 5)));
    }
    return k;
}
#else
/* interior bytes [3, to) of a row through the scratch rows c16 and q (see the top); writes them all */
static size_t VF(interior_u8)(const uint8_t *a, const uint8_t *b, const uint8_t *c, uint8_t *o, size_t to,
                              int floor_rounding, void *scratch)
{
    uint16_t *c16 = (uint16_t *)scratch, *q = c16 + to + 2 + V16;
    uint16_t second[3][V16], third[3][V16];
    vi sec[3], thi[3];
    size_t k;
    int l, p;
    for (p = 0; p < 3; p++) {
        for (l = 0; l < V16; l++) {
            second[p][l] = (uint16_t)((p + l) % 3 == 1 ? 0xFFFF : 0);
            third[p][l] = (uint16_t)((p + l) % 3 == 2 ? 0xFFFF : 0);
        }
        sec[p] = ld(second[p]);
        thi[p] = ld(third[p]);
    }
    for (k = 3; k + V16 <= to; k += V16)
        st(c16 + k, VF(channels_u8)(a, b, c, k, floor_rounding));
    for (; k < to; k++)
        c16[k] = (uint16_t)channel_u8(a, b, c, k, floor_rounding);
    /* q at every byte (only a pixel's first byte is used); c16[to], c16[to + 1] are zeros from calloc */
    for (k = 3; k + V16 <= to; k += V16)
        st(q + k, add16(add16(_mm256_mullo_epi16(ld(c16 + k), set1_16(11)), slli16(ld(c16 + k + 1), 4)),
                        _mm256_mullo_epi16(ld(c16 + k + 2), set1_16(5))));
    for (; k < to; k++)
        q[k] = (uint16_t)(11 * c16[k] + 16 * c16[k + 1] + 5 * c16[k + 2]);
    for (k = 3; k + V16 <= to; k += V16) {
        const int ph = (int)(k % 3);
        const vi v = _mm256_blendv_epi8(_mm256_blendv_epi8(ld(q + k), ld(q + k - 1), sec[ph]), ld(q + k - 2),
                                        thi[ph]);
        sth(o + k, u16_u8(srai16(v, 5)));
    }
    for (; k < to; k++)
        o[k] = (uint8_t)(q[k - k % 3] >> 5);
    return to;
}
#endif

static int VF(emboss_u8)(const uint8_t *src, uint8_t *dst, int width, mj_region r, int floor_rounding)
{
    const int sw = r.w, ey = r.y + r.h - 1;
    const size_t len = (size_t)sw * 3u, to = len - 3;
    int y;
    /* AVX2's scratch rows: channel values and MONO sums, each readable a vector past the row */
    void *scratch = MJ_VEC_BITS == 256 && sw >= 3 && r.h >= 3 ? calloc(2 * (len + V16), sizeof(uint16_t)) : NULL;

    if (MJ_VEC_BITS == 256 && sw >= 3 && r.h >= 3 && scratch == NULL)
        return MJ_ERR_NOMEM;
    for (y = r.y; y <= ey; y++) {
        uint8_t *o = dst + mj_off(r.x, y, width);
        const uint8_t *a, *b, *c;
        size_t k;
        if (y == r.y || y == ey || sw < 3) {
            grey_row_u8(o, len);
            continue;
        }
        a = src + mj_off(r.x, y - 1, width);
        b = src + mj_off(r.x, y, width);
        c = src + mj_off(r.x, y + 1, width);
        k = VF(interior_u8)(a, b, c, o, to, floor_rounding, scratch);
        for (; k < to; k += 3)
            pixel_u8(a, b, c, o, k, floor_rounding);
        grey_row_u8(o, 3);
        grey_row_u8(o + to, 3);
    }
    free(scratch);
    return MJ_OK;
}

/* u of V32 words from p as 32-bit lanes */
static inline vi VF(u32_at)(const uint16_t *p, vh bias)
{
    return u16_u32(addh16(ldh(p), bias));
}

static int VF(emboss_g)(const uint16_t *src, uint16_t *dst, int width, mj_region r, mj_gray_format fmt,
                        int floor_rounding)
{
    const int ex = r.x + r.w - 1, ey = r.y + r.h - 1, min = mj_g_min(fmt), mid = (mj_g_range(fmt) + 1) / 2;
    const uint16_t midw = mj_g_w(mid, min);
    const vh bias = set1h16(-min), back = set1h16(min);
    const vi vmid = set1_32(mid), seven = set1_32(7);
    int x, y;
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
        for (x = r.x + 1; x + V32 <= ex; x += V32) {
            const vi s = add32(add32(slli32(sub32(VF(u32_at)(down + x + 1, bias), VF(u32_at)(up + x - 1, bias)), 1),
                                     sub32(VF(u32_at)(down + x, bias), VF(u32_at)(up + x, bias))),
                               sub32(VF(u32_at)(row + x + 1, bias), VF(u32_at)(row + x - 1, bias)));
            const vi t = floor_rounding ? srai32(s, 3) : srai32(add32(s, and_(srai32(s, 31), seven)), 3);
            sth(out + x, addh16(u32_u16(add32(vmid, t)), back));
        }
        for (; x < ex; x++) {
            const int s = 2 * mj_g_u(down[x + 1], min) + mj_g_u(down[x], min) + mj_g_u(row[x + 1], min)
                          - mj_g_u(row[x - 1], min) - mj_g_u(up[x], min) - 2 * mj_g_u(up[x - 1], min);
            out[x] = mj_g_w(mid + (floor_rounding ? floor_div8(s) : s / 8), min);
        }
    }
    return MJ_OK;
}

#endif
