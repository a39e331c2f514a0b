#include "ppm.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    if (err == NULL || errlen == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

size_t mj_image_bytes(int width, int height)
{
    if (width <= 0 || height <= 0)
        return 0;
    if ((size_t)width > SIZE_MAX / 3u / (size_t)height)
        return 0;
    return (size_t)width * (size_t)height * 3u;
}

void mj_image_free(mj_image *img)
{
    if (img != NULL) {
        free(img->pixels);
        img->pixels = NULL;
        img->width = img->height = 0;
    }
}

static int is_ws(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Skips whitespace and '#' comments (to end of line). Returns the first other char/EOF. */
static int skip_ws_comments(FILE *f)
{
    int c;
    for (;;) {
        c = getc(f);
        if (c == '#') {
            do
                c = getc(f);
            while (c != EOF && c != '\n' && c != '\r');
            if (c == EOF)
                return EOF;
            continue;
        }
        if (!is_ws(c))
            return c;
    }
}

/* Reads an unsigned decimal header field. Returns 0 ok, -1 error; *next is the char after. */
static int read_field(FILE *f, long long *out, int *next)
{
    long long v = 0;
    int c = skip_ws_comments(f), digits = 0;
    while (c >= '0' && c <= '9') {
        if (v <= 1000000000000LL)
            v = v * 10 + (c - '0');
        digits++;
        c = getc(f);
    }
    *next = c;
    if (digits == 0)
        return -1;
    *out = v;
    return 0;
}

int ppm_read(const char *path, mj_image *img, char *err, size_t errlen)
{
    FILE *f;
    long long w, h, maxval;
    int c;
    size_t bytes, got;
    struct stat st;
    long pos;

    img->width = img->height = 0;
    img->pixels = NULL;
    f = fopen(path, "rb");
    if (f == NULL) {
        fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    if (getc(f) != 'P' || getc(f) != '6') {
        fail(err, errlen, "%s: not a binary PPM file (expected magic \"P6\")", path);
        fclose(f);
        return -1;
    }
    c = getc(f);
    if (!is_ws(c) && c != '#') {
        fail(err, errlen, "%s: not a binary PPM file (expected magic \"P6\")", path);
        fclose(f);
        return -1;
    }
    ungetc(c, f);
    if (read_field(f, &w, &c) != 0 || (!is_ws(c) && c != '#')) {
        fail(err, errlen, "%s: bad or truncated PPM header (width)", path);
        fclose(f);
        return -1;
    }
    ungetc(c, f);
    if (read_field(f, &h, &c) != 0 || (!is_ws(c) && c != '#')) {
        fail(err, errlen, "%s: bad or truncated PPM header (height)", path);
        fclose(f);
        return -1;
    }
    ungetc(c, f);
    if (read_field(f, &maxval, &c) != 0 || !is_ws(c)) {
        fail(err, errlen, "%s: bad or truncated PPM header (maxval)", path);
        fclose(f);
        return -1;
    }
    /* c is the single whitespace byte after the maxval */
    if (maxval != 255) {
        fail(err, errlen, "%s: PPM maxval %lld is not supported (only 255)", path, maxval);
        fclose(f);
        return -1;
    }
    if (w < 1 || h < 1 || w > 2147483647LL || h > 2147483647LL) {
        fail(err, errlen, "%s: invalid PPM size %lldx%lld", path, w, h);
        fclose(f);
        return -1;
    }
    bytes = mj_image_bytes((int)w, (int)h);
    if (bytes == 0) {
        fail(err, errlen, "%s: PPM size %lldx%lld is too large", path, w, h);
        fclose(f);
        return -1;
    }
    /* for regular files, detect truncation before allocating */
    pos = ftell(f);
    if (pos >= 0 && fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) &&
        (unsigned long long)st.st_size - (unsigned long long)pos < (unsigned long long)bytes) {
        fail(err, errlen, "%s: truncated PPM: %lldx%lld needs %zu bytes of pixel data, file has %lld",
             path, w, h, bytes, (long long)st.st_size - (long long)pos);
        fclose(f);
        return -1;
    }
    img->pixels = (uint8_t *)malloc(bytes);
    if (img->pixels == NULL) {
        fail(err, errlen, "%s: out of memory for %lldx%lld image", path, w, h);
        fclose(f);
        return -1;
    }
    got = fread(img->pixels, 1, bytes, f);
    if (got != bytes) {
        fail(err, errlen, "%s: truncated PPM: expected %zu bytes of pixel data, got %zu%s%s",
             path, bytes, got, ferror(f) ? ": " : "", ferror(f) ? strerror(errno) : "");
        free(img->pixels);
        img->pixels = NULL;
        fclose(f);
        return -1;
    }
    fclose(f);
    img->width = (int)w;
    img->height = (int)h;
    return 0;
}

/* Writes header + data to a temporary file in the same directory, then renames it over path. */
static int write_file_atomic(const char *path, const char *header, const void *data, size_t bytes,
                             char *err, size_t errlen)
{
    size_t len = strlen(path);
    char *tmp = (char *)malloc(len + 16);
    int fd, ok = 1;
    FILE *f;
    mode_t mask;

    if (tmp == NULL) {
        fail(err, errlen, "%s: out of memory", path);
        return -1;
    }
    if (bytes == 0) {
        fail(err, errlen, "%s: refusing to write an empty image", path);
        free(tmp);
        return -1;
    }
    memcpy(tmp, path, len);
    memcpy(tmp + len, ".tmp-XXXXXX", 12);
    fd = mkstemp(tmp);
    if (fd < 0) {
        fail(err, errlen, "%s: cannot create temporary file %s: %s", path, tmp, strerror(errno));
        free(tmp);
        return -1;
    }
    mask = umask(0);
    umask(mask);
    (void)fchmod(fd, (mode_t)(0666 & ~mask));
    f = fdopen(fd, "wb");
    if (f == NULL) {
        fail(err, errlen, "%s: cannot write: %s", tmp, strerror(errno));
        close(fd);
        unlink(tmp);
        free(tmp);
        return -1;
    }
    if (fputs(header, f) < 0)
        ok = 0;
    if (ok && fwrite(data, 1, bytes, f) != bytes)
        ok = 0;
    if (fflush(f) != 0)
        ok = 0;
    if (fclose(f) != 0)
        ok = 0;
    if (!ok) {
        fail(err, errlen, "%s: write failed: %s", tmp, strerror(errno));
        unlink(tmp);
        free(tmp);
        return -1;
    }
    if (rename(tmp, path) != 0) {
        fail(err, errlen, "%s: cannot rename %s into place: %s", path, tmp, strerror(errno));
        unlink(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}

int ppm_write_atomic(const char *path, const mj_image *img, char *err, size_t errlen)
{
    char header[64];
    snprintf(header, sizeof(header), "P6\n%d %d\n255\n", img->width, img->height);
    return write_file_atomic(path, header, img->pixels, mj_image_bytes(img->width, img->height),
                             err, errlen);
}

/* ---- 16-bit grey PGM --------------------------------------------------------------- */

void mj_gray_image_free(mj_gray_image *img)
{
    if (img != NULL) {
        free(img->words);
        img->words = NULL;
        img->width = img->height = 0;
    }
}

int pgm_read(const char *path, mj_gray_format fmt, mj_gray_image *img, char *err, size_t errlen)
{
    FILE *f;
    long long w, h, maxval, range;
    int c, bps;
    size_t n, bytes, i;
    unsigned char *data;

    img->width = img->height = 0;
    img->words = NULL;
    img->fmt = fmt;
    if (fmt.bits_stored < 1 || fmt.bits_stored > 16) {
        fail(err, errlen, "%s: bits stored must be 1..16, got %d", path, fmt.bits_stored);
        return -1;
    }
    range = (1LL << fmt.bits_stored) - 1;
    f = fopen(path, "rb");
    if (f == NULL) {
        fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    if (getc(f) != 'P' || getc(f) != '5' || (c = getc(f), !is_ws(c) && c != '#')) {
        fail(err, errlen, "%s: not a binary PGM file (expected magic \"P5\")", path);
        fclose(f);
        return -1;
    }
    ungetc(c, f);
    if (read_field(f, &w, &c) != 0 || (!is_ws(c) && c != '#') || (ungetc(c, f), 0) ||
        read_field(f, &h, &c) != 0 || (!is_ws(c) && c != '#') || (ungetc(c, f), 0) ||
        read_field(f, &maxval, &c) != 0 || !is_ws(c)) {
        fail(err, errlen, "%s: bad or truncated PGM header", path);
        fclose(f);
        return -1;
    }
    if (maxval != range) {
        fail(err, errlen, "%s: maxval %lld does not match %d bits stored (expected %lld)", path,
             maxval, fmt.bits_stored, range);
        fclose(f);
        return -1;
    }
    if (w < 1 || h < 1 || w > 2147483647LL || h > 2147483647LL ||
        (size_t)w > SIZE_MAX / 2u / (size_t)h) {
        fail(err, errlen, "%s: invalid PGM size %lldx%lld", path, w, h);
        fclose(f);
        return -1;
    }
    bps = maxval < 256 ? 1 : 2;
    n = (size_t)w * (size_t)h;
    bytes = n * (size_t)bps;
    data = (unsigned char *)malloc(bytes);
    img->words = (uint16_t *)malloc(n * sizeof(uint16_t));
    if (data == NULL || img->words == NULL) {
        fail(err, errlen, "%s: out of memory for %lldx%lld image", path, w, h);
        free(data);
        mj_gray_image_free(img);
        fclose(f);
        return -1;
    }
    if (fread(data, 1, bytes, f) != bytes) {
        fail(err, errlen, "%s: truncated PGM: expected %zu bytes of samples", path, bytes);
        free(data);
        mj_gray_image_free(img);
        fclose(f);
        return -1;
    }
    fclose(f);
    for (i = 0; i < n; i++) {
        long long u = bps == 1 ? data[i] : ((long long)data[2 * i] << 8 | data[2 * i + 1]);
        int min = fmt.is_signed ? -(1 << (fmt.bits_stored - 1)) : 0;
        if (u > maxval) {
            fail(err, errlen, "%s: sample %lld at (%zu,%zu) exceeds maxval %lld", path, u,
                 i % (size_t)w, i / (size_t)w, maxval);
            free(data);
            mj_gray_image_free(img);
            return -1;
        }
        img->words[i] = (uint16_t)(unsigned)((int)u + min);
    }
    free(data);
    img->width = (int)w;
    img->height = (int)h;
    return 0;
}

int pgm_write_atomic(const char *path, const mj_gray_image *img, char *err, size_t errlen)
{
    const int bits = img->fmt.bits_stored;
    const long maxval = (1L << bits) - 1;
    const int bps = maxval < 256 ? 1 : 2;
    const int min = img->fmt.is_signed ? -(1 << (bits - 1)) : 0;
    size_t n = (size_t)img->width * (size_t)img->height, i;
    unsigned char *data;
    char header[64];
    int rc;
    if (img->width < 1 || img->height < 1 || bits < 1 || bits > 16) {
        fail(err, errlen, "%s: refusing to write an empty image or invalid format", path);
        return -1;
    }
    data = (unsigned char *)malloc(n * (size_t)bps);
    if (data == NULL) {
        fail(err, errlen, "%s: out of memory", path);
        return -1;
    }
    for (i = 0; i < n; i++) {
        unsigned u = (uint16_t)((unsigned)img->words[i] - (unsigned)min);
        if (bps == 2) {
            data[2 * i] = (unsigned char)(u >> 8);
            data[2 * i + 1] = (unsigned char)u;
        } else {
            data[i] = (unsigned char)u;
        }
    }
    snprintf(header, sizeof(header), "P5\n%d %d\n%ld\n", img->width, img->height, maxval);
    rc = write_file_atomic(path, header, data, n * (size_t)bps, err, errlen);
    free(data);
    return rc;
}
