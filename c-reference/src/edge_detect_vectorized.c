/*
 * Edge Detect (spec 2.4), vectorized; the design of the Java kernel (EdgeDetectVector) at its vector width.
 * 8-bit, per interior row: the Prewitt sums of all bytes alike on 16-bit lanes, max(|Gx|, |Gy|) <= 765 and its
 * division by 3 as the high half of m * 21846 (exact for m <= 765); then the row's largest MONO from the bytes just
 * written, each lane's (11 R + 16 G + 5 B) kept where it is a pixel's first channel. Step 3, v * 255 / maxv
 * clamped to 255, is min(v, maxv) * M >> 16 with M = ceil(255 * 2^16 / maxv) (exact, see EdgeDetectVector.stretch),
 * on 16-bit lanes as v * (M >> 16) + high half of v * (M & 0xFFFF).
 * Grey: 32-bit lanes (|G| <= 3R), division by 3 and step 3's u * R / maxv as exact 64-bit multiply-shifts (divq).
 * Frame rows and columns are scalar. The scalar path is mj_edge_detect_optimized.
 */
#ifndef MJ_VEC_BITS
#include "mj_simd.h"

static int frame_ok(mj_edge_frame f) { return f == MJ_EDGE_FRAME_XV || f == MJ_EDGE_FRAME_BLACK; }

#if MJ_X86_SIMD /* the helpers of the SIMD kernels, then the kernels at both widths */

/* 8-bit frame rows and columns: set to 0 (black, returns 0) or left as they are (returns their largest MONO) */
static int frame_u8(uint8_t *dst, int width, mj_region r, int black)
{
    const int sw = r.w, ey = r.y + r.h - 1;
    const size_t len = (size_t)sw * 3u;
    int y, maxv = 0;
    for (y = r.y; y <= ey; y++) {
        uint8_t *p = dst + mj_off(r.x, y, width);
        const int whole = y == r.y || y == ey;
        size_t k;
        for (k = 0; k < len; k += 3) {
            if (!whole && k != 0 && k != len - 3)
                continue;
            if (black)
                p[k] = p[k + 1] = p[k + 2] = 0;
            else
                maxv = mj_imax(maxv, mj_mono(p[k], p[k + 1], p[k + 2]));
        }
    }
    return maxv;
}

/* byte k of an interior row: max(|Gx|, |Gy|) / 3 */
static inline uint8_t edge_u8(const uint8_t *a, const uint8_t *b, const uint8_t *c, size_t k)
{
    const int gx = (a[k + 3] + b[k + 3] + c[k + 3]) - (a[k - 3] + b[k - 3] + c[k - 3]);
    const int gy = (c[k - 3] + c[k] + c[k + 3]) - (a[k - 3] + a[k] + a[k + 3]);
    return (uint8_t)(mj_imax(gx < 0 ? -gx : gx, gy < 0 ? -gy : gy) / 3);
}

/* step 3's multiplier: ceil(255 * 2^16 / maxv) */
static uint32_t stretch_m(int maxv)
{
    return (uint32_t)(((255u << 16) + (uint32_t)maxv - 1u) / (uint32_t)maxv);
}

/* grey frame, as frame_u8: black sets u = 0; otherwise returns the frame's largest u */
static int frame_g(uint16_t *dst, int width, mj_region r, int min, int black)
{
    const int ex = r.x + r.w - 1, ey = r.y + r.h - 1;
    const uint16_t blackw = mj_g_w(0, min);
    int x, y, maxv = 0;
    for (y = r.y; y <= ey; y++) {
        uint16_t *p = dst + mj_g_off(0, y, width);
        const int whole = y == r.y || y == ey;
        for (x = r.x; x <= ex; x++) {
            if (!whole && x != r.x && x != ex)
                continue;
            if (black)
                p[x] = blackw;
            else
                maxv = mj_imax(maxv, mj_g_u(p[x], min));
        }
    }
    return maxv;
}

/* grey pixel x of an interior row: max(|Gx|, |Gy|) / 3 as an offset value */
static inline int edge_g(const uint16_t *up, const uint16_t *row, const uint16_t *down, int x, int min)
{
#define U(p, i) mj_g_u((p)[i], min)
    const int gx = (U(up, x + 1) + U(row, x + 1) + U(down, x + 1)) - (U(up, x - 1) + U(row, x - 1) + U(down, x - 1));
    const int gy = (U(down, x - 1) + U(down, x) + U(down, x + 1)) - (U(up, x - 1) + U(up, x) + U(up, x + 1));
#undef U
    return mj_imax(gx < 0 ? -gx : gx, gy < 0 ? -gy : gy) / 3;
}

#define MJ_VEC_BITS 256
#include "mj_vec.h"
#include "edge_detect_vectorized.c"
#include "mj_vec_end.h"
#undef MJ_VEC_BITS
#define MJ_VEC_BITS 512
#include "mj_vec.h"
#include "edge_detect_vectorized.c"
#include "mj_vec_end.h"
#undef MJ_VEC_BITS
#endif

int mj_edge_detect_vectorized(const uint8_t *src, uint8_t *dst, int width, int height, mj_region r,
                              mj_edge_frame frame)
{
    if (!mj_check_args(src, width, height, r) || dst == NULL || !frame_ok(frame))
        return MJ_ERR_ARG;
#if MJ_X86_SIMD
    switch (mj_simd()) {
    case MJ_SIMD_AVX512: return edge_u8_avx512(src, dst, width, r, frame == MJ_EDGE_FRAME_BLACK);
    case MJ_SIMD_AVX2: return edge_u8_avx2(src, dst, width, r, frame == MJ_EDGE_FRAME_BLACK);
    default: break;
    }
#endif
    return mj_edge_detect_optimized(src, dst, width, height, r, frame);
}

int mj_edge_detect_gray16_vectorized(const uint16_t *src, uint16_t *dst, int width, int height, mj_region r,
                                     mj_gray_format fmt, mj_edge_frame frame)
{
    if (!mj_check_gray_args(src, width, height, r, fmt) || dst == NULL || !frame_ok(frame))
        return MJ_ERR_ARG;
#if MJ_X86_SIMD
    switch (mj_simd()) {
    case MJ_SIMD_AVX512: return edge_g_avx512(src, dst, width, r, fmt, frame == MJ_EDGE_FRAME_BLACK);
    case MJ_SIMD_AVX2: return edge_g_avx2(src, dst, width, r, fmt, frame == MJ_EDGE_FRAME_BLACK);
    default: break;
    }
#endif
    return mj_edge_detect_gray16_optimized(src, dst, width, height, r, fmt, frame);
}

#else /* ---- the kernels at one vector width (MJ_VEC_BITS), included above ---- */

/* the largest lane */
static inline int VF(hmax16)(vi v)
{
    int16_t l[V16];
    int i, m = 0;
    st(l, v);
    for (i = 0; i < V16; i++)
        m = l[i] > m ? l[i] : m;
    return m;
}

static inline int VF(hmax32)(vi v)
{
    int32_t l[V32];
    int i, m = 0;
    st(l, v);
    for (i = 0; i < V32; i++)
        m = l[i] > m ? l[i] : m;
    return m;
}

/* one interior row's edge bytes [3, to) into o; returns their largest MONO */
static int VF(row_u8)(const uint8_t *a, const uint8_t *b, const uint8_t *c, uint8_t *o, size_t to,
                      const vi first[3])
{
    const vi third = set1_16(21846);
    vi best = zero();
    size_t k = 3, p;
    int maxv;
    for (; k + V16 <= to; k += V16) { /* reads up to byte k + V16 + 2 <= to + 2 < 3 sw */
        const vi am = u8_u16(ldh(a + k - 3)), aq = u8_u16(ldh(a + k)), an = u8_u16(ldh(a + k + 3));
        const vi bm = u8_u16(ldh(b + k - 3)), bn = u8_u16(ldh(b + k + 3));
        const vi cm = u8_u16(ldh(c + k - 3)), cq = u8_u16(ldh(c + k)), cn = u8_u16(ldh(c + k + 3));
        const vi gx = sub16(add16(add16(an, bn), cn), add16(add16(am, bm), cm));
        const vi gy = sub16(add16(add16(cm, cq), cn), add16(add16(am, aq), an));
        /* m / 3 == (m * 21846) >> 16 exactly for 0 <= m <= 765 */
        sth(o + k, u16_u8(mulhi16(max16(abs16(gx), abs16(gy)), third)));
    }
    for (p = k; p < to; p++)
        o[p] = edge_u8(a, b, c, p);
    /* MONO of the pixels starting in [3, k): lanes that are not a pixel's first byte are masked to 0 */
    for (p = 3; p + V16 <= k; p += V16) {
        const vi q = add16(add16(mullo16(u8_u16(ldh(o + p)), set1_16(11)), slli16(u8_u16(ldh(o + p + 1)), 4)),
                           mullo16(u8_u16(ldh(o + p + 2)), set1_16(5)));
        best = max16(best, and_(q, first[p % 3]));
    }
    maxv = VF(hmax16)(best) >> 5;
    for (p += (3 - p % 3) % 3; p < to; p += 3)
        maxv = mj_imax(maxv, mj_mono(o[p], o[p + 1], o[p + 2]));
    return maxv;
}

/* step 3 on bytes [0, len) of a row, 0 < maxv < 255 */
static void VF(stretch_u8)(uint8_t *p, size_t len, int maxv, uint32_t m)
{
    const vi mh = set1_16(m >> 16), ml = set1_16(m & 0xFFFF), vmax = set1_16(maxv);
    size_t k = 0;
    for (; k + V16 <= len; k += V16) {
        const vi v = min16(u8_u16(ldh(p + k)), vmax);
        sth(p + k, u16_u8(add16(mullo16(v, mh), mulhi16(v, ml))));
    }
    for (; k < len; k++)
        p[k] = (uint8_t)(((uint32_t)mj_imin(p[k], maxv) * m) >> 16);
}

static int VF(edge_u8)(const uint8_t *src, uint8_t *dst, int width, mj_region r, int black)
{
    const int sw = r.w, sh = r.h, ey = r.y + sh - 1;
    const size_t len = (size_t)sw * 3u;
    int16_t masks[3][V16];
    vi first[3];
    int y, l, p, maxv = frame_u8(dst, width, r, black);

    for (p = 0; p < 3; p++) {
        for (l = 0; l < V16; l++)
            masks[p][l] = (int16_t)((p + l) % 3 == 0 ? -1 : 0);
        first[p] = ld(masks[p]);
    }
    if (sw >= 3 && sh >= 3)
        for (y = r.y + 1; y < ey; y++)
            maxv = mj_imax(maxv, VF(row_u8)(src + mj_off(r.x, y - 1, width), src + mj_off(r.x, y, width),
                                            src + mj_off(r.x, y + 1, width), dst + mj_off(r.x, y, width),
                                            len - 3, first));
    if (maxv > 0 && maxv != 255) {
        const uint32_t m = stretch_m(maxv);
        for (y = r.y; y <= ey; y++)
            VF(stretch_u8)(dst + mj_off(r.x, y, width), len, maxv, m);
    }
    return MJ_OK;
}

/* u of V32 words from p as 32-bit lanes */
static inline vi VF(u32_at)(const uint16_t *p, vh bias)
{
    return u16_u32(addh16(ldh(p), bias));
}

static int VF(edge_g)(const uint16_t *src, uint16_t *dst, int width, mj_region r, mj_gray_format fmt, int black)
{
    const int ex = r.x + r.w - 1, ey = r.y + r.h - 1, min = mj_g_min(fmt), range = mj_g_range(fmt);
    const vh bias = set1h16(-min), back = set1h16(min);
    const VF(divq_t) third = VF(divq_make)(div_make(3, 3u * (uint32_t)range, 0, MJ_DIV_MMAX));
    vi best = zero();
    int x, y, maxv = frame_g(dst, width, r, min, black);

    if (r.w >= 3 && r.h >= 3) {
        for (y = r.y + 1; y < ey; y++) {
            const uint16_t *up = src + mj_g_off(0, y - 1, width), *row = src + mj_g_off(0, y, width);
            const uint16_t *down = src + mj_g_off(0, y + 1, width);
            uint16_t *out = dst + mj_g_off(0, y, width);
            for (x = r.x + 1; x + V32 <= ex; x += V32) {
                const vi am = VF(u32_at)(up + x - 1, bias), aq = VF(u32_at)(up + x, bias);
                const vi an = VF(u32_at)(up + x + 1, bias);
                const vi bm = VF(u32_at)(row + x - 1, bias), bn = VF(u32_at)(row + x + 1, bias);
                const vi cm = VF(u32_at)(down + x - 1, bias), cq = VF(u32_at)(down + x, bias);
                const vi cn = VF(u32_at)(down + x + 1, bias);
                const vi gx = sub32(add32(add32(an, bn), cn), add32(add32(am, bm), cm));
                const vi gy = sub32(add32(add32(cm, cq), cn), add32(add32(am, aq), an));
                const vi e = VF(divq)(max32(abs32(gx), abs32(gy)), third);
                best = max32(best, e);
                sth(out + x, addh16(u32_u16(e), back));
            }
            for (; x < ex; x++) {
                const int e = edge_g(up, row, down, x, min);
                maxv = mj_imax(maxv, e);
                out[x] = mj_g_w(e, min);
            }
        }
        maxv = mj_imax(maxv, VF(hmax32)(best));
    }
    if (maxv == 0 || maxv == range)
        return MJ_OK;
    {
        /* every u of the region is <= maxv, so u * R / maxv <= R: no clamp; u * R < 2^32 */
        /* (div_make always finds a multiplier of at most 33 bits here) */
        const VF(divq_t) q = VF(divq_make)(div_make((uint32_t)maxv, (uint64_t)maxv * (uint64_t)range, 0, MJ_DIV_MMAX));
        const vi vr = set1_32(range);
        for (y = r.y; y <= ey; y++) {
            uint16_t *p = dst + mj_g_off(0, y, width);
            for (x = r.x; x + V32 <= ex + 1; x += V32)
                sth(p + x, addh16(u32_u16(VF(divq)(mullo32(VF(u32_at)(p + x, bias), vr), q)), back));
            for (; x <= ex; x++)
                p[x] = mj_g_w((int)((uint64_t)mj_g_u(p[x], min) * (uint64_t)range / (uint64_t)maxv), min);
        }
    }
    return MJ_OK;
}

#endif
