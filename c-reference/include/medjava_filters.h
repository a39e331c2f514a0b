/*
 * medjava_filters.h - C reference implementation of the eight xv 3.10a image filters
 * (docs/xv-filters.md) with the MedJava parameter contract (docs/filters.md).
 *
 * Pixels are interleaved 8-bit RGB, rows top to bottom, stride 3*width, no padding.
 *
 * Every filter exists three times: *_straightforward (reads like the spec), *_optimized
 * (hand-optimized, portable C) and *_vectorized (x86 intrinsics, AVX-512 or AVX2 chosen at run
 * time, see mj_simd_level). All produce byte-identical output.
 *
 * Low-level filter functions:
 *   - `dst` must arrive as an exact copy of `src` (the caller copies); only pixels inside
 *     the region are written. `src` and `dst` must not overlap.
 *   - the region must already be clipped to the image and non-empty
 *     (0 <= x, 0 <= y, w >= 1, h >= 1, x + w <= width, y + h <= height).
 *   - they return MJ_OK, MJ_ERR_ARG (bad region / parameter) or MJ_ERR_NOMEM.
 * Spread works in place on `img` (the output buffer) and never reads the input.
 *
 * The library has no global mutable state (but the SIMD level of the vectorized functions, detected once and
 * the same in every thread) and is thread-safe: concurrent calls on distinct output buffers are fine.
 */
#ifndef MEDJAVA_FILTERS_H
#define MEDJAVA_FILTERS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MJ_OK            0
#define MJ_ERR_FILTER  (-1) /* unknown filter id */
#define MJ_ERR_PARAM   (-2) /* invalid parameter string / value */
#define MJ_ERR_ARG     (-3) /* invalid image size, region, buffers or implementation */
#define MJ_ERR_NOMEM   (-4) /* out of memory */

#define MJ_IMPL_STRAIGHTFORWARD 0
#define MJ_IMPL_OPTIMIZED       1
#define MJ_IMPL_VECTORIZED      2

typedef struct {
    int x, y, w, h;
} mj_region;

typedef enum {
    MJ_BLUR = 0,
    MJ_SHARPEN,
    MJ_DESPECKLE,
    MJ_EDGE_DETECT,
    MJ_EMBOSS,
    MJ_OIL_PAINT,
    MJ_PIXELIZE,
    MJ_SPREAD,
    MJ_FILTER_COUNT
} mj_filter;

typedef enum { MJ_EDGE_FRAME_XV = 0, MJ_EDGE_FRAME_BLACK = 1 } mj_edge_frame;
typedef enum { MJ_EMBOSS_ROUNDING_XV = 0, MJ_EMBOSS_ROUNDING_FLOOR = 1 } mj_emboss_rounding;
typedef enum { MJ_OIL_WINDOW_XV = 0, MJ_OIL_WINDOW_CENTRED = 1 } mj_oil_window;
typedef enum { MJ_SPREAD_DIAMOND = 0, MJ_SPREAD_BOX = 1 } mj_spread_mode;

/* Parsed, validated parameters of one filter (see mj_parse_params). */
typedef struct {
    mj_filter filter;
    int n;                        /* blur, despeckle: odd 1..255; oil-paint: 1..31 */
    int p;                        /* sharpen: 0..99 */
    mj_edge_frame frame;          /* edge-detect */
    mj_emboss_rounding rounding;  /* emboss */
    mj_oil_window window;         /* oil-paint */
    int block_w, block_h;         /* pixelize: 1..65535 each */
    mj_spread_mode spread_mode;   /* spread: "N" = diamond, "AxB" = box */
    int spread_a, spread_b;       /* spread: 0..65535; diamond mode uses spread_a = spread_b = N */
    uint32_t seed;                /* spread: 0..2147483647 (0 is treated as 1) */
    int seed_from_clock;          /* spread: 1 = seed from time(NULL) at run time */
} mj_params;

/* ---- generic entry points ------------------------------------------------------- */

/* Space-separated list of the filter ids, e.g. "blur sharpen ... spread". */
const char *mj_filter_ids(void);
/* Filter id of a filter enum value, NULL if out of range. */
const char *mj_filter_id(mj_filter f);
/* Enum value of a filter id, -1 if unknown. */
int mj_filter_from_id(const char *filter_id);

/* Parses and validates "name=value name=value" (NULL or "" = defaults) for a filter, per
 * docs/filters.md. On error returns MJ_ERR_FILTER / MJ_ERR_PARAM and writes a message such as
 * `blur: parameter n="4" is invalid: n must be an odd integer from 1 to 255 (default 3)`
 * into err (if err != NULL && errlen > 0). */
int mj_parse_params(const char *filter_id, const char *params, mj_params *out,
                    char *err, size_t errlen);

/* Clips (x,y,w,h) to a width x height image (in 64-bit arithmetic, so any int values are
 * fine). Returns 1 and stores the clipped region if it is non-empty, else returns 0. */
int mj_clip_region(int width, int height, int x, int y, int w, int h, mj_region *out);

/* Runs a filter on an already-copied dst (dst == copy of src) over an already clipped,
 * non-empty region. impl is MJ_IMPL_STRAIGHTFORWARD, MJ_IMPL_OPTIMIZED or MJ_IMPL_VECTORIZED. */
int mj_run(const mj_params *params, int impl, const uint8_t *src, uint8_t *dst,
           int width, int height, mj_region region);

/* One-call entry point: parses + validates params, clips the region (x,y,w,h, may reach
 * outside the image; pass 0,0,width,height for the whole image), copies src to dst and
 * applies the filter. An empty region after clipping leaves dst an exact copy of src.
 * src == dst is allowed (a temporary copy of the input is made); other overlaps are not.
 * width or height 0 means an empty image (nothing to do). */
int mj_apply(const char *filter_id, const char *params, int impl,
             const uint8_t *src, uint8_t *dst, int width, int height,
             int rx, int ry, int rw, int rh, char *err, size_t errlen);

/* Human-readable text for an MJ_* return code. */
const char *mj_strerror(int code);

/* The code path the *_vectorized functions take in this process: "avx512" (AVX-512 F+BW+VL),
 * "avx2" or "scalar" (the *_optimized code; no x86 SIMD, or a CPU without AVX2). Chosen once by
 * CPU features; the environment variable MJ_SIMD=avx512|avx2|scalar caps it (tests run every path). */
const char *mj_simd_level(void);

/* ---- the filters ---------------------------------------------------------------- */

int mj_blur_straightforward(const uint8_t *src, uint8_t *dst, int width, int height,
                            mj_region r, int n);
int mj_blur_optimized(const uint8_t *src, uint8_t *dst, int width, int height,
                      mj_region r, int n);
int mj_blur_vectorized(const uint8_t *src, uint8_t *dst, int width, int height,
                       mj_region r, int n);

int mj_sharpen_straightforward(const uint8_t *src, uint8_t *dst, int width, int height,
                               mj_region r, int p);
int mj_sharpen_optimized(const uint8_t *src, uint8_t *dst, int width, int height,
                         mj_region r, int p);
int mj_sharpen_vectorized(const uint8_t *src, uint8_t *dst, int width, int height,
                          mj_region r, int p);

int mj_despeckle_straightforward(const uint8_t *src, uint8_t *dst, int width, int height,
                                 mj_region r, int n);
int mj_despeckle_optimized(const uint8_t *src, uint8_t *dst, int width, int height,
                           mj_region r, int n);
int mj_despeckle_vectorized(const uint8_t *src, uint8_t *dst, int width, int height,
                            mj_region r, int n);

int mj_edge_detect_straightforward(const uint8_t *src, uint8_t *dst, int width, int height,
                                   mj_region r, mj_edge_frame frame);
int mj_edge_detect_optimized(const uint8_t *src, uint8_t *dst, int width, int height,
                             mj_region r, mj_edge_frame frame);
int mj_edge_detect_vectorized(const uint8_t *src, uint8_t *dst, int width, int height,
                              mj_region r, mj_edge_frame frame);

int mj_emboss_straightforward(const uint8_t *src, uint8_t *dst, int width, int height,
                              mj_region r, mj_emboss_rounding rounding);
int mj_emboss_optimized(const uint8_t *src, uint8_t *dst, int width, int height,
                        mj_region r, mj_emboss_rounding rounding);
int mj_emboss_vectorized(const uint8_t *src, uint8_t *dst, int width, int height,
                         mj_region r, mj_emboss_rounding rounding);

int mj_oil_paint_straightforward(const uint8_t *src, uint8_t *dst, int width, int height,
                                 mj_region r, int n, mj_oil_window window);
int mj_oil_paint_optimized(const uint8_t *src, uint8_t *dst, int width, int height,
                           mj_region r, int n, mj_oil_window window);
int mj_oil_paint_vectorized(const uint8_t *src, uint8_t *dst, int width, int height,
                            mj_region r, int n, mj_oil_window window);

int mj_pixelize_straightforward(const uint8_t *src, uint8_t *dst, int width, int height,
                                mj_region r, int block_w, int block_h);
int mj_pixelize_optimized(const uint8_t *src, uint8_t *dst, int width, int height,
                          mj_region r, int block_w, int block_h);
int mj_pixelize_vectorized(const uint8_t *src, uint8_t *dst, int width, int height,
                           mj_region r, int block_w, int block_h);

/* Diamond mode uses a as the radius (b is ignored); box mode is +-a horizontally, +-b
 * vertically; a, b in 0..65535. seed: XVR seed 0..2147483647 (0 is treated as 1). */
int mj_spread_straightforward(uint8_t *img, int width, int height, mj_region r,
                              mj_spread_mode mode, int a, int b, uint32_t seed);
int mj_spread_optimized(uint8_t *img, int width, int height, mj_region r,
                        mj_spread_mode mode, int a, int b, uint32_t seed);
int mj_spread_vectorized(uint8_t *img, int width, int height, mj_region r,
                         mj_spread_mode mode, int a, int b, uint32_t seed);

/* ---- 16-bit grey (docs/xv-filters-16bit.md) ---------------------------------------- *
 *
 * A grey image is width*height 16-bit words, row-major, no padding. Its format is the bits
 * stored b (1..16) and the signedness: values lie in [0, 2^b - 1] (unsigned) or
 * [-2^(b-1), 2^(b-1) - 1] (signed, two's complement). A word holds an unsigned value as its
 * bit pattern and a signed value sign-extended to 16 bits (so (int16_t)word is the value).
 * Every filter works on offset values u = v - min in [0, 2^b - 1] and is byte-identical to
 * the Java plugins. The low-level functions have the 8-bit contract (dst == copy of src,
 * region clipped and non-empty) and assume every value of src is inside its range; they
 * return MJ_ERR_ARG for an invalid format. Parameters are the 8-bit ones (mj_parse_params). */

typedef struct {
    int bits_stored; /* 1..16 */
    int is_signed;   /* 0: unsigned, 1: two's complement */
} mj_gray_format;

/* min and max of a format's value range (an invalid format gives 0, 0). */
int mj_gray_min(mj_gray_format fmt);
int mj_gray_max(mj_gray_format fmt);

/* Index of the first of n words whose value is outside the format's range, or -1. */
long long mj_gray_first_out_of_range(const uint16_t *words, size_t n, mj_gray_format fmt);

/* Runs a filter on grey data; as mj_run. */
int mj_run_gray16(const mj_params *params, int impl, const uint16_t *src, uint16_t *dst,
                  int width, int height, mj_gray_format fmt, mj_region region);

/* One-call entry point on grey data, as mj_apply; also refuses an invalid format
 * ("bits stored must be an integer from 1 to 16, got 17") and values outside the range
 * ("grey value 4096 at (3,1) is outside the 12-bit unsigned range 0..4095"), MJ_ERR_ARG. */
int mj_apply_gray16(const char *filter_id, const char *params, int impl,
                    const uint16_t *src, uint16_t *dst, int width, int height, mj_gray_format fmt,
                    int rx, int ry, int rw, int rh, char *err, size_t errlen);

int mj_blur_gray16_straightforward(const uint16_t *src, uint16_t *dst, int width, int height,
                                   mj_region r, mj_gray_format fmt, int n);
int mj_blur_gray16_optimized(const uint16_t *src, uint16_t *dst, int width, int height,
                             mj_region r, mj_gray_format fmt, int n);
int mj_blur_gray16_vectorized(const uint16_t *src, uint16_t *dst, int width, int height,
                              mj_region r, mj_gray_format fmt, int n);

int mj_sharpen_gray16_straightforward(const uint16_t *src, uint16_t *dst, int width, int height,
                                      mj_region r, mj_gray_format fmt, int p);
int mj_sharpen_gray16_optimized(const uint16_t *src, uint16_t *dst, int width, int height,
                                mj_region r, mj_gray_format fmt, int p);
int mj_sharpen_gray16_vectorized(const uint16_t *src, uint16_t *dst, int width, int height,
                                 mj_region r, mj_gray_format fmt, int p);

int mj_despeckle_gray16_straightforward(const uint16_t *src, uint16_t *dst, int width, int height,
                                        mj_region r, mj_gray_format fmt, int n);
int mj_despeckle_gray16_optimized(const uint16_t *src, uint16_t *dst, int width, int height,
                                  mj_region r, mj_gray_format fmt, int n);
int mj_despeckle_gray16_vectorized(const uint16_t *src, uint16_t *dst, int width, int height,
                                   mj_region r, mj_gray_format fmt, int n);

int mj_edge_detect_gray16_straightforward(const uint16_t *src, uint16_t *dst, int width,
                                          int height, mj_region r, mj_gray_format fmt,
                                          mj_edge_frame frame);
int mj_edge_detect_gray16_optimized(const uint16_t *src, uint16_t *dst, int width, int height,
                                    mj_region r, mj_gray_format fmt, mj_edge_frame frame);
int mj_edge_detect_gray16_vectorized(const uint16_t *src, uint16_t *dst, int width, int height,
                                     mj_region r, mj_gray_format fmt, mj_edge_frame frame);

int mj_emboss_gray16_straightforward(const uint16_t *src, uint16_t *dst, int width, int height,
                                     mj_region r, mj_gray_format fmt, mj_emboss_rounding rounding);
int mj_emboss_gray16_optimized(const uint16_t *src, uint16_t *dst, int width, int height,
                               mj_region r, mj_gray_format fmt, mj_emboss_rounding rounding);
int mj_emboss_gray16_vectorized(const uint16_t *src, uint16_t *dst, int width, int height,
                                mj_region r, mj_gray_format fmt, mj_emboss_rounding rounding);

int mj_oil_paint_gray16_straightforward(const uint16_t *src, uint16_t *dst, int width, int height,
                                        mj_region r, mj_gray_format fmt, int n,
                                        mj_oil_window window);
int mj_oil_paint_gray16_optimized(const uint16_t *src, uint16_t *dst, int width, int height,
                                  mj_region r, mj_gray_format fmt, int n, mj_oil_window window);
int mj_oil_paint_gray16_vectorized(const uint16_t *src, uint16_t *dst, int width, int height,
                                   mj_region r, mj_gray_format fmt, int n, mj_oil_window window);

int mj_pixelize_gray16_straightforward(const uint16_t *src, uint16_t *dst, int width, int height,
                                       mj_region r, mj_gray_format fmt, int block_w, int block_h);
int mj_pixelize_gray16_optimized(const uint16_t *src, uint16_t *dst, int width, int height,
                                 mj_region r, mj_gray_format fmt, int block_w, int block_h);
int mj_pixelize_gray16_vectorized(const uint16_t *src, uint16_t *dst, int width, int height,
                                  mj_region r, mj_gray_format fmt, int block_w, int block_h);

/* In place, like the 8-bit Spread: the same swaps, of whole words. */
int mj_spread_gray16_straightforward(uint16_t *img, int width, int height, mj_region r,
                                     mj_gray_format fmt, mj_spread_mode mode, int a, int b,
                                     uint32_t seed);
int mj_spread_gray16_optimized(uint16_t *img, int width, int height, mj_region r,
                               mj_gray_format fmt, mj_spread_mode mode, int a, int b,
                               uint32_t seed);
int mj_spread_gray16_vectorized(uint16_t *img, int width, int height, mj_region r,
                                mj_gray_format fmt, mj_spread_mode mode, int a, int b,
                                uint32_t seed);

/* ---- XVR: portable re-implementation of glibc random() TYPE_3 (spec 2.8) ---------- */

typedef struct {
    uint32_t r[34]; /* ring buffer: r[i mod 34] */
    uint32_t i;     /* index of the next value to compute (>= 34) */
} mj_xvr;

/* Seeds the generator and discards r[34..343]. Seeds are 1..2^31-1 as in the spec; 0 is
 * treated as 1. (Larger values are accepted and used as r[0] unchanged.) */
void mj_xvr_seed(mj_xvr *g, uint32_t seed);
/* Next output number, 0..2^31-1. */
uint32_t mj_xvr_next(mj_xvr *g);

#ifdef __cplusplus
}
#endif

#endif /* MEDJAVA_FILTERS_H */
