/* Despeckle has no vectorized kernel yet: MJ_ERR_ARG, which mj_apply reports as "no vectorized variant yet". */
#include "mj_internal.h"

int mj_despeckle_vectorized(const uint8_t *src, uint8_t *dst, int width, int height,
                            mj_region r, int n)
{
    (void)src;
    (void)dst;
    (void)width;
    (void)height;
    (void)r;
    (void)n;
    return MJ_ERR_ARG;
}

int mj_despeckle_gray16_vectorized(const uint16_t *src, uint16_t *dst, int width, int height,
                                   mj_region r, mj_gray_format fmt, int n)
{
    (void)src;
    (void)dst;
    (void)width;
    (void)height;
    (void)r;
    (void)fmt;
    (void)n;
    return MJ_ERR_ARG;
}
