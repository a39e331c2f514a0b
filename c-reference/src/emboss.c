/* Emboss (spec 2.5): fill 128, interior kernel [-2 -1 0; -1 0 +1; 0 +1 +2] with S/8 truncated
 * toward zero (xv) or floored (rounding=floor, non-xv), then MONO grey over the region. */
#include "mj_internal.h"

/* floor(s / 8) without relying on an arithmetic shift */
static int floor_div8(int s)
{
    int q = s / 8;
    if ((s % 8) != 0 && s < 0)
        q--;
    return q;
}

int mj_emboss_straightforward(const uint8_t *src, uint8_t *dst, int width, int height,
                              mj_region r, mj_emboss_rounding rounding)
{
    int x, y, c;
    const int ex = r.x + r.w - 1, ey = r.y + r.h - 1;

    if (!mj_check_args(src, width, height, r) || dst == NULL ||
        (rounding != MJ_EMBOSS_ROUNDING_XV && rounding != MJ_EMBOSS_ROUNDING_FLOOR))
        return MJ_ERR_ARG;
    /* step 1 */
    for (y = r.y; y <= ey; y++)
        for (x = r.x; x <= ex; x++)
            for (c = 0; c < 3; c++)
                dst[mj_off(x, y, width) + (size_t)c] = 128;
    /* step 2 */
    for (y = r.y + 1; y <= ey - 1; y++) {
        for (x = r.x + 1; x <= ex - 1; x++) {
            for (c = 0; c < 3; c++) {
#define P(dx, dy) ((int)src[mj_off(x + (dx), y + (dy), width) + (size_t)c])
                int s = 2 * P(1, 1) + P(0, 1) + P(1, 0) - P(-1, 0) - P(0, -1) - 2 * P(-1, -1);
#undef P
                int t = rounding == MJ_EMBOSS_ROUNDING_XV ? s / 8 : floor_div8(s);
                dst[mj_off(x, y, width) + (size_t)c] = (uint8_t)mj_iclamp(128 + t, 0, 255);
            }
        }
    }
    /* step 3 */
    for (y = r.y; y <= ey; y++) {
        for (x = r.x; x <= ex; x++) {
            uint8_t *p = dst + mj_off(x, y, width);
            int m = mj_mono(p[0], p[1], p[2]);
            p[0] = p[1] = p[2] = (uint8_t)m;
        }
    }
    return MJ_OK;
}

/*
 * Optimized, per interior row:
 *   1. every interior byte (all three channels alike) gets clamp(128 + S/8) written straight
 *      into the output row: 16 bytes at a time with SSE2 (16-bit lanes; the truncating
 *      division is the exact bias-and-shift (S + (S < 0 ? 7 : 0)) >> 3, floor is S >> 3 with
 *      an arithmetic vector shift), else through a 2041-entry table of S;
 *   2. MONO in place over the row's interior pixels.
 * Frame rows/columns are written as grey 128 (= MONO(128,128,128)) directly.
 */
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

int mj_emboss_optimized(const uint8_t *src, uint8_t *dst, int width, int height,
                        mj_region r, mj_emboss_rounding rounding)
{
    const int sw = r.w, sh = r.h, ey = r.y + sh - 1;
    const size_t rowlen = (size_t)sw * 3u;
    uint8_t lut[2041];
    int s, y;

    if (!mj_check_args(src, width, height, r) || dst == NULL ||
        (rounding != MJ_EMBOSS_ROUNDING_XV && rounding != MJ_EMBOSS_ROUNDING_FLOOR))
        return MJ_ERR_ARG;
    for (s = -1020; s <= 1020; s++) {
        int t = rounding == MJ_EMBOSS_ROUNDING_XV ? s / 8 : floor_div8(s);
        lut[s + 1020] = (uint8_t)mj_iclamp(128 + t, 0, 255);
    }
    for (y = r.y; y <= ey; y++) {
        uint8_t *o = dst + mj_off(r.x, y, width);
        if (y == r.y || y == ey || sw < 3) {
            size_t k;
            for (k = 0; k < rowlen; k++)
                o[k] = 128;
        } else {
            const uint8_t *a = src + mj_off(r.x, y - 1, width);
            const uint8_t *b = src + mj_off(r.x, y, width);
            const uint8_t *c = src + mj_off(r.x, y + 1, width);
            const uint8_t *lt = lut + 1020;
            size_t k = 3;
#if defined(__SSE2__)
            {
                const __m128i z = _mm_setzero_si128(), seven = _mm_set1_epi16(7);
                const __m128i c128 = _mm_set1_epi16(128);
                const int trunc = rounding == MJ_EMBOSS_ROUNDING_XV;
                /* reads up to c[k + 18]; bytes k .. k + 15 are written */
                for (; k + 19 <= rowlen; k += 16) {
#define LD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
                    const __m128i am = LD(a + k - 3), aq = LD(a + k);
                    const __m128i bm = LD(b + k - 3), bn = LD(b + k + 3);
                    const __m128i cq = LD(c + k), cn = LD(c + k + 3);
#undef LD
                    __m128i res[2];
                    int half;
                    for (half = 0; half < 2; half++) {
                        __m128i s16, t;
#define W(v) (half == 0 ? _mm_unpacklo_epi8((v), z) : _mm_unpackhi_epi8((v), z))
                        s16 = _mm_add_epi16(
                            _mm_add_epi16(_mm_slli_epi16(_mm_sub_epi16(W(cn), W(am)), 1),
                                          _mm_sub_epi16(W(cq), W(aq))),
                            _mm_sub_epi16(W(bn), W(bm)));
#undef W
                        if (trunc) /* toward zero: add 7 to negative sums before the shift */
                            s16 = _mm_add_epi16(s16, _mm_and_si128(_mm_srai_epi16(s16, 15), seven));
                        t = _mm_srai_epi16(s16, 3);
                        res[half] = _mm_add_epi16(t, c128);
                    }
                    /* unsigned saturation = clamp(., 0, 255) */
                    _mm_storeu_si128((__m128i *)(void *)(o + k), _mm_packus_epi16(res[0], res[1]));
                }
            }
#endif
            for (; k + 3 < rowlen; k++) {
                /* S = 2 P(+1,+1) + P(0,+1) + P(+1,0) - P(-1,0) - P(0,-1) - 2 P(-1,-1) */
                const int sv = 2 * (c[k + 3] - a[k - 3]) + (c[k] - a[k]) + (b[k + 3] - b[k - 3]);
                o[k] = lt[sv];
            }
            for (k = 3; k + 3 < rowlen; k += 3) {
                const int m = mj_mono(o[k], o[k + 1], o[k + 2]);
                o[k] = o[k + 1] = o[k + 2] = (uint8_t)m;
            }
            o[0] = o[1] = o[2] = 128;
            o[rowlen - 3] = o[rowlen - 2] = o[rowlen - 1] = 128;
        }
    }
    return MJ_OK;
}
