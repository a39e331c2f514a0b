/* 16-bit grey (docs/xv-filters-16bit.md): format helpers and the generic entry points
 * mj_run_gray16 / mj_apply_gray16. The filters themselves are in *_gray16.c (and spread.c). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "mj_internal.h"

int mj_gray_min(mj_gray_format fmt)
{
    return mj_gray_format_ok(fmt) ? mj_g_min(fmt) : 0;
}

int mj_gray_max(mj_gray_format fmt)
{
    return mj_gray_format_ok(fmt) ? mj_g_min(fmt) + mj_g_range(fmt) : 0;
}

long long mj_gray_first_out_of_range(const uint16_t *words, size_t n, mj_gray_format fmt)
{
    size_t i;
    int min, max;
    if (!mj_gray_format_ok(fmt) || words == NULL)
        return -1;
    if (fmt.bits_stored == 16)
        return -1; /* every word is a value */
    min = mj_g_min(fmt);
    max = min + mj_g_range(fmt);
    for (i = 0; i < n; i++) {
        int v = fmt.is_signed ? (int)(int16_t)words[i] : (int)words[i];
        if (v < min || v > max)
            return (long long)i;
    }
    return -1;
}

int mj_check_gray_args(const void *buf, int width, int height, mj_region r, mj_gray_format fmt)
{
    return mj_gray_format_ok(fmt) && mj_check_args(buf, width, height, r);
}

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    if (err == NULL || errlen == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* the implementation impl of filter function f */
#define PICK(f) (impl == MJ_IMPL_VECTORIZED ? f##_vectorized : impl == MJ_IMPL_OPTIMIZED ? f##_optimized \
                 : f##_straightforward)

int mj_run_gray16(const mj_params *params, int impl, const uint16_t *src, uint16_t *dst,
                  int width, int height, mj_gray_format fmt, mj_region region)
{
    if (params == NULL || impl < MJ_IMPL_STRAIGHTFORWARD || impl > MJ_IMPL_VECTORIZED)
        return MJ_ERR_ARG;
    switch (params->filter) {
    case MJ_BLUR:
        return PICK(mj_blur_gray16)(
            src, dst, width, height, region, fmt, params->n);
    case MJ_SHARPEN:
        return PICK(mj_sharpen_gray16)(
            src, dst, width, height, region, fmt, params->p);
    case MJ_DESPECKLE:
        return PICK(mj_despeckle_gray16)(
            src, dst, width, height, region, fmt, params->n);
    case MJ_EDGE_DETECT:
        return PICK(mj_edge_detect_gray16)(
            src, dst, width, height, region, fmt, params->frame);
    case MJ_EMBOSS:
        return PICK(mj_emboss_gray16)(
            src, dst, width, height, region, fmt, params->rounding);
    case MJ_OIL_PAINT:
        return PICK(mj_oil_paint_gray16)(
            src, dst, width, height, region, fmt, params->n, params->window);
    case MJ_PIXELIZE:
        return PICK(mj_pixelize_gray16)(
            src, dst, width, height, region, fmt, params->block_w, params->block_h);
    case MJ_SPREAD: {
        uint32_t seed = params->seed;
        if (params->seed_from_clock) {
            time_t t = time(NULL);
            seed = (uint32_t)((unsigned long long)(t < 0 ? -t : t) % 2147483647ULL);
            if (seed == 0)
                seed = 1;
        }
        (void)src;
        return PICK(mj_spread_gray16)(
            dst, width, height, region, fmt, params->spread_mode, params->spread_a,
            params->spread_b, seed);
    }
    default:
        return MJ_ERR_ARG;
    }
}

int mj_apply_gray16(const char *filter_id, const char *params, int impl,
                    const uint16_t *src, uint16_t *dst, int width, int height, mj_gray_format fmt,
                    int rx, int ry, int rw, int rh, char *err, size_t errlen)
{
    mj_params p;
    mj_region reg;
    size_t n, bytes;
    void *tmp = NULL;
    long long bad;
    int rc;

    rc = mj_parse_params(filter_id, params, &p, err, errlen);
    if (rc != MJ_OK)
        return rc;
    if (impl < MJ_IMPL_STRAIGHTFORWARD || impl > MJ_IMPL_VECTORIZED) {
        set_err(err, errlen, "%s: implementation %d is invalid: must be 0 (straightforward), "
                "1 (optimized) or 2 (vectorized)", filter_id, impl);
        return MJ_ERR_ARG;
    }
    if (fmt.bits_stored < 1 || fmt.bits_stored > 16) {
        set_err(err, errlen, "%s: bits stored must be an integer from 1 to 16, got %d", filter_id,
                fmt.bits_stored);
        return MJ_ERR_ARG;
    }
    if (fmt.is_signed != 0 && fmt.is_signed != 1) {
        set_err(err, errlen, "%s: signedness must be 0 (unsigned) or 1 (signed), got %d",
                filter_id, fmt.is_signed);
        return MJ_ERR_ARG;
    }
    if (width < 0 || height < 0) {
        set_err(err, errlen, "%s: invalid image size %dx%d", filter_id, width, height);
        return MJ_ERR_ARG;
    }
    if (width == 0 || height == 0)
        return MJ_OK; /* empty image: nothing to do */
    if ((size_t)width > SIZE_MAX / sizeof(uint16_t) / (size_t)height) {
        set_err(err, errlen, "%s: image size %dx%d is too large", filter_id, width, height);
        return MJ_ERR_ARG;
    }
    n = (size_t)width * (size_t)height;
    bytes = n * sizeof(uint16_t);
    rc = mj_check_buffers(filter_id, src, dst, bytes, err, errlen);
    if (rc != MJ_OK)
        return rc;
    bad = mj_gray_first_out_of_range(src, n, fmt);
    if (bad >= 0) {
        int v = fmt.is_signed ? (int)(int16_t)src[bad] : (int)src[bad];
        set_err(err, errlen, "%s: grey value %d at (%lld,%lld) is outside the %d-bit %s range %d..%d",
                filter_id, v, bad % width, bad / width, fmt.bits_stored,
                fmt.is_signed ? "signed" : "unsigned", mj_gray_min(fmt), mj_gray_max(fmt));
        return MJ_ERR_ARG;
    }
    src = mj_stage_buffers(src, dst, bytes,
                           mj_clip_region(width, height, rx, ry, rw, rh, NULL) && p.filter != MJ_SPREAD, &tmp);
    if (src == NULL) {
        set_err(err, errlen, "%s: %s", filter_id, mj_strerror(MJ_ERR_NOMEM));
        return MJ_ERR_NOMEM;
    }
    if (!mj_clip_region(width, height, rx, ry, rw, rh, &reg)) {
        free(tmp);
        return MJ_OK; /* empty region: no change */
    }
    rc = mj_run_gray16(&p, impl, src, dst, width, height, fmt, reg);
    free(tmp);
    if (rc != MJ_OK)
        set_err(err, errlen, "%s: %s", filter_id, mj_strerror(rc));
    return rc;
}
