/* Edge Detect (spec 2.4): Prewitt max-norm on the interior, then a contrast stretch by the
 * largest MONO over the whole region (frame included -- xv quirk), or, with
 * frame=black (non-xv), with the frame set to 0 first. */
#include <stdlib.h>
#include "mj_internal.h"

static int is_frame(int x, int y, mj_region r)
{
    return x == r.x || y == r.y || x == r.x + r.w - 1 || y == r.y + r.h - 1;
}

int mj_edge_detect_straightforward(const uint8_t *src, uint8_t *dst, int width, int height,
                                   mj_region r, mj_edge_frame frame)
{
    int x, y, c, maxv = 0;
    const int ex = r.x + r.w - 1, ey = r.y + r.h - 1;

    if (!mj_check_args(src, width, height, r) || dst == NULL ||
        (frame != MJ_EDGE_FRAME_XV && frame != MJ_EDGE_FRAME_BLACK))
        return MJ_ERR_ARG;

    /* step 1: interior */
    for (y = r.y + 1; y <= ey - 1; y++) {
        for (x = r.x + 1; x <= ex - 1; x++) {
            for (c = 0; c < 3; c++) {
#define P(dx, dy) ((int)src[mj_off(x + (dx), y + (dy), width) + (size_t)c])
                int gx = (P(1, -1) + P(1, 0) + P(1, 1)) - (P(-1, -1) + P(-1, 0) + P(-1, 1));
                int gy = (P(-1, 1) + P(0, 1) + P(1, 1)) - (P(-1, -1) + P(0, -1) + P(1, -1));
#undef P
                int ax = gx < 0 ? -gx : gx, ay = gy < 0 ? -gy : gy;
                dst[mj_off(x, y, width) + (size_t)c] = (uint8_t)((ax > ay ? ax : ay) / 3);
            }
        }
    }
    if (frame == MJ_EDGE_FRAME_BLACK) {
        for (y = r.y; y <= ey; y++)
            for (x = r.x; x <= ex; x++)
                if (is_frame(x, y, r))
                    for (c = 0; c < 3; c++)
                        dst[mj_off(x, y, width) + (size_t)c] = 0;
    }
    /* step 2: maxv over all region pixels, frame included */
    for (y = r.y; y <= ey; y++) {
        for (x = r.x; x <= ex; x++) {
            const uint8_t *p = dst + mj_off(x, y, width);
            int m = mj_mono(p[0], p[1], p[2]);
            if (m > maxv)
                maxv = m;
        }
    }
    /* step 3: rescale */
    if (maxv > 0) {
        for (y = r.y; y <= ey; y++) {
            for (x = r.x; x <= ex; x++) {
                for (c = 0; c < 3; c++) {
                    uint8_t *p = dst + mj_off(x, y, width) + (size_t)c;
                    int v = (*p * 255) / maxv;
                    *p = (uint8_t)(v > 255 ? 255 : v);
                }
            }
        }
    }
    return MJ_OK;
}

/*
 * Optimized: the interior is computed per row over all bytes alike (the masks are the same
 * for each channel), 16 bytes at a time with SSE2 in 16-bit lanes, else scalar; the
 * division by 3 is an exact multiply-shift ((m * 21846) >> 16, or (m * 43691) >> 17, both
 * exact for m <= 765); maxv is taken per row right after; the frame is handled separately;
 * the rescale is a 256-entry table (skipped when it is the identity, maxv = 255).
 */
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
int mj_edge_detect_optimized(const uint8_t *src, uint8_t *dst, int width, int height,
                             mj_region r, mj_edge_frame frame)
{
    const int sw = r.w, sh = r.h, ey = r.y + sh - 1;
    const size_t rowlen = (size_t)sw * 3u;
    int y, maxv = 0;

    if (!mj_check_args(src, width, height, r) || dst == NULL ||
        (frame != MJ_EDGE_FRAME_XV && frame != MJ_EDGE_FRAME_BLACK))
        return MJ_ERR_ARG;

    /* frame rows/columns: keep input (xv) or set to 0 (black); take part in maxv */
    {
        int rowsel;
        for (rowsel = 0; rowsel < 2; rowsel++) {
            int yy = rowsel == 0 ? r.y : ey;
            uint8_t *p = dst + mj_off(r.x, yy, width);
            size_t k;
            if (rowsel == 1 && sh == 1)
                break;
            if (frame == MJ_EDGE_FRAME_BLACK) {
                for (k = 0; k < rowlen; k++)
                    p[k] = 0;
            } else {
                for (k = 0; k < rowlen; k += 3) {
                    int m = mj_mono(p[k], p[k + 1], p[k + 2]);
                    maxv = m > maxv ? m : maxv;
                }
            }
        }
        for (y = r.y + 1; y < ey; y++) {
            uint8_t *pl = dst + mj_off(r.x, y, width);
            uint8_t *pr = dst + mj_off(r.x + sw - 1, y, width);
            if (frame == MJ_EDGE_FRAME_BLACK) {
                pl[0] = pl[1] = pl[2] = 0;
                pr[0] = pr[1] = pr[2] = 0;
            } else {
                int m = mj_mono(pl[0], pl[1], pl[2]);
                maxv = m > maxv ? m : maxv;
                m = mj_mono(pr[0], pr[1], pr[2]);
                maxv = m > maxv ? m : maxv;
            }
        }
    }

    if (sw >= 3 && sh >= 3) {
        for (y = r.y + 1; y < ey; y++) {
            const uint8_t *a = src + mj_off(r.x, y - 1, width);
            const uint8_t *b = src + mj_off(r.x, y, width);
            const uint8_t *c = src + mj_off(r.x, y + 1, width);
            uint8_t *o = dst + mj_off(r.x, y, width);
            size_t k = 3;
            int rowmax = 0;
#if defined(__SSE2__)
            {
                const __m128i z = _mm_setzero_si128(), third = _mm_set1_epi16(21846);
                /* reads up to byte k + 18; writes bytes k .. k + 15 */
                for (; k + 19 <= rowlen; k += 16) {
#define LD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
                    const __m128i am = LD(a + k - 3), aq = LD(a + k), an = LD(a + k + 3);
                    const __m128i bm = LD(b + k - 3), bn = LD(b + k + 3);
                    const __m128i cm = LD(c + k - 3), cq = LD(c + k), cn = LD(c + k + 3);
#undef LD
                    __m128i res[2];
                    int half;
                    for (half = 0; half < 2; half++) {
                        __m128i gx, gy, m;
#define W(v) (half == 0 ? _mm_unpacklo_epi8((v), z) : _mm_unpackhi_epi8((v), z))
                        gx = _mm_sub_epi16(_mm_add_epi16(_mm_add_epi16(W(an), W(bn)), W(cn)),
                                           _mm_add_epi16(_mm_add_epi16(W(am), W(bm)), W(cm)));
                        gy = _mm_sub_epi16(_mm_add_epi16(_mm_add_epi16(W(cm), W(cq)), W(cn)),
                                           _mm_add_epi16(_mm_add_epi16(W(am), W(aq)), W(an)));
#undef W
                        gx = _mm_max_epi16(gx, _mm_sub_epi16(z, gx)); /* |gx| */
                        gy = _mm_max_epi16(gy, _mm_sub_epi16(z, gy));
                        m = _mm_max_epi16(gx, gy);
                        /* m / 3 == (m * 21846) >> 16 exactly for 0 <= m <= 765 */
                        res[half] = _mm_mulhi_epu16(m, third);
                    }
                    _mm_storeu_si128((__m128i *)(void *)(o + k), _mm_packus_epi16(res[0], res[1]));
                }
            }
#endif
            for (; k + 3 < rowlen; k++) {
                const int gx = (a[k + 3] + b[k + 3] + c[k + 3]) - (a[k - 3] + b[k - 3] + c[k - 3]);
                const int gy = (c[k - 3] + c[k] + c[k + 3]) - (a[k - 3] + a[k] + a[k + 3]);
                const int ax = gx < 0 ? -gx : gx, ay = gy < 0 ? -gy : gy;
                const int mx = ax > ay ? ax : ay;
                o[k] = (uint8_t)((mx * 43691) >> 17); /* == mx / 3 for 0 <= mx <= 765 */
            }
            for (k = 3; k + 3 < rowlen; k += 3) {
                const int m = mj_mono(o[k], o[k + 1], o[k + 2]);
                rowmax = m > rowmax ? m : rowmax;
            }
            maxv = rowmax > maxv ? rowmax : maxv;
        }
    }

    if (maxv > 0 && maxv != 255) {
        uint8_t lut[256];
        int v;
        for (v = 0; v < 256; v++) {
            int q = (v * 255) / maxv;
            lut[v] = (uint8_t)(q > 255 ? 255 : q);
        }
        for (y = r.y; y <= ey; y++) {
            uint8_t *p = dst + mj_off(r.x, y, width);
            size_t k;
            for (k = 0; k < rowlen; k++)
                p[k] = lut[p[k]];
        }
    }
    return MJ_OK;
}
