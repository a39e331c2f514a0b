/* Oil-paint has no vectorized kernel yet: MJ_ERR_ARG, which mj_apply reports as "no vectorized variant yet". */
#include "mj_internal.h"

int mj_oil_paint_vectorized(const uint8_t *src, uint8_t *dst, int width, int height,
                            mj_region r, int n, mj_oil_window window)
{
    (void)src;
    (void)dst;
    (void)width;
    (void)height;
    (void)r;
    (void)n;
    (void)window;
    return MJ_ERR_ARG;
}

int mj_oil_paint_gray16_vectorized(const uint16_t *src, uint16_t *dst, int width, int height,
                                   mj_region r, mj_gray_format fmt, int n, mj_oil_window window)
{
    (void)src;
    (void)dst;
    (void)width;
    (void)height;
    (void)r;
    (void)fmt;
    (void)n;
    (void)window;
    return MJ_ERR_ARG;
}
