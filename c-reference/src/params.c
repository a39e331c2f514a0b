/* Parameter parsing/validation (docs/filters.md), region clipping and the generic entry
 * points mj_run / mj_apply. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "mj_internal.h"

static const char *const FILTER_IDS[MJ_FILTER_COUNT] = {
    "blur", "sharpen", "despeckle", "edge-detect", "emboss", "oil-paint", "pixelize", "spread"
};

const char *mj_filter_ids(void)
{
    return "blur sharpen despeckle edge-detect emboss oil-paint pixelize spread";
}

const char *mj_filter_id(mj_filter f)
{
    if ((int)f < 0 || (int)f >= MJ_FILTER_COUNT)
        return NULL;
    return FILTER_IDS[f];
}

int mj_filter_from_id(const char *filter_id)
{
    int i;
    if (filter_id == NULL)
        return -1;
    for (i = 0; i < MJ_FILTER_COUNT; i++)
        if (strcmp(filter_id, FILTER_IDS[i]) == 0)
            return i;
    return -1;
}

const char *mj_strerror(int code)
{
    switch (code) {
    case MJ_OK: return "ok";
    case MJ_ERR_FILTER: return "unknown filter";
    case MJ_ERR_PARAM: return "invalid parameter";
    case MJ_ERR_ARG: return "invalid argument (image size, region, buffers or implementation)";
    case MJ_ERR_NOMEM: return "out of memory";
    default: return "unknown error";
    }
}

int mj_check_args(const void *buf, int width, int height, mj_region r)
{
    if (buf == NULL || width <= 0 || height <= 0)
        return 0;
    if (r.x < 0 || r.y < 0 || r.w <= 0 || r.h <= 0)
        return 0;
    if (r.w > width - r.x || r.h > height - r.y)
        return 0;
    return 1;
}

int mj_clip_region(int width, int height, int x, int y, int w, int h, mj_region *out)
{
    long long x0 = x, y0 = y, x1 = (long long)x + w, y1 = (long long)y + h;
    if (width <= 0 || height <= 0)
        return 0;
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > width) x1 = width;
    if (y1 > height) y1 = height;
    if (x1 <= x0 || y1 <= y0)
        return 0;
    if (out != NULL) {
        out->x = (int)x0;
        out->y = (int)y0;
        out->w = (int)(x1 - x0);
        out->h = (int)(y1 - y0);
    }
    return 1;
}

/* ---- parsing ----------------------------------------------------------------------- */

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    if (err == NULL || errlen == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

int mj_check_buffers(const char *filter_id, const void *src, const void *dst, size_t bytes, char *err,
                     size_t errlen)
{
    if (src == NULL || dst == NULL) {
        set_err(err, errlen, "%s: null image buffer", filter_id);
        return MJ_ERR_ARG;
    }
    if (src != dst) {
        const uintptr_t a = (uintptr_t)src, b = (uintptr_t)dst;
        if ((a < b && b - a < bytes) || (b < a && a - b < bytes)) {
            set_err(err, errlen, "%s: input and output buffers overlap", filter_id);
            return MJ_ERR_ARG;
        }
    }
    return MJ_OK;
}

const void *mj_stage_buffers(const void *src, void *dst, size_t bytes, int copy_in_place, void **tmp)
{
    *tmp = NULL;
    if (src != dst) {
        memcpy(dst, src, bytes);
        return src;
    }
    if (!copy_in_place)
        return src;
    *tmp = malloc(bytes);
    if (*tmp == NULL)
        return NULL;
    memcpy(*tmp, src, bytes);
    return *tmp;
}

/* Decimal integer: one or more ASCII digits, nothing else; value capped so that very long
 * digit strings cannot overflow (they are out of range anyway). */
static int parse_uint(const char *s, size_t len, long long *out)
{
    long long v = 0;
    size_t i;
    if (len == 0)
        return 0;
    for (i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        if (v < 100000000000LL)
            v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return 1;
}

static int word_eq(const char *s, size_t len, const char *word)
{
    size_t i;
    if (strlen(word) != len)
        return 0;
    for (i = 0; i < len; i++) {
        char c = s[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != word[i])
            return 0;
    }
    return 1;
}

/* "N" or "AxB" (x or X), each in lo..hi. *is_pair tells which form was given. */
static int parse_n_or_axb(const char *s, size_t len, long long lo, long long hi,
                          long long *a, long long *b, int *is_pair)
{
    size_t i;
    for (i = 0; i < len; i++)
        if (s[i] == 'x' || s[i] == 'X')
            break;
    if (i == len) {
        if (!parse_uint(s, len, a) || *a < lo || *a > hi)
            return 0;
        *b = *a;
        *is_pair = 0;
        return 1;
    }
    if (!parse_uint(s, i, a) || !parse_uint(s + i + 1, len - i - 1, b))
        return 0;
    if (*a < lo || *a > hi || *b < lo || *b > hi)
        return 0;
    *is_pair = 1;
    return 1;
}

typedef struct {
    const char *name;
    const char *rule; /* the text after "<name> must be " */
} param_spec;

static const param_spec BLUR_P[] = {{"n", "an odd integer from 1 to 255 (default 3)"}};
static const param_spec SHARPEN_P[] = {{"p", "an integer from 0 to 99 (default 75)"}};
static const param_spec DESPECKLE_P[] = {{"n", "an odd integer from 1 to 255 (default 3)"}};
static const param_spec EDGE_P[] = {{"frame", "xv or black (default xv)"}};
static const param_spec EMBOSS_P[] = {{"rounding", "xv or floor (default xv)"}};
static const param_spec OIL_P[] = {{"n", "an integer from 1 to 31 (default 3)"},
                                   {"window", "xv or centred (default xv)"}};
static const param_spec PIXELIZE_P[] = {
    {"block", "N or AxB, each an integer from 1 to 65535 (default 4)"}};
static const param_spec SPREAD_P[] = {
    {"distance", "N or AxB, each an integer from 0 to 65535 (default 5)"},
    {"seed", "an integer from 0 to 2147483647 (default 1)"},
    {"seed-from-clock", "true or false (default false)"}};

static const param_spec *const PARAM_SPECS[MJ_FILTER_COUNT] = {
    BLUR_P, SHARPEN_P, DESPECKLE_P, EDGE_P, EMBOSS_P, OIL_P, PIXELIZE_P, SPREAD_P};
static const int PARAM_COUNTS[MJ_FILTER_COUNT] = {1, 1, 1, 1, 1, 2, 1, 3};

static void set_defaults(mj_filter f, mj_params *p)
{
    memset(p, 0, sizeof(*p));
    p->filter = f;
    p->n = 3;
    p->p = 75;
    p->frame = MJ_EDGE_FRAME_XV;
    p->rounding = MJ_EMBOSS_ROUNDING_XV;
    p->window = MJ_OIL_WINDOW_XV;
    p->block_w = p->block_h = 4;
    p->spread_mode = MJ_SPREAD_DIAMOND;
    p->spread_a = p->spread_b = 5;
    p->seed = 1;
    p->seed_from_clock = 0;
}

/* Applies one value; returns 1 if valid. */
static int apply_value(mj_filter f, int which, const char *v, size_t len, mj_params *p)
{
    long long a, b;
    int pair;
    switch (f) {
    case MJ_BLUR:
    case MJ_DESPECKLE:
        if (!parse_uint(v, len, &a) || a < 1 || a > 255 || (a % 2) == 0)
            return 0;
        p->n = (int)a;
        return 1;
    case MJ_SHARPEN:
        if (!parse_uint(v, len, &a) || a > 99)
            return 0;
        p->p = (int)a;
        return 1;
    case MJ_EDGE_DETECT:
        if (word_eq(v, len, "xv"))
            p->frame = MJ_EDGE_FRAME_XV;
        else if (word_eq(v, len, "black"))
            p->frame = MJ_EDGE_FRAME_BLACK;
        else
            return 0;
        return 1;
    case MJ_EMBOSS:
        if (word_eq(v, len, "xv"))
            p->rounding = MJ_EMBOSS_ROUNDING_XV;
        else if (word_eq(v, len, "floor"))
            p->rounding = MJ_EMBOSS_ROUNDING_FLOOR;
        else
            return 0;
        return 1;
    case MJ_OIL_PAINT:
        if (which == 0) {
            if (!parse_uint(v, len, &a) || a < 1 || a > 31)
                return 0;
            p->n = (int)a;
        } else {
            if (word_eq(v, len, "xv"))
                p->window = MJ_OIL_WINDOW_XV;
            else if (word_eq(v, len, "centred"))
                p->window = MJ_OIL_WINDOW_CENTRED;
            else
                return 0;
        }
        return 1;
    case MJ_PIXELIZE:
        if (!parse_n_or_axb(v, len, 1, 65535, &a, &b, &pair))
            return 0;
        p->block_w = (int)a;
        p->block_h = (int)b;
        return 1;
    case MJ_SPREAD:
        if (which == 0) {
            if (!parse_n_or_axb(v, len, 0, 65535, &a, &b, &pair))
                return 0;
            p->spread_mode = pair ? MJ_SPREAD_BOX : MJ_SPREAD_DIAMOND;
            p->spread_a = (int)a;
            p->spread_b = (int)b;
        } else if (which == 1) {
            if (!parse_uint(v, len, &a) || a > 2147483647LL)
                return 0;
            p->seed = (uint32_t)a;
        } else {
            if (word_eq(v, len, "true"))
                p->seed_from_clock = 1;
            else if (word_eq(v, len, "false"))
                p->seed_from_clock = 0;
            else
                return 0;
        }
        return 1;
    default:
        return 0;
    }
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

int mj_parse_params(const char *filter_id, const char *params, mj_params *out,
                    char *err, size_t errlen)
{
    int f = mj_filter_from_id(filter_id);
    int seen[4] = {0, 0, 0, 0};
    const char *s = params;
    mj_params p;

    if (err != NULL && errlen > 0)
        err[0] = '\0';
    if (f < 0) {
        set_err(err, errlen, "unknown filter \"%s\" (available: %s)",
                filter_id ? filter_id : "(null)",
                "blur, sharpen, despeckle, edge-detect, emboss, oil-paint, pixelize, spread");
        return MJ_ERR_FILTER;
    }
    set_defaults((mj_filter)f, &p);
    if (s == NULL)
        s = "";
    for (;;) {
        const char *tok, *eq, *end;
        size_t nlen, vlen;
        int k, which = -1;
        while (*s != '\0' && is_space(*s))
            s++;
        if (*s == '\0')
            break;
        tok = s;
        while (*s != '\0' && !is_space(*s))
            s++;
        end = s;
        eq = memchr(tok, '=', (size_t)(end - tok));
        if (eq == NULL || eq == tok) {
            set_err(err, errlen, "%s: malformed parameter \"%.*s\" (expected name=value)",
                    FILTER_IDS[f], (int)(end - tok), tok);
            return MJ_ERR_PARAM;
        }
        nlen = (size_t)(eq - tok);
        vlen = (size_t)(end - eq - 1);
        for (k = 0; k < PARAM_COUNTS[f]; k++) {
            const char *name = PARAM_SPECS[f][k].name;
            if (strlen(name) == nlen && memcmp(name, tok, nlen) == 0)
                which = k;
        }
        if (which < 0) {
            char names[64] = "";
            for (k = 0; k < PARAM_COUNTS[f]; k++) {
                if (k > 0)
                    strcat(names, ", ");
                strcat(names, PARAM_SPECS[f][k].name);
            }
            set_err(err, errlen, "%s: unknown parameter \"%.*s\" (parameters: %s)",
                    FILTER_IDS[f], (int)nlen, tok, names);
            return MJ_ERR_PARAM;
        }
        if (seen[which]) {
            set_err(err, errlen, "%s: parameter %s is given more than once", FILTER_IDS[f],
                    PARAM_SPECS[f][which].name);
            return MJ_ERR_PARAM;
        }
        seen[which] = 1;
        if (!apply_value((mj_filter)f, which, eq + 1, vlen, &p)) {
            set_err(err, errlen, "%s: parameter %s=\"%.*s\" is invalid: %s must be %s",
                    FILTER_IDS[f], PARAM_SPECS[f][which].name, (int)vlen, eq + 1,
                    PARAM_SPECS[f][which].name, PARAM_SPECS[f][which].rule);
            return MJ_ERR_PARAM;
        }
    }
    if (out != NULL)
        *out = p;
    return MJ_OK;
}

/* ---- running ------------------------------------------------------------------------ */

/* the implementation impl of filter function f */
#define PICK(f) (impl == MJ_IMPL_VECTORIZED ? f##_vectorized : impl == MJ_IMPL_OPTIMIZED ? f##_optimized \
                 : f##_straightforward)

int mj_run(const mj_params *params, int impl, const uint8_t *src, uint8_t *dst,
           int width, int height, mj_region region)
{
    if (params == NULL || impl < MJ_IMPL_STRAIGHTFORWARD || impl > MJ_IMPL_VECTORIZED)
        return MJ_ERR_ARG;
    switch (params->filter) {
    case MJ_BLUR:
        return PICK(mj_blur)(src, dst, width, height,
                                                                    region, params->n);
    case MJ_SHARPEN:
        return PICK(mj_sharpen)(
            src, dst, width, height, region, params->p);
    case MJ_DESPECKLE:
        return PICK(mj_despeckle)(
            src, dst, width, height, region, params->n);
    case MJ_EDGE_DETECT:
        return PICK(mj_edge_detect)(
            src, dst, width, height, region, params->frame);
    case MJ_EMBOSS:
        return PICK(mj_emboss)(
            src, dst, width, height, region, params->rounding);
    case MJ_OIL_PAINT:
        return PICK(mj_oil_paint)(
            src, dst, width, height, region, params->n, params->window);
    case MJ_PIXELIZE:
        return PICK(mj_pixelize)(
            src, dst, width, height, region, params->block_w, params->block_h);
    case MJ_SPREAD: {
        uint32_t seed = params->seed;
        if (params->seed_from_clock) {
            time_t t = time(NULL);
            seed = (uint32_t)((unsigned long long)(t < 0 ? -t : t) % 2147483647ULL);
            if (seed == 0)
                seed = 1;
        }
        (void)src;
        return PICK(mj_spread)(
            dst, width, height, region, params->spread_mode, params->spread_a,
            params->spread_b, seed);
    }
    default:
        return MJ_ERR_ARG;
    }
}

int mj_apply(const char *filter_id, const char *params, int impl,
             const uint8_t *src, uint8_t *dst, int width, int height,
             int rx, int ry, int rw, int rh, char *err, size_t errlen)
{
    mj_params p;
    mj_region reg;
    size_t bytes;
    void *tmp = NULL;
    int rc;

    rc = mj_parse_params(filter_id, params, &p, err, errlen);
    if (rc != MJ_OK)
        return rc;
    if (impl < MJ_IMPL_STRAIGHTFORWARD || impl > MJ_IMPL_VECTORIZED) {
        set_err(err, errlen, "%s: implementation %d is invalid: must be 0 (straightforward), "
                "1 (optimized) or 2 (vectorized)", filter_id, impl);
        return MJ_ERR_ARG;
    }
    if (width < 0 || height < 0) {
        set_err(err, errlen, "%s: invalid image size %dx%d", filter_id, width, height);
        return MJ_ERR_ARG;
    }
    if (width == 0 || height == 0)
        return MJ_OK; /* empty image: nothing to do */
    if ((size_t)width > SIZE_MAX / 3u / (size_t)height) {
        set_err(err, errlen, "%s: image size %dx%d is too large", filter_id, width, height);
        return MJ_ERR_ARG;
    }
    bytes = (size_t)width * (size_t)height * 3u;
    rc = mj_check_buffers(filter_id, src, dst, bytes, err, errlen);
    if (rc != MJ_OK)
        return rc;
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
    rc = mj_run(&p, impl, src, dst, width, height, reg);
    free(tmp);
    if (rc != MJ_OK)
        set_err(err, errlen, "%s: %s", filter_id, mj_strerror(rc));
    return rc;
}
