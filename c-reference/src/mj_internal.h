/* Internal helpers shared by the filter sources. Not part of the public API. */
#ifndef MJ_INTERNAL_H
#define MJ_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "medjava_filters.h"

/* Byte offset of pixel (x,y) in an interleaved RGB image of the given width. */
static inline size_t mj_off(int x, int y, int width)
{
    return ((size_t)y * (size_t)width + (size_t)x) * 3u;
}

/* xv luminance: (11 r + 16 g + 5 b) >> 5 (operand never negative). */
static inline int mj_mono(int r, int g, int b)
{
    return (11 * r + 16 * g + 5 * b) >> 5;
}

static inline int mj_imin(int a, int b) { return a < b ? a : b; }
static inline int mj_imax(int a, int b) { return a > b ? a : b; }
static inline int mj_iclamp(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

/* min(x + h, e) and max(x - h, s) for 0 <= s <= x <= e and h >= 0, without overflow. */
static inline int mj_hi(int x, int h, int e) { return x >= e - h ? e : x + h; }
static inline int mj_lo(int x, int h, int s) { return x - h <= s ? s : x - h; }

/* ---- 16-bit grey ---- */

static inline int mj_gray_format_ok(mj_gray_format f)
{
    return f.bits_stored >= 1 && f.bits_stored <= 16 && (f.is_signed == 0 || f.is_signed == 1);
}

/* min of the value range: -2^(b-1) or 0 (format already checked) */
static inline int mj_g_min(mj_gray_format f)
{
    return f.is_signed ? -(1 << (f.bits_stored - 1)) : 0;
}

/* the range R = max - min = 2^b - 1 */
static inline int mj_g_range(mj_gray_format f)
{
    return (int)((1u << f.bits_stored) - 1u);
}

/* offset value u = (word - min) mod 2^16 */
static inline int mj_g_u(uint16_t w, int min)
{
    return (int)(uint16_t)((unsigned)w - (unsigned)min);
}

/* the word holding offset value u: (u + min) mod 2^16 */
static inline uint16_t mj_g_w(int u, int min)
{
    return (uint16_t)(unsigned)(u + min);
}

/* index of pixel (x,y) in a grey image */
static inline size_t mj_g_off(int x, int y, int width)
{
    return (size_t)y * (size_t)width + (size_t)x;
}

#if defined(__GNUC__)
#define MJ_INTERNAL __attribute__((visibility("hidden")))
#else
#define MJ_INTERNAL
#endif

/* Checks that buffers are present, the image size is positive and the region is clipped and
 * non-empty. Returns 1 when valid. (Library-internal: not exported from the .so.) */
MJ_INTERNAL int mj_check_args(const void *buf, int width, int height, mj_region r);

/* mj_check_args plus a valid grey format */
MJ_INTERNAL int mj_check_gray_args(const void *buf, int width, int height, mj_region r,
                                   mj_gray_format fmt);

/* mj_apply's and mj_apply_gray16's buffers of `bytes` each: present and not overlapping (else MJ_ERR_ARG with the
 * reason in err). */
MJ_INTERNAL int mj_check_buffers(const char *filter_id, const void *src, const void *dst, size_t bytes, char *err,
                                 size_t errlen);

/* What a filter reads: dst starts as a copy of src; in place (src == dst) it reads a copy *tmp (to free) when
 * copy_in_place (a non-empty region and a filter other than Spread, which works in place). NULL: out of memory. */
MJ_INTERNAL const void *mj_stage_buffers(const void *src, void *dst, size_t bytes, int copy_in_place, void **tmp);

/* Despeckle's sliding histogram (the optimized port) on the output rectangle o of region r, windows clipped to r:
 * the whole region, or the frame around the vectorized kernels' interior. scratch: MJ_DESPECKLE_SCRATCH ints (grey:
 * mj_despeckle_gray16_scratch(fmt)), zero on entry, zero again on return. */
#define MJ_DESPECKLE_SCRATCH (3 * 258)
MJ_INTERNAL void mj_despeckle_rect(const uint8_t *src, uint8_t *dst, int width, mj_region r, int n, int *scratch,
                                   mj_region o);
MJ_INTERNAL size_t mj_despeckle_gray16_scratch(mj_gray_format fmt);
MJ_INTERNAL void mj_despeckle_gray16_rect(const uint16_t *src, uint16_t *dst, int width, mj_region r,
                                          mj_gray_format fmt, int n, int *scratch, mj_region o);

/* Oil Paint's parameters are valid; its window [x - L, x + R] x [y - L, y + R] */
MJ_INTERNAL int mj_oil_args_ok(int n, mj_oil_window window);
MJ_INTERNAL void mj_oil_extents(int n, mj_oil_window window, int *L, int *R);

/* Spread's parameters (mode, distances, seed) are valid */
MJ_INTERNAL int mj_spread_args_ok(mj_spread_mode mode, int a, int b, uint32_t seed);

/*
 * Exact division by a runtime constant d (1 <= d <= 65536) for numerators s < 2^24:
 * floor(s / d) == (s * m) >> 40 with m = ceil(2^40 / d).
 * Proof: with e = m*d - 2^40 (0 <= e < d), s*m/2^40 = s/d + s*e/(d*2^40) and s*e < 2^24*2^16,
 * so the error term is below 1/d and cannot carry past the next multiple of d.
 */
static inline uint64_t mj_magic24(uint32_t d)
{
    return (((uint64_t)1 << 40) + d - 1) / d;
}
static inline uint32_t mj_div24(uint32_t s, uint64_t m)
{
    return (uint32_t)(((uint64_t)s * m) >> 40);
}

#endif
