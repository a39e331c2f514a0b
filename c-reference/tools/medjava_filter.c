/*
 * medjava-filter FILTER [name=value ...] [--region x,y,w,h] [--impl straightforward|optimized|vectorized]
 *                [--gray u16|s12|...] in.ppm|in.pgm out.ppm|out.pgm
 * With --gray, input and output are 16-bit grey PGM files of that format (docs/filters.md) and the
 * grey ports run (docs/xv-filters-16bit.md).
 * Exit status: 0 ok, 1 I/O or processing error, 2 usage / parameter error.
 * The output is written to a temporary file in the same directory and renamed into place.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "medjava_filters.h"
#include "ppm.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: medjava-filter FILTER [name=value ...] [--region x,y,w,h]\n"
            "                      [--impl straightforward|optimized|vectorized] [--gray FORMAT] in out\n"
            "filters: blur sharpen despeckle edge-detect emboss oil-paint pixelize spread\n"
            "  blur        n=odd 1..255 (3)\n"
            "  sharpen     p=0..99 (75)\n"
            "  despeckle   n=odd 1..255 (3)\n"
            "  edge-detect frame=xv|black (xv)\n"
            "  emboss      rounding=xv|floor (xv)\n"
            "  oil-paint   n=1..31 (3) window=xv|centred (xv)\n"
            "  pixelize    block=N|AxB, 1..65535 (4)\n"
            "  spread      distance=N|AxB, 0..65535 (5) seed=0..2147483647 (1)\n"
            "              seed-from-clock=true|false (false)\n"
            "--region x,y,w,h may reach outside the image (it is clipped); default: whole image.\n"
            "--impl defaults to optimized.\n"
            "in and out are binary PPM (P6); with --gray FORMAT (u or s and the bits stored 1..16,\n"
            "e.g. u16, s12) they are PGM (P5, maxval 2^bits - 1, samples offset by -min).\n");
}

static int parse_int(const char *s, size_t len, int *out)
{
    char buf[32];
    char *end;
    long long v;
    if (len == 0 || len >= sizeof(buf))
        return 0;
    memcpy(buf, s, len);
    buf[len] = '\0';
    errno = 0;
    v = strtoll(buf, &end, 10);
    if (errno != 0 || *end != '\0' || v < INT_MIN || v > INT_MAX ||
        !(buf[0] == '-' || (buf[0] >= '0' && buf[0] <= '9')))
        return 0;
    *out = (int)v;
    return 1;
}

static int parse_region(const char *s, int v[4])
{
    int k;
    for (k = 0; k < 4; k++) {
        const char *e = strchr(s, ',');
        size_t len = (k < 3) ? (e ? (size_t)(e - s) : (size_t)-1) : strlen(s);
        if (k < 3 && e == NULL)
            return 0;
        if (k == 3 && strchr(s, ',') != NULL)
            return 0;
        if (!parse_int(s, len, &v[k]))
            return 0;
        s += len + (k < 3 ? 1 : 0);
    }
    return 1;
}

/* "u16", "s12": returns 1 ok */
static int parse_gray_format(const char *s, mj_gray_format *fmt)
{
    char *end;
    long b;
    if ((s[0] != 'u' && s[0] != 's') || !(s[1] >= '0' && s[1] <= '9'))
        return 0;
    b = strtol(s + 1, &end, 10);
    if (*end != '\0' || b < 1 || b > 16)
        return 0;
    fmt->bits_stored = (int)b;
    fmt->is_signed = s[0] == 's';
    return 1;
}

/* the grey path of main: read PGM, filter, write PGM */
static int run_gray(const char *filter, const char *params, int impl, mj_gray_format fmt,
                    int have_region, int *reg, const char *in_path, const char *out_path)
{
    char err[512];
    mj_gray_image in, out;
    int rc;
    if (pgm_read(in_path, fmt, &in, err, sizeof(err)) != 0) {
        fprintf(stderr, "medjava-filter: %s\n", err);
        return 1;
    }
    if (!have_region) {
        reg[0] = 0;
        reg[1] = 0;
        reg[2] = in.width;
        reg[3] = in.height;
    }
    out.width = in.width;
    out.height = in.height;
    out.fmt = fmt;
    out.words = (uint16_t *)malloc((size_t)in.width * (size_t)in.height * sizeof(uint16_t));
    if (out.words == NULL) {
        fprintf(stderr, "medjava-filter: out of memory\n");
        mj_gray_image_free(&in);
        return 1;
    }
    rc = mj_apply_gray16(filter, params, impl, in.words, out.words, in.width, in.height, fmt,
                         reg[0], reg[1], reg[2], reg[3], err, sizeof(err));
    mj_gray_image_free(&in);
    if (rc != MJ_OK) {
        fprintf(stderr, "medjava-filter: %s\n", err);
        mj_gray_image_free(&out);
        return rc == MJ_ERR_PARAM || rc == MJ_ERR_FILTER ? 2 : 1;
    }
    if (pgm_write_atomic(out_path, &out, err, sizeof(err)) != 0) {
        fprintf(stderr, "medjava-filter: %s\n", err);
        mj_gray_image_free(&out);
        return 1;
    }
    mj_gray_image_free(&out);
    return 0;
}

int main(int argc, char **argv)
{
    const char *filter, *in_path, *out_path, *region_arg = NULL;
    const char **pos;
    char *params;
    size_t params_len = 1;
    int npos = 0, i, impl = MJ_IMPL_OPTIMIZED, reg[4] = {0, 0, 0, 0}, have_region = 0, rc;
    int only_positional = 0, gray = 0;
    mj_gray_format gray_fmt = {0, 0};
    char err[512];
    mj_params parsed;
    mj_image in, out;

    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    filter = argv[1];
    if (mj_filter_from_id(filter) < 0) {
        fprintf(stderr, "medjava-filter: unknown filter \"%s\"; available filters: %s\n",
                filter, "blur, sharpen, despeckle, edge-detect, emboss, oil-paint, pixelize, spread");
        return 2;
    }
    pos = (const char **)malloc((size_t)argc * sizeof(char *));
    if (pos == NULL) {
        fprintf(stderr, "medjava-filter: out of memory\n");
        return 1;
    }
    for (i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!only_positional && strcmp(a, "--") == 0) {
            only_positional = 1;
        } else if (!only_positional && strcmp(a, "--region") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "medjava-filter: --region needs x,y,w,h\n");
                free(pos);
                return 2;
            }
            region_arg = argv[++i];
        } else if (!only_positional && strncmp(a, "--region=", 9) == 0) {
            region_arg = a + 9;
        } else if (!only_positional && (strcmp(a, "--impl") == 0 || strncmp(a, "--impl=", 7) == 0)) {
            const char *v;
            if (a[6] == '=') {
                v = a + 7;
            } else {
                if (i + 1 >= argc) {
                    fprintf(stderr, "medjava-filter: --impl needs straightforward, optimized or vectorized\n");
                    free(pos);
                    return 2;
                }
                v = argv[++i];
            }
            if (strcmp(v, "straightforward") == 0) {
                impl = MJ_IMPL_STRAIGHTFORWARD;
            } else if (strcmp(v, "optimized") == 0) {
                impl = MJ_IMPL_OPTIMIZED;
            } else if (strcmp(v, "vectorized") == 0) {
                impl = MJ_IMPL_VECTORIZED;
            } else {
                fprintf(stderr, "medjava-filter: --impl \"%s\" is invalid: must be "
                        "straightforward, optimized or vectorized\n", v);
                free(pos);
                return 2;
            }
        } else if (!only_positional && (strcmp(a, "--gray") == 0 || strncmp(a, "--gray=", 7) == 0)) {
            const char *v;
            if (a[6] == '=') {
                v = a + 7;
            } else {
                if (i + 1 >= argc) {
                    fprintf(stderr, "medjava-filter: --gray needs a format such as u16 or s12\n");
                    free(pos);
                    return 2;
                }
                v = argv[++i];
            }
            if (!parse_gray_format(v, &gray_fmt)) {
                fprintf(stderr, "medjava-filter: --gray \"%s\" is invalid: must be u or s followed by "
                        "the bits stored 1..16 (u16, s12)\n", v);
                free(pos);
                return 2;
            }
            gray = 1;
        } else if (!only_positional && strcmp(a, "--help") == 0) {
            usage(stdout);
            free(pos);
            return 0;
        } else if (!only_positional && a[0] == '-' && a[1] == '-') {
            fprintf(stderr, "medjava-filter: unknown option %s\n", a);
            usage(stderr);
            free(pos);
            return 2;
        } else {
            pos[npos++] = a;
        }
    }
    if (npos < 2) {
        fprintf(stderr, "medjava-filter: missing input and/or output file\n");
        usage(stderr);
        free(pos);
        return 2;
    }
    in_path = pos[npos - 2];
    out_path = pos[npos - 1];
    for (i = 0; i < npos - 2; i++) {
        if (strchr(pos[i], '=') == NULL) {
            fprintf(stderr, "medjava-filter: unexpected argument \"%s\" (parameters are "
                    "name=value; exactly one input and one output file)\n", pos[i]);
            free(pos);
            return 2;
        }
        params_len += strlen(pos[i]) + 1;
    }
    params = (char *)malloc(params_len);
    if (params == NULL) {
        fprintf(stderr, "medjava-filter: out of memory\n");
        free(pos);
        return 1;
    }
    params[0] = '\0';
    for (i = 0; i < npos - 2; i++) {
        if (i > 0)
            strcat(params, " ");
        strcat(params, pos[i]);
    }
    free(pos);
    if (mj_parse_params(filter, params, &parsed, err, sizeof(err)) != MJ_OK) {
        fprintf(stderr, "medjava-filter: %s\n", err);
        free(params);
        return 2;
    }
    if (region_arg != NULL) {
        if (!parse_region(region_arg, reg)) {
            fprintf(stderr, "medjava-filter: --region \"%s\" is invalid: expected x,y,w,h "
                    "(integers)\n", region_arg);
            free(params);
            return 2;
        }
        have_region = 1;
    }
    if (gray) {
        rc = run_gray(filter, params, impl, gray_fmt, have_region, reg, in_path, out_path);
        free(params);
        return rc;
    }
    if (ppm_read(in_path, &in, err, sizeof(err)) != 0) {
        fprintf(stderr, "medjava-filter: %s\n", err);
        free(params);
        return 1;
    }
    if (!have_region) {
        reg[0] = 0;
        reg[1] = 0;
        reg[2] = in.width;
        reg[3] = in.height;
    }
    out.width = in.width;
    out.height = in.height;
    out.pixels = (uint8_t *)malloc(mj_image_bytes(in.width, in.height));
    if (out.pixels == NULL) {
        fprintf(stderr, "medjava-filter: out of memory\n");
        mj_image_free(&in);
        free(params);
        return 1;
    }
    rc = mj_apply(filter, params, impl, in.pixels, out.pixels, in.width, in.height, reg[0],
                  reg[1], reg[2], reg[3], err, sizeof(err));
    free(params);
    mj_image_free(&in);
    if (rc != MJ_OK) {
        fprintf(stderr, "medjava-filter: %s\n", err);
        mj_image_free(&out);
        return rc == MJ_ERR_PARAM || rc == MJ_ERR_FILTER ? 2 : 1;
    }
    if (ppm_write_atomic(out_path, &out, err, sizeof(err)) != 0) {
        fprintf(stderr, "medjava-filter: %s\n", err);
        mj_image_free(&out);
        return 1;
    }
    mj_image_free(&out);
    return 0;
}
