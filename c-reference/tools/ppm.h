/* Binary PPM (P6, maxval 255) reading and atomic writing for the command-line tools. */
#ifndef MJ_PPM_H
#define MJ_PPM_H

#include <stddef.h>
#include <stdint.h>
#include "medjava_filters.h"

typedef struct {
    int width, height;
    uint8_t *pixels; /* 3 * width * height bytes */
} mj_image;

/* Reads a P6 file with maxval 255 (header comments allowed, exactly one whitespace byte after
 * the maxval). Returns 0 on success, else -1 with a message in err. */
int ppm_read(const char *path, mj_image *img, char *err, size_t errlen);

/* Writes "P6\n<w> <h>\n255\n" + pixels to a temporary file in the same directory, then
 * renames it over path, so path is never left partially written. 0 on success, else -1. */
int ppm_write_atomic(const char *path, const mj_image *img, char *err, size_t errlen);

void mj_image_free(mj_image *img);

/* Size in bytes of the pixel data (3 * w * h), or 0 on overflow / empty. */
size_t mj_image_bytes(int width, int height);

/* A 16-bit grey image (docs/xv-filters-16bit.md): words as the library takes them. */
typedef struct {
    int width, height;
    mj_gray_format fmt;
    uint16_t *words; /* width * height */
} mj_gray_image;

/* Reads a P5 file whose maxval must be 2^bits_stored - 1 (one byte per sample below 256, else
 * two, most significant first); each sample is the offset value u = v - min, stored as the
 * word of v. 0 on success, else -1 with a message in err. */
int pgm_read(const char *path, mj_gray_format fmt, mj_gray_image *img, char *err, size_t errlen);

/* Writes "P5\n<w> <h>\n<maxval>\n" + samples atomically (as ppm_write_atomic). */
int pgm_write_atomic(const char *path, const mj_gray_image *img, char *err, size_t errlen);

void mj_gray_image_free(mj_gray_image *img);

#endif
