/* Pixelize has no vectorized kernel yet: MJ_ERR_ARG, which mj_apply reports as "no vectorized variant yet". */
#include "mj_internal.h"

int mj_pixelize_vectorized(const uint8_t *src, uint8_t *dst, int width, int height,
                           mj_region r, int block_w, int block_h)
{
    (void)src;
    (void)dst;
    (void)width;
    (void)height;
    (void)r;
    (void)block_w;
    (void)block_h;
    return MJ_ERR_ARG;
}

int mj_pixelize_gray16_vectorized(const uint16_t *src, uint16_t *dst, int width, int height,
                                  mj_region r, mj_gray_format fmt, int block_w, int block_h)
{
    (void)src;
    (void)dst;
    (void)width;
    (void)height;
    (void)r;
    (void)fmt;
    (void)block_w;
    (void)block_h;
    return MJ_ERR_ARG;
}
