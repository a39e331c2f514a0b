/* Spread has no vectorized kernel yet: MJ_ERR_ARG, which mj_apply reports as "no vectorized variant yet". */
#include "mj_internal.h"

int mj_spread_vectorized(uint8_t *img, int width, int height, mj_region r,
                         mj_spread_mode mode, int a, int b, uint32_t seed)
{
    (void)img;
    (void)width;
    (void)height;
    (void)r;
    (void)mode;
    (void)a;
    (void)b;
    (void)seed;
    return MJ_ERR_ARG;
}

int mj_spread_gray16_vectorized(uint16_t *img, int width, int height, mj_region r,
                                mj_gray_format fmt, mj_spread_mode mode, int a, int b,
                                uint32_t seed)
{
    (void)img;
    (void)width;
    (void)height;
    (void)r;
    (void)fmt;
    (void)mode;
    (void)a;
    (void)b;
    (void)seed;
    return MJ_ERR_ARG;
}
