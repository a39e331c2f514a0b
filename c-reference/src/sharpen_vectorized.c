/*
 * Sharpen (spec 2.2), vectorized: binary64 lanes (8 with AVX-512, 4 with AVX2), the design of the Java kernel
 * (SharpenVector). Every binary64 operation of the spec is done in its lane with the spec's operands and in the
 * spec's order; lane + - * /, min, max and compares are correctly rounded exactly like the scalar operations, and
 * nothing is fused (separate multiplies and adds; the library is built with -ffp-contract=off), so every lane gets
 * the scalar code's bits. Branches become blends between values the scalar code computes the same way:
 *   - the nine-term sum and v' = (Vc - (f S) / 9) / g, clamped with min and max;
 *   - the hue: the branch of the spec (red max, else green max, else blue) picks the operands a, c and the base
 *     0, 2, 4 of H = (base + (mx - a) / del) - (mx - c) / del (0 + x == x exactly for x >= +0);
 *   - H < 0 -> H + 360 and H == 360 -> 0 as blends; the sector j = floor(H / 60) (0..6) comes from the masks
 *     H >= 1 .. H >= 6 and chooses each channel's source (v', P, Q, T) by overwriting in increasing j;
 *   - grey pixels (del == 0, exactly the spec's Sat = 0) take v' (their lanes' NaN hue is blended away);
 *   - c * 255 + 0.5 (>= 0.5, so truncation is the spec's floor) is converted in the lanes, narrowed to bytes in
 *     three planar rows, and a scalar loop interleaves them.
 * Rows are padded by a vector, so the last vector of a row reads padding (lanes computed, never stored): no tail.
 * Grey: the same v' on the words' V = u / R, floor(v' R + 0.5) converted in the lanes.
 * The scalar path is mj_sharpen_optimized.
 */
#ifndef MJ_VEC_BITS
#include <stdlib.h>
#include <string.h>
#include "mj_simd.h"

#if MJ_X86_SIMD
#define MJ_VEC_BITS 256
#include "mj_vec.h"
#include "sharpen_vectorized.c"
#include "mj_vec_end.h"
#undef MJ_VEC_BITS
#define MJ_VEC_BITS 512
#include "mj_vec.h"
#include "sharpen_vectorized.c"
#include "mj_vec_end.h"
#undef MJ_VEC_BITS
#endif

int mj_sharpen_vectorized(const uint8_t *src, uint8_t *dst, int width, int height, mj_region r, int p)
{
    if (!mj_check_args(src, width, height, r) || dst == NULL || p < 0 || p > 99)
        return MJ_ERR_ARG;
    if (r.w < 3 || r.h < 3)
        return MJ_OK;
#if MJ_X86_SIMD
    switch (mj_simd()) {
    case MJ_SIMD_AVX512: return sharpen_u8_avx512(src, dst, width, r, p);
    case MJ_SIMD_AVX2: return sharpen_u8_avx2(src, dst, width, r, p);
    default: break;
    }
#endif
    return mj_sharpen_optimized(src, dst, width, height, r, p);
}

int mj_sharpen_gray16_vectorized(const uint16_t *src, uint16_t *dst, int width, int height, mj_region r,
                                 mj_gray_format fmt, int p)
{
    if (!mj_check_gray_args(src, width, height, r, fmt) || dst == NULL || p < 0 || p > 99)
        return MJ_ERR_ARG;
    if (r.w < 3 || r.h < 3)
        return MJ_OK;
#if MJ_X86_SIMD
    switch (mj_simd()) {
    case MJ_SIMD_AVX512: return sharpen_g_avx512(src, dst, width, r, fmt, p);
    case MJ_SIMD_AVX2: return sharpen_g_avx2(src, dst, width, r, fmt, p);
    default: break;
    }
#endif
    return mj_sharpen_gray16_optimized(src, dst, width, height, r, fmt, p);
}

#else /* ---- the kernels at one vector width (MJ_VEC_BITS), included above ---- */

#if MJ_VEC_BITS == 256
#define VD 4
#define vm __m256d /* a lane mask */
#define ldd(p) _mm256_loadu_pd(p)
#define std_(p, v) _mm256_storeu_pd((p), (v))
#define setd _mm256_set1_pd
#define addd _mm256_add_pd
#define subd _mm256_sub_pd
#define muld _mm256_mul_pd
#define divd _mm256_div_pd
#define mind _mm256_min_pd
#define maxd _mm256_max_pd
#define eqd(a, b) _mm256_cmp_pd((a), (b), _CMP_EQ_OQ)
#define ltd(a, b) _mm256_cmp_pd((a), (b), _CMP_LT_OQ)
#define ged(a, b) _mm256_cmp_pd((a), (b), _CMP_GE_OQ)
#define blendd(a, b, m) _mm256_blendv_pd((a), (b), (m)) /* b where m */
#define andnotm(a, b) _mm256_andnot_pd((a), (b))        /* b and not a */
/* truncated lanes -> VD bytes / words */
static inline void VF(st_bytes)(uint8_t *p, vd v)
{
    const __m128i i = _mm256_cvttpd_epi32(v);
    const __m128i w = _mm_packus_epi32(i, i);
    const int b = _mm_cvtsi128_si32(_mm_packus_epi16(w, w));
    memcpy(p, &b, 4);
}
static inline void VF(st_words)(uint16_t *p, vd v, int min)
{
    const __m128i i = _mm256_cvttpd_epi32(v);
    _mm_storel_epi64((__m128i *)(void *)p, _mm_add_epi16(_mm_packus_epi32(i, i), _mm_set1_epi16((short)min)));
}
/* V32 unsigned words from p (offset values after adding -min) as doubles, one half at a time */
static inline vd VF(words_d)(const uint16_t *p, int min)
{
    const __m128i w = _mm_add_epi16(_mm_loadl_epi64((const __m128i *)(const void *)p), _mm_set1_epi16((short)-min));
    return _mm256_cvtepi32_pd(_mm_cvtepu16_epi32(w));
}
#else
#define VD 8
#define vm __mmask8
#define ldd(p) _mm512_loadu_pd(p)
#define std_(p, v) _mm512_storeu_pd((p), (v))
#define setd _mm512_set1_pd
#define addd _mm512_add_pd
#define subd _mm512_sub_pd
#define muld _mm512_mul_pd
#define divd _mm512_div_pd
#define mind _mm512_min_pd
#define maxd _mm512_max_pd
#define eqd(a, b) _mm512_cmp_pd_mask((a), (b), _CMP_EQ_OQ)
#define ltd(a, b) _mm512_cmp_pd_mask((a), (b), _CMP_LT_OQ)
#define ged(a, b) _mm512_cmp_pd_mask((a), (b), _CMP_GE_OQ)
#define blendd(a, b, m) _mm512_mask_blend_pd((m), (a), (b))
#define andnotm(a, b) ((__mmask8)((b) & ~(a)))
static inline void VF(st_bytes)(uint8_t *p, vd v)
{
    _mm_storel_epi64((__m128i *)(void *)p, _mm256_cvtepi32_epi8(_mm512_cvttpd_epi32(v)));
}
static inline void VF(st_words)(uint16_t *p, vd v, int min)
{
    _mm_storeu_si128((__m128i *)(void *)p,
                     _mm_add_epi16(_mm256_cvtepi32_epi16(_mm512_cvttpd_epi32(v)), _mm_set1_epi16((short)min)));
}
static inline vd VF(words_d)(const uint16_t *p, int min)
{
    const __m128i w = _mm_add_epi16(_mm_loadu_si128((const __m128i *)(const void *)p), _mm_set1_epi16((short)-min));
    return _mm512_cvtepi32_pd(_mm256_cvtepu16_epi32(w));
}
#endif

/* v' of the lanes at i: the nine V summed in the spec's order, (Vc - (f S) / 9) / g clamped to [0, 1] */
static inline vd VF(vnew)(const double *top, const double *mid, const double *bot, int i, vd f, vd g)
{
    vd s = addd(addd(addd(ldd(top + i - 1), ldd(top + i)), ldd(top + i + 1)), ldd(mid + i - 1));
    const vd vc = ldd(mid + i);
    s = addd(addd(addd(addd(addd(s, vc), ldd(mid + i + 1)), ldd(bot + i - 1)), ldd(bot + i)), ldd(bot + i + 1));
    return maxd(mind(divd(subd(vc, divd(muld(s, f), setd(9.0))), g), setd(1.0)), setd(0.0));
}

/* one source row: its channels as k / 255.0 and its V (the largest: k / 255.0 is monotonic) */
static void VF(source_u8)(const uint8_t *s, int sw, const double *div255, double *rd, double *gd, double *bd,
                          double *v)
{
    int i;
    for (i = 0; i < sw; i++, s += 3) {
        const int m = mj_imax(mj_imax(s[0], s[1]), s[2]);
        rd[i] = div255[s[0]];
        gd[i] = div255[s[1]];
        bd[i] = div255[s[2]];
        v[i] = div255[m];
    }
}

/* interior pixels 1 .. sw - 2 of a row into the planar byte rows or, og, ob */
static void VF(row_u8)(const double *top, const double *mid, const double *bot, const double *rd, const double *gd,
                       const double *bd, uint8_t *orr, uint8_t *og, uint8_t *ob, int sw, double f, double g)
{
    const vd vf = setd(f), vg = setd(g), one = setd(1.0), zero_d = setd(0.0);
    int i;
    for (i = 1; i < sw - 1; i += VD) {
        const vd v = VF(vnew)(top, mid, bot, i, vf, vg), mx = ldd(mid + i);
        const vd r = ldd(rd + i), gr = ldd(gd + i), b = ldd(bd + i);
        const vd del = subd(mx, mind(mind(r, gr), b));
        const vm grey = eqd(del, zero_d), red_max = eqd(r, mx), green_max = andnotm(red_max, eqd(gr, mx));
        const vd sat = divd(del, mx);
        /* blue max: (4 + gc) - rc; green max: (2 + rc) - bc; red max: (0 + bc) - gc */
        const vd a = blendd(blendd(gr, r, green_max), b, red_max);
        const vd c = blendd(blendd(r, b, green_max), gr, red_max);
        const vd base = blendd(blendd(setd(4.0), setd(2.0), green_max), zero_d, red_max);
        vd h = muld(subd(addd(base, divd(subd(mx, a), del)), divd(subd(mx, c), del)), setd(60.0));
        vm ge1, ge2, ge3, ge4, ge5, ge6;
        vd j, fr, pp, qq, tt, cr, cg, cb;
        h = blendd(h, addd(h, setd(360.0)), ltd(h, zero_d));
        h = blendd(h, zero_d, eqd(h, setd(360.0)));
        h = divd(h, setd(60.0));
        ge1 = ged(h, one);
        ge2 = ged(h, setd(2.0));
        ge3 = ged(h, setd(3.0));
        ge4 = ged(h, setd(4.0));
        ge5 = ged(h, setd(5.0));
        ge6 = ged(h, setd(6.0));
        j = blendd(blendd(blendd(blendd(blendd(blendd(zero_d, one, ge1), setd(2.0), ge2), setd(3.0), ge3),
                                 setd(4.0), ge4), setd(5.0), ge5), setd(6.0), ge6);
        fr = subd(h, j);
        pp = muld(v, subd(one, sat));
        qq = muld(v, subd(one, muld(sat, fr)));
        tt = muld(v, subd(one, muld(sat, subd(one, fr))));
        /* sectors 0..6 (6 as 0): r = v,Q,P,P,T,v,v  g = T,v,v,Q,P,P,T  b = P,P,T,v,v,Q,P */
        cr = blendd(blendd(blendd(blendd(blendd(v, qq, ge1), pp, ge2), tt, ge4), v, ge5), v, grey);
        cg = blendd(blendd(blendd(blendd(blendd(tt, v, ge1), qq, ge3), pp, ge4), tt, ge6), v, grey);
        cb = blendd(blendd(blendd(blendd(blendd(pp, tt, ge2), v, ge3), qq, ge5), pp, ge6), v, grey);
        VF(st_bytes)(orr + i, addd(muld(cr, setd(255.0)), setd(0.5)));
        VF(st_bytes)(og + i, addd(muld(cg, setd(255.0)), setd(0.5)));
        VF(st_bytes)(ob + i, addd(muld(cb, setd(255.0)), setd(0.5)));
    }
}

static int VF(sharpen_u8)(const uint8_t *src, uint8_t *dst, int width, mj_region r, int p)
{
    const int sw = r.w, n = sw + VD + 1; /* padded: the last vector reads up to index sw - 2 + VD */
    const double f = p / 100.0, g = 1.0 - f;
    double div255[256], *buf, *v[3], *ch[2][3], *spare;
    uint8_t *planar;
    int y, i, c;

    buf = (double *)calloc(9 * (size_t)n, sizeof(double));
    planar = (uint8_t *)malloc(3 * (size_t)n);
    if (buf == NULL || planar == NULL) {
        free(buf);
        free(planar);
        return MJ_ERR_NOMEM;
    }
    for (i = 0; i < 256; i++)
        div255[i] = i / 255.0;
    for (i = 0; i < 3; i++) {
        v[i] = buf + (size_t)i * n;
        ch[0][i] = buf + (size_t)(3 + i) * n;
        ch[1][i] = buf + (size_t)(6 + i) * n;
    }
    /* v[0]: the row above; v[1] and ch[0]: the centre row; v[2] and ch[1]: the row below */
    VF(source_u8)(src + mj_off(r.x, r.y, width), sw, div255, ch[1][0], ch[1][1], ch[1][2], v[0]);
    VF(source_u8)(src + mj_off(r.x, r.y + 1, width), sw, div255, ch[0][0], ch[0][1], ch[0][2], v[1]);
    for (y = r.y + 1; y < r.y + r.h - 1; y++) {
        uint8_t *o = dst + mj_off(r.x, y, width);
        VF(source_u8)(src + mj_off(r.x, y + 1, width), sw, div255, ch[1][0], ch[1][1], ch[1][2], v[2]);
        VF(row_u8)(v[0], v[1], v[2], ch[0][0], ch[0][1], ch[0][2], planar, planar + n, planar + 2 * (size_t)n, sw,
                   f, g);
        for (i = 1; i < sw - 1; i++) {
            o[3 * i] = planar[i];
            o[3 * i + 1] = planar[n + i];
            o[3 * i + 2] = planar[2 * (size_t)n + i];
        }
        spare = v[0];
        v[0] = v[1];
        v[1] = v[2];
        v[2] = spare;
        for (c = 0; c < 3; c++) {
            spare = ch[0][c];
            ch[0][c] = ch[1][c];
            ch[1][c] = spare;
        }
    }
    free(buf);
    free(planar);
    return MJ_OK;
}

/* V = u / R of a grey row (the padding stays 0) */
static void VF(values_g)(const uint16_t *row, int sw, int min, double range, double *v)
{
    const vd vr = setd(range);
    int i = 0;
    for (; i + VD <= sw; i += VD)
        std_(v + i, divd(VF(words_d)(row + i, min), vr));
    for (; i < sw; i++)
        v[i] = (double)mj_g_u(row[i], min) / range;
}

static int VF(sharpen_g)(const uint16_t *src, uint16_t *dst, int width, mj_region r, mj_gray_format fmt, int p)
{
    const int sw = r.w, n = sw + VD + 1, min = mj_g_min(fmt);
    const double f = p / 100.0, g = 1.0 - f, range = (double)mj_g_range(fmt);
    const vd vf = setd(f), vg = setd(g), vr = setd(range), half = setd(0.5);
    double *buf = (double *)calloc(3 * (size_t)n, sizeof(double)), *v[3], *spare;
    uint16_t *planar = (uint16_t *)malloc((size_t)n * sizeof(uint16_t));
    int y, i;

    if (buf == NULL || planar == NULL) {
        free(buf);
        free(planar);
        return MJ_ERR_NOMEM;
    }
    for (i = 0; i < 3; i++)
        v[i] = buf + (size_t)i * n;
    VF(values_g)(src + mj_g_off(r.x, r.y, width), sw, min, range, v[0]);
    VF(values_g)(src + mj_g_off(r.x, r.y + 1, width), sw, min, range, v[1]);
    for (y = r.y + 1; y < r.y + r.h - 1; y++) {
        VF(values_g)(src + mj_g_off(r.x, y + 1, width), sw, min, range, v[2]);
        /* floor(v' R + 0.5) of a value >= 0.5 is the truncation; planar[i] for 1 <= i <= sw - 2 */
        for (i = 1; i < sw - 1; i += VD)
            VF(st_words)(planar + i, addd(muld(VF(vnew)(v[0], v[1], v[2], i, vf, vg), vr), half), min);
        memcpy(dst + mj_g_off(r.x + 1, y, width), planar + 1, (size_t)(sw - 2) * sizeof(uint16_t));
        spare = v[0];
        v[0] = v[1];
        v[1] = v[2];
        v[2] = spare;
    }
    free(buf);
    free(planar);
    return MJ_OK;
}

#undef VD
#undef vm
#undef ldd
#undef std_
#undef setd
#undef addd
#undef subd
#undef muld
#undef divd
#undef mind
#undef maxd
#undef eqd
#undef ltd
#undef ged
#undef blendd
#undef andnotm

#endif
