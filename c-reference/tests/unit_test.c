/*
 * unit_test [--iterations N] [--seed S]
 * Hand-computed cases per filter (from docs/xv-filters.md), XVR test vectors (and a
 * comparison with glibc random()), parameter validation messages, region clipping, and a
 * randomized self-check that the straightforward and optimized ports agree byte for byte.
 * Closes with "N passed, N failed".
 */
#define _XOPEN_SOURCE 700 /* srandom/random for the glibc comparison */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "medjava_filters.h"
#include "mj_internal.h"
#include "randgen.h"

static long g_passed, g_failed;

static void check(int ok, const char *fmt, ...)
{
    if (ok) {
        g_passed++;
    } else {
        va_list ap;
        g_failed++;
        printf("FAIL: ");
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        printf("\n");
    }
}

/* ---- helpers ------------------------------------------------------------------------ */

/* grey image from a list of values */
static uint8_t *grey_image(int w, int h, const int *v)
{
    uint8_t *p = (uint8_t *)malloc((size_t)w * (size_t)h * 3u);
    int i;
    for (i = 0; i < w * h; i++)
        p[3 * i] = p[3 * i + 1] = p[3 * i + 2] = (uint8_t)v[i];
    return p;
}


/* Runs filter via mj_apply with the three implementations; checks rc == MJ_OK and that the
 * outputs equal `expected` (3*w*h bytes). */
static void expect_filter(const char *name, const char *filter, const char *params,
                          const uint8_t *src, int w, int h, int rx, int ry, int rw, int rh,
                          const uint8_t *expected)
{
    size_t n = (size_t)w * (size_t)h * 3u;
    uint8_t *out = (uint8_t *)malloc(n);
    int impl;
    for (impl = 0; impl <= 2; impl++) {
        char err[256] = "";
        int rc = mj_apply(filter, params, impl, src, out, w, h, rx, ry, rw, rh, err, sizeof(err));
        size_t k;
        check(rc == MJ_OK, "%s [%d]: rc=%d %s", name, impl, rc, err);
        if (rc != MJ_OK)
            continue;
        for (k = 0; k < n; k++)
            if (out[k] != expected[k])
                break;
        check(k == n, "%s [impl %d]: byte %zu (pixel %zu, channel %zu) is %d, expected %d",
              name, impl, k, k / 3, k % 3, k < n ? out[k] : -1, k < n ? expected[k] : -1);
    }
    free(out);
}

static void expect_grey(const char *name, const char *filter, const char *params, int w,
                        int h, const int *in, const int *exp)
{
    uint8_t *s = grey_image(w, h, in), *e = grey_image(w, h, exp);
    expect_filter(name, filter, params, s, w, h, 0, 0, w, h, e);
    free(s);
    free(e);
}

/* ---- XVR ---------------------------------------------------------------------------- */

static void test_xvr(void)
{
    static const uint32_t v1[5] = {1804289383u, 846930886u, 1681692777u, 1714636915u, 1957747793u};
    static const uint32_t v12345[5] = {383100999u, 858300821u, 357768173u, 455528251u, 133005921u};
    static const unsigned seeds[] = {1u, 2u, 12345u, 42u, 987654321u, 2147483646u, 2147483647u};
    mj_xvr g;
    int i, s;
    mj_xvr_seed(&g, 1);
    for (i = 0; i < 5; i++) {
        uint32_t v = mj_xvr_next(&g);
        check(v == v1[i], "XVR seed 1 value %d: %u, expected %u", i, v, v1[i]);
    }
    mj_xvr_seed(&g, 12345);
    for (i = 0; i < 5; i++) {
        uint32_t v = mj_xvr_next(&g);
        check(v == v12345[i], "XVR seed 12345 value %d: %u, expected %u", i, v, v12345[i]);
    }
    mj_xvr_seed(&g, 0);
    check(mj_xvr_next(&g) == v1[0], "XVR seed 0 is treated as 1");
    /* compare with glibc random() (the generator XVR re-implements) */
    for (s = 0; s < (int)(sizeof(seeds) / sizeof(seeds[0])); s++) {
        int bad = -1;
        srandom(seeds[s]);
        mj_xvr_seed(&g, seeds[s]);
        for (i = 0; i < 100000; i++) {
            uint32_t a = mj_xvr_next(&g);
            long b = random();
            if ((long)a != b) {
                bad = i;
                break;
            }
        }
        check(bad < 0, "XVR differs from glibc random() for seed %u at value %d", seeds[s], bad);
    }
}

/* ---- exact division helpers ---------------------------------------------------------- */

static void test_div24(void)
{
    uint32_t d;
    long bad = 0;
    for (d = 1; d <= 65536; d++) {
        uint64_t m = mj_magic24(d);
        uint32_t k;
        const uint32_t top = (1u << 24) - 1;
        uint32_t probes[6];
        probes[0] = 0;
        probes[1] = top;
        probes[2] = top - top % d;
        probes[3] = probes[2] ? probes[2] - 1 : 0;
        probes[4] = d - 1;
        probes[5] = d;
        for (k = 0; k < 6; k++)
            if (mj_div24(probes[k], m) != probes[k] / d)
                bad++;
        for (k = d; k < top && k < d * 300u; k += d) {
            if (mj_div24(k, m) != k / d || mj_div24(k - 1, m) != (k - 1) / d)
                bad++;
        }
    }
    check(bad == 0, "mj_div24 mismatches: %ld", bad);
}

/* ---- parameters ------------------------------------------------------------------------ */

static void expect_param_error(const char *filter, const char *params, int code, const char *msg)
{
    char err[512];
    mj_params p;
    int rc = mj_parse_params(filter, params, &p, err, sizeof(err));
    check(rc == code, "parse %s \"%s\": rc %d, expected %d", filter, params, rc, code);
    if (msg != NULL)
        check(strcmp(err, msg) == 0, "parse %s \"%s\": message\n  got      %s\n  expected %s",
              filter, params, err, msg);
}

static void test_params(void)
{
    mj_params p;
    char err[512];
    int rc;

    expect_param_error("blur", "n=4", MJ_ERR_PARAM,
                       "blur: parameter n=\"4\" is invalid: n must be an odd integer from 1 to 255 (default 3)");
    expect_param_error("blur", "n=257", MJ_ERR_PARAM, NULL);
    expect_param_error("blur", "n=0", MJ_ERR_PARAM, NULL);
    expect_param_error("blur", "n=-3", MJ_ERR_PARAM, NULL);
    expect_param_error("blur", "n=+3", MJ_ERR_PARAM, NULL);
    expect_param_error("blur", "n=3.0", MJ_ERR_PARAM, NULL);
    expect_param_error("blur", "n=abc", MJ_ERR_PARAM, NULL);
    expect_param_error("blur", "n=99999999999999999999999", MJ_ERR_PARAM, NULL);
    expect_param_error("blur", "n=", MJ_ERR_PARAM,
                       "blur: parameter n=\"\" is invalid: n must be an odd integer from 1 to 255 (default 3)");
    expect_param_error("blur", "m=3", MJ_ERR_PARAM, "blur: unknown parameter \"m\" (parameters: n)");
    expect_param_error("blur", "N=3", MJ_ERR_PARAM, NULL);
    expect_param_error("blur", "n", MJ_ERR_PARAM,
                       "blur: malformed parameter \"n\" (expected name=value)");
    expect_param_error("blur", "n=3 n=5", MJ_ERR_PARAM,
                       "blur: parameter n is given more than once");
    expect_param_error("sharpen", "p=100", MJ_ERR_PARAM,
                       "sharpen: parameter p=\"100\" is invalid: p must be an integer from 0 to 99 (default 75)");
    expect_param_error("despeckle", "n=2", MJ_ERR_PARAM,
                       "despeckle: parameter n=\"2\" is invalid: n must be an odd integer from 1 to 255 (default 3)");
    expect_param_error("edge-detect", "frame=grey", MJ_ERR_PARAM,
                       "edge-detect: parameter frame=\"grey\" is invalid: frame must be xv or black (default xv)");
    expect_param_error("emboss", "rounding=round", MJ_ERR_PARAM,
                       "emboss: parameter rounding=\"round\" is invalid: rounding must be xv or floor (default xv)");
    expect_param_error("oil-paint", "n=32", MJ_ERR_PARAM,
                       "oil-paint: parameter n=\"32\" is invalid: n must be an integer from 1 to 31 (default 3)");
    expect_param_error("oil-paint", "n=0", MJ_ERR_PARAM, NULL);
    expect_param_error("oil-paint", "window=centered", MJ_ERR_PARAM,
                       "oil-paint: parameter window=\"centered\" is invalid: window must be xv or centred (default xv)");
    expect_param_error("pixelize", "block=0", MJ_ERR_PARAM,
                       "pixelize: parameter block=\"0\" is invalid: block must be N or AxB, each an integer from 1 to 65535 (default 4)");
    expect_param_error("pixelize", "block=4x0", MJ_ERR_PARAM, NULL);
    expect_param_error("pixelize", "block=x4", MJ_ERR_PARAM, NULL);
    expect_param_error("pixelize", "block=4x", MJ_ERR_PARAM, NULL);
    expect_param_error("pixelize", "block=4x4x4", MJ_ERR_PARAM, NULL);
    expect_param_error("pixelize", "block=65536", MJ_ERR_PARAM, NULL);
    expect_param_error("spread", "distance=65536", MJ_ERR_PARAM,
                       "spread: parameter distance=\"65536\" is invalid: distance must be N or AxB, each an integer from 0 to 65535 (default 5)");
    expect_param_error("spread", "distance=-1", MJ_ERR_PARAM, NULL);
    expect_param_error("spread", "seed=2147483648", MJ_ERR_PARAM,
                       "spread: parameter seed=\"2147483648\" is invalid: seed must be an integer from 0 to 2147483647 (default 1)");
    expect_param_error("spread", "seed-from-clock=yes", MJ_ERR_PARAM,
                       "spread: parameter seed-from-clock=\"yes\" is invalid: seed-from-clock must be true or false (default false)");
    expect_param_error("spread", "size=3", MJ_ERR_PARAM,
                       "spread: unknown parameter \"size\" (parameters: distance, seed, seed-from-clock)");
    expect_param_error("blurr", "", MJ_ERR_FILTER,
                       "unknown filter \"blurr\" (available: blur, sharpen, despeckle, edge-detect, emboss, oil-paint, pixelize, spread)");

    /* defaults */
    rc = mj_parse_params("blur", "", &p, err, sizeof(err));
    check(rc == MJ_OK && p.n == 3, "blur defaults");
    rc = mj_parse_params("sharpen", NULL, &p, err, sizeof(err));
    check(rc == MJ_OK && p.p == 75, "sharpen defaults");
    rc = mj_parse_params("edge-detect", "", &p, err, sizeof(err));
    check(rc == MJ_OK && p.frame == MJ_EDGE_FRAME_XV, "edge-detect defaults");
    rc = mj_parse_params("emboss", "", &p, err, sizeof(err));
    check(rc == MJ_OK && p.rounding == MJ_EMBOSS_ROUNDING_XV, "emboss defaults");
    rc = mj_parse_params("oil-paint", "", &p, err, sizeof(err));
    check(rc == MJ_OK && p.n == 3 && p.window == MJ_OIL_WINDOW_XV, "oil-paint defaults");
    rc = mj_parse_params("pixelize", "", &p, err, sizeof(err));
    check(rc == MJ_OK && p.block_w == 4 && p.block_h == 4, "pixelize defaults");
    rc = mj_parse_params("spread", "", &p, err, sizeof(err));
    check(rc == MJ_OK && p.spread_mode == MJ_SPREAD_DIAMOND && p.spread_a == 5 && p.seed == 1 &&
          !p.seed_from_clock, "spread defaults");
    /* accepted forms */
    rc = mj_parse_params("blur", "  n=007\t", &p, err, sizeof(err));
    check(rc == MJ_OK && p.n == 7, "blur n=007 with whitespace: %s", err);
    rc = mj_parse_params("edge-detect", "frame=BLACK", &p, err, sizeof(err));
    check(rc == MJ_OK && p.frame == MJ_EDGE_FRAME_BLACK, "frame=BLACK (case-insensitive)");
    rc = mj_parse_params("emboss", "rounding=Floor", &p, err, sizeof(err));
    check(rc == MJ_OK && p.rounding == MJ_EMBOSS_ROUNDING_FLOOR, "rounding=Floor");
    rc = mj_parse_params("oil-paint", "window=Centred n=31", &p, err, sizeof(err));
    check(rc == MJ_OK && p.window == MJ_OIL_WINDOW_CENTRED && p.n == 31, "oil-paint centred");
    rc = mj_parse_params("pixelize", "block=3X5", &p, err, sizeof(err));
    check(rc == MJ_OK && p.block_w == 3 && p.block_h == 5, "block=3X5");
    rc = mj_parse_params("pixelize", "block=65535x1", &p, err, sizeof(err));
    check(rc == MJ_OK && p.block_w == 65535 && p.block_h == 1, "block=65535x1");
    rc = mj_parse_params("spread", "distance=0x7 seed=0 seed-from-clock=TRUE", &p, err, sizeof(err));
    check(rc == MJ_OK && p.spread_mode == MJ_SPREAD_BOX && p.spread_a == 0 && p.spread_b == 7 &&
          p.seed == 0 && p.seed_from_clock == 1, "spread box form: %s", err);
    rc = mj_parse_params("spread", "distance=9 seed=2147483647", &p, err, sizeof(err));
    check(rc == MJ_OK && p.spread_mode == MJ_SPREAD_DIAMOND && p.spread_a == 9 &&
          p.seed == 2147483647u, "spread diamond form");
    check(mj_filter_from_id("oil-paint") == MJ_OIL_PAINT && mj_filter_from_id("Blur") == -1,
          "filter ids are exact");

    /* mj_apply reports parameter errors and leaves nothing half-done */
    {
        uint8_t src[3] = {1, 2, 3}, dst[3] = {0, 0, 0};
        rc = mj_apply("blur", "n=4", 1, src, dst, 1, 1, 0, 0, 1, 1, err, sizeof(err));
        check(rc == MJ_ERR_PARAM && strstr(err, "n must be an odd integer") != NULL,
              "mj_apply invalid parameter: %d %s", rc, err);
        rc = mj_apply("blur", "", 3, src, dst, 1, 1, 0, 0, 1, 1, err, sizeof(err));
        check(rc == MJ_ERR_ARG && strstr(err, "1 (optimized) or 2 (vectorized)") != NULL, "mj_apply invalid impl: %s",
              err);
        rc = mj_apply("nope", "", 1, src, dst, 1, 1, 0, 0, 1, 1, err, sizeof(err));
        check(rc == MJ_ERR_FILTER && strstr(err, "available: blur") != NULL, "mj_apply unknown filter");
    }
}

/* ---- region clipping -------------------------------------------------------------------- */

static void test_regions(void)
{
    mj_region r;
    int ok;
    ok = mj_clip_region(8, 8, -5, -5, 10, 10, &r);
    check(ok && r.x == 0 && r.y == 0 && r.w == 5 && r.h == 5, "clip (-5,-5,10,10)");
    ok = mj_clip_region(8, 8, 6, 6, 10, 10, &r);
    check(ok && r.x == 6 && r.y == 6 && r.w == 2 && r.h == 2, "clip (6,6,10,10)");
    check(!mj_clip_region(8, 8, 8, 0, 1, 1, &r), "clip fully right -> empty");
    check(!mj_clip_region(8, 8, 0, 0, 0, 5, &r), "clip w=0 -> empty");
    check(!mj_clip_region(8, 8, 2, 2, -3, 5, &r), "clip negative w -> empty");
    check(!mj_clip_region(8, 8, -10, 0, 10, 5, &r), "clip ending at 0 -> empty");
    ok = mj_clip_region(8, 8, INT_MAX - 1, 0, INT_MAX, 8, &r);
    check(!ok, "clip huge x (no overflow)");
    ok = mj_clip_region(8, 8, INT_MIN, INT_MIN, INT_MAX, INT_MAX, &r);
    check(!ok, "clip INT_MIN origin (ends at -1)");
    ok = mj_clip_region(8, 8, -4, -4, INT_MAX, INT_MAX, &r);
    check(ok && r.x == 0 && r.w == 8 && r.h == 8, "clip large w/h");
    ok = mj_clip_region(8, 8, 0, 0, 8, 8, &r);
    check(ok && r.w == 8 && r.h == 8, "clip whole");

    /* empty region: dst is an exact copy of src */
    {
        uint8_t src[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, dst[12];
        char err[256];
        int f;
        for (f = 0; f < MJ_FILTER_COUNT; f++) {
            int rc;
            memset(dst, 0xAA, sizeof(dst));
            rc = mj_apply(mj_filter_id((mj_filter)f), "", 1, src, dst, 2, 2, 5, 5, 3, 3, err,
                          sizeof(err));
            check(rc == MJ_OK && memcmp(src, dst, 12) == 0, "empty region %s", mj_filter_id((mj_filter)f));
        }
    }
    /* the low-level functions reject unclipped regions */
    {
        uint8_t src[12] = {0}, dst[12] = {0};
        mj_region bad = {1, 0, 2, 2};
        check(mj_blur_optimized(src, dst, 2, 2, bad, 3) == MJ_ERR_ARG, "unclipped region rejected");
        bad.x = 0;
        bad.w = 0;
        check(mj_emboss_straightforward(src, dst, 2, 2, bad, MJ_EMBOSS_ROUNDING_XV) == MJ_ERR_ARG,
              "empty region rejected by low-level call");
    }
}

/* ---- hand-computed cases -------------------------------------------------------------- */

static void test_blur(void)
{
    /* 3x3, one bright pixel of 90 in the centre: interior count 9, edges 6, corners 4 */
    static const int in[9] = {0, 0, 0, 0, 90, 0, 0, 0, 0};
    static const int ex[9] = {22, 15, 22, 15, 10, 15, 22, 15, 22};
    static const int in2[25] = {255, 255, 255, 255, 255, 255, 0, 0, 0, 255, 255, 0, 90, 0, 255,
                                255, 0, 0, 0, 255, 255, 255, 255, 255, 255};
    static const int ex2[25] = {255, 255, 255, 255, 255, 255, 22, 15, 22, 255, 255, 15, 10, 15,
                                255, 255, 22, 15, 22, 255, 255, 255, 255, 255, 255};
    static const int in3[5] = {0, 10, 20, 30, 41};
    static const int ex3n5[5] = {10, 15, 20, 25, 30}; /* counts 3,4,5,4,3 */
    expect_grey("blur 3x3 counts 9/6/4", "blur", "", 3, 3, in, ex);
    expect_grey("blur n=1 identity", "blur", "n=1", 3, 3, in, in);
    /* region (1,1,3,3): the window never reads outside the region; outside is unchanged */
    {
        uint8_t *s = grey_image(5, 5, in2), *e = grey_image(5, 5, ex2);
        expect_filter("blur region clips window", "blur", "n=3", s, 5, 5, 1, 1, 3, 3, e);
        free(s);
        free(e);
    }
    expect_grey("blur 5x1 n=5", "blur", "n=5", 5, 1, in3, ex3n5);
}

static void test_sharpen(void)
{
    /* hand-computed (see unit_test comments / spec 2.2): grey centre 150 among 120, p=20:
     * S = 1110/255, v' = (150/255 - 0.2*S/9)/0.8 = 0.61438 -> 157 */
    int w = 3, h = 3, i;
    uint8_t src[27], exp[27];
    for (i = 0; i < 9; i++)
        src[3 * i] = src[3 * i + 1] = src[3 * i + 2] = 120;
    src[12] = src[13] = src[14] = 150;
    memcpy(exp, src, 27);
    exp[12] = exp[13] = exp[14] = 157;
    expect_filter("sharpen grey p=20", "sharpen", "p=20", src, w, h, 0, 0, 3, 3, exp);
    /* coloured centre (200,100,50), hue 20 deg, sat 0.75: v' = 0.85403 -> (218,109,54) */
    src[12] = 200; src[13] = 100; src[14] = 50;
    exp[12] = 218; exp[13] = 109; exp[14] = 54;
    expect_filter("sharpen colour p=20", "sharpen", "p=20", src, w, h, 0, 0, 3, 3, exp);
    /* green-dominant (60,200,100) among 90, p=30: j=2 -> (P, v, T) = (73,242,121) */
    for (i = 0; i < 9; i++)
        src[3 * i] = src[3 * i + 1] = src[3 * i + 2] = 90;
    src[12] = 60; src[13] = 200; src[14] = 100;
    memcpy(exp, src, 27);
    exp[12] = 73; exp[13] = 242; exp[14] = 121;
    expect_filter("sharpen green p=30", "sharpen", "p=30", src, w, h, 0, 0, 3, 3, exp);
    /* mixed neighbourhood, p=10 (computed with an independent binary64 script) */
    {
        static const uint8_t mix[27] = {10, 200, 30, 40, 50, 60, 70, 80, 90, 200, 10, 10, 30, 144,
                                        222, 0, 0, 0, 255, 255, 255, 100, 20, 180, 5, 5, 250};
        memcpy(src, mix, 27);
        memcpy(exp, mix, 27);
        exp[12] = 31; exp[13] = 148; exp[14] = 229;
        expect_filter("sharpen mixed p=10", "sharpen", "p=10", src, w, h, 0, 0, 3, 3, exp);
        exp[12] = 34; exp[13] = 165; exp[14] = 255;
        expect_filter("sharpen mixed p=75 (v' clamps to 1)", "sharpen", "", src, w, h, 0, 0, 3, 3, exp);
    }
    /* FMA guards: windows whose result changes by one if the compiler contracts a*b+c into
     * a fused multiply-add (found by diffing a -ffp-contract=fast build on a random image;
     * expectations from an independent binary64 script). */
    {
        static const uint8_t win[3][27] = {
            {118, 103, 114, 227, 186, 255, 48, 204, 200, 120, 22, 185, 77, 210, 73,
             123, 132, 144, 86, 12, 68, 200, 254, 54, 194, 152, 13},
            {114, 104, 183, 38, 77, 134, 42, 128, 112, 142, 16, 243, 20, 230, 23,
             91, 4, 71, 186, 161, 238, 105, 94, 128, 195, 68, 119},
            {100, 106, 225, 241, 76, 152, 73, 182, 23, 52, 207, 21, 220, 198, 82,
             33, 13, 112, 91, 197, 114, 191, 30, 119, 50, 50, 145}};
        static const uint8_t res[3][3] = {{93, 255, 89}, {22, 255, 25}, {255, 229, 95}};
        for (i = 0; i < 3; i++) {
            memcpy(src, win[i], 27);
            memcpy(exp, win[i], 27);
            memcpy(exp + 12, res[i], 3);
            expect_filter("sharpen FMA-sensitive window (no contraction allowed)", "sharpen",
                          "p=75", src, w, h, 0, 0, 3, 3, exp);
        }
    }
    /* frame unchanged on a 5x4 random image; sw < 3 or sh < 3: no change at all */
    {
        trng g = {12345};
        uint8_t s[5 * 4 * 3], o[5 * 4 * 3];
        char err[256];
        int x, y, frame_same = 1, interior_changed = 0;
        trng_image(&g, s, 5, 4);
        for (i = 0; i < 60; i++)
            s[i] = (uint8_t)(trng_next(&g) & 255);
        mj_apply("sharpen", "", 1, s, o, 5, 4, 0, 0, 5, 4, err, sizeof(err));
        for (y = 0; y < 4; y++)
            for (x = 0; x < 5; x++) {
                int fr = x == 0 || y == 0 || x == 4 || y == 3;
                int same = memcmp(s + 3 * (y * 5 + x), o + 3 * (y * 5 + x), 3) == 0;
                if (fr && !same) frame_same = 0;
                if (!fr && !same) interior_changed = 1;
            }
        check(frame_same, "sharpen frame keeps the input");
        check(interior_changed, "sharpen changes the interior");
        mj_apply("sharpen", "", 1, s, o, 5, 4, 0, 0, 2, 4, err, sizeof(err));
        check(memcmp(s, o, 60) == 0, "sharpen sw=2: no change");
        mj_apply("sharpen", "", 0, s, o, 5, 4, 1, 1, 4, 2, err, sizeof(err));
        check(memcmp(s, o, 60) == 0, "sharpen sh=2: no change");
    }
}

static void test_despeckle(void)
{
    /* 2x2: every window holds all four values (even count: floor of the two-middle mean) */
    uint8_t s[12] = {10, 10, 7, 20, 21, 7, 30, 30, 7, 41, 41, 7};
    uint8_t e[12];
    int i;
    static const int in3[3] = {10, 50, 20};
    static const int ex3[3] = {30, 20, 35};
    static const int in9[9] = {9, 1, 8, 2, 7, 3, 6, 4, 5};
    static const int ex9[9] = {5, 5, 5, 4, 5, 5, 4, 5, 5};
    for (i = 0; i < 4; i++) {
        e[3 * i] = 25;     /* (20+30)/2 */
        e[3 * i + 1] = 25; /* (21+30)/2 = 25.5 -> 25 */
        e[3 * i + 2] = 7;
    }
    expect_filter("despeckle 2x2 even-count mean", "despeckle", "", s, 2, 2, 0, 0, 2, 2, e);
    expect_grey("despeckle 3x1 counts 2/3/2", "despeckle", "", 3, 1, in3, ex3);
    /* 3x3: corners 4 values, edges 6, centre 9
     * (0,0): {9,1,2,7} -> (2+7)/2=4; (1,0): {9,1,8,2,7,3} -> (3+7)/2=5; (2,0): {1,8,7,3} -> 5
     * (0,1): {9,1,2,7,6,4} -> (4+6)/2=5; (1,1): median of 1..9 = 5; (2,1): {1,8,7,3,4,5} -> 4
     * (0,2): {2,7,6,4} -> 5; (1,2): {2,7,3,6,4,5} -> 4; (2,2): {7,3,4,5} -> 4 */
    {
        static const int ex9b[9] = {4, 5, 5, 5, 5, 4, 5, 4, 4};
        expect_grey("despeckle 3x3 counts 4/6/9", "despeckle", "", 3, 3, in9, ex9b);
    }
    (void)ex9;
    expect_grey("despeckle n=1 identity", "despeckle", "n=1", 3, 3, in9, in9);
    /* n=5 on 3x3: every window is the whole image -> 5 */
    {
        static const int all5[9] = {5, 5, 5, 5, 5, 5, 5, 5, 5};
        expect_grey("despeckle n=5 whole window", "despeckle", "n=5", 3, 3, in9, all5);
    }
}

static void test_edge(void)
{
    /* 3x3 grey columns 0 | 30 | 60: centre Gx = 180, Gy = 0 -> E = 60.
     * maxv = 60 (frame included) -> v*255/60: 0 -> 0, 30 -> 127, 60 -> 255 */
    static const int in[9] = {0, 30, 60, 0, 30, 60, 0, 30, 60};
    static const int ex[9] = {0, 127, 255, 0, 255, 255, 0, 127, 255};
    /* a bright frame pixel makes maxv = 255: no stretch at all (xv quirk). Centre:
     * Gx = 180 - 255 = -75, Gy = (0+30+60) - (255+30+60) = -255 -> E = 85 */
    static const int inb[9] = {255, 30, 60, 0, 30, 60, 0, 30, 60};
    static const int exb[9] = {255, 30, 60, 0, 85, 60, 0, 30, 60};
    /* frame=black: frame 0, centre 85 = maxv -> 255 */
    static const int exk[9] = {0, 0, 0, 0, 255, 0, 0, 0, 0};
    expect_grey("edge-detect maxv from frame+interior", "edge-detect", "", 3, 3, in, ex);
    expect_grey("edge-detect bright frame cancels stretch", "edge-detect", "frame=xv", 3, 3, inb, exb);
    expect_grey("edge-detect frame=black", "edge-detect", "frame=black", 3, 3, inb, exk);
    /* 1x1 colour pixel (all frame): MONO(100,10,10) = 40; R = 100*255/40 = 637 -> 255,
     * G = B = 10*255/40 = 63 */
    {
        uint8_t s[3] = {100, 10, 10}, e[3] = {255, 63, 63}, z[3] = {0, 0, 0};
        expect_filter("edge-detect channel above maxv clamps", "edge-detect", "", s, 1, 1, 0, 0, 1, 1, e);
        expect_filter("edge-detect black 1x1", "edge-detect", "frame=black", s, 1, 1, 0, 0, 1, 1, z);
        s[0] = 1; s[1] = 1; s[2] = 1; /* maxv = 1: every non-zero channel saturates */
        e[0] = 255; e[1] = 255; e[2] = 255;
        expect_filter("edge-detect maxv 1", "edge-detect", "", s, 1, 1, 0, 0, 1, 1, e);
    }
    /* all black: maxv = 0 -> nothing rescaled */
    {
        static const int zero[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
        expect_grey("edge-detect maxv 0", "edge-detect", "", 3, 3, zero, zero);
    }
}

static void test_emboss(void)
{
    /* 3x3 grey, only the centre pixel is interior; frame becomes 128 */
    static const int a[9] = {0, 0, 0, 0, 0, 0, 0, 0, 3};  /* S = 2*3 = 6 -> 0 */
    static const int b[9] = {4, 0, 0, 0, 0, 0, 0, 0, 0};  /* S = -8 -> -1 */
    static const int c[9] = {3, 1, 0, 0, 0, 0, 0, 0, 0};  /* S = -6 - 1 = -7 */
    static const int d[9] = {0, 0, 0, 0, 0, 0, 0, 0, 255}; /* S = 510 -> 63 */
    static const int e128[9] = {128, 128, 128, 128, 128, 128, 128, 128, 128};
    static const int e127[9] = {128, 128, 128, 128, 127, 128, 128, 128, 128};
    static const int e191[9] = {128, 128, 128, 128, 191, 128, 128, 128, 128};
    expect_grey("emboss dead zone S=6", "emboss", "", 3, 3, a, e128);
    expect_grey("emboss S=-8", "emboss", "", 3, 3, b, e127);
    expect_grey("emboss dead zone S=-7 (xv: toward zero)", "emboss", "rounding=xv", 3, 3, c, e128);
    expect_grey("emboss S=-7 floor", "emboss", "rounding=floor", 3, 3, c, e127);
    expect_grey("emboss S=6 floor", "emboss", "rounding=floor", 3, 3, a, e128);
    expect_grey("emboss S=510", "emboss", "", 3, 3, d, e191);
    /* colour: S_R = 80 -> 138, S_G = 0 -> 128, S_B = -80 -> 118; MONO = 4156 >> 5 = 129 */
    {
        uint8_t s[27], e[27];
        int i;
        memset(s, 0, sizeof(s));
        s[24] = 40;            /* (2,2) = (40,0,0) */
        s[2] = 40;             /* (0,0) = (0,0,40) */
        for (i = 0; i < 27; i++)
            e[i] = 128;
        e[12] = e[13] = e[14] = 129;
        expect_filter("emboss colour -> MONO grey", "emboss", "", s, 3, 3, 0, 0, 3, 3, e);
    }
    /* thin regions: all frame -> 128 */
    {
        static const int row[4] = {1, 200, 3, 90};
        static const int out[4] = {128, 128, 128, 128};
        expect_grey("emboss 4x1 all frame", "emboss", "", 4, 1, row, out);
    }
}

static void test_oil(void)
{
    /* 6x6 image of distinct colours: xv window 4x4 at -2..+1 -> translation by (+2,+2),
     * clamped toward the region at the top/left */
    {
        uint8_t s[6 * 6 * 3], e[6 * 6 * 3];
        int x, y;
        for (y = 0; y < 6; y++)
            for (x = 0; x < 6; x++) {
                uint8_t *p = s + 3 * (y * 6 + x);
                p[0] = (uint8_t)(x * 40);
                p[1] = (uint8_t)(y * 40);
                p[2] = (uint8_t)(x * 7 + y);
            }
        for (y = 0; y < 6; y++)
            for (x = 0; x < 6; x++) {
                int sx = x - 2 < 0 ? 0 : x - 2, sy = y - 2 < 0 ? 0 : y - 2;
                memcpy(e + 3 * (y * 6 + x), s + 3 * (sy * 6 + sx), 3);
            }
        expect_filter("oil-paint distinct colours -> (+2,+2) translation", "oil-paint", "", s, 6,
                      6, 0, 0, 6, 6, e);
        expect_filter("oil-paint n=4 == n=3", "oil-paint", "n=4", s, 6, 6, 0, 0, 6, 6, e);
    }
    /* ties: row A B B A C (1 pixel high)
     * xv (cols x-2..x+1): x0 {A,B} -> A; x1 {A,B,B} -> B; x2 {A,B,B,A} tie -> A (first);
     * x3 {B,B,A,C} -> B; x4 {B,A,C} distinct -> B.  centred n=3 (x-1..x+1): A B B B A */
    {
        static const int row[5] = {10, 20, 20, 10, 30};
        static const int xv[5] = {10, 20, 10, 20, 20};
        static const int cen[5] = {10, 20, 20, 20, 10};
        expect_grey("oil-paint tie -> first occurrence", "oil-paint", "", 5, 1, row, xv);
        expect_grey("oil-paint centred", "oil-paint", "window=centred", 5, 1, row, cen);
        expect_grey("oil-paint centred n=1 identity", "oil-paint", "n=1 window=centred", 5, 1, row, row);
    }
    /* majority beats first occurrence: column (1 wide) A B B C D with n=3 xv (rows y-2..y+1):
     * y0 {A,B} -> A; y1 {A,B,B} -> B; y2 {A,B,B,C} -> B; y3 {B,B,C,D} -> B; y4 {B,C,D} -> B */
    {
        static const int col[5] = {1, 2, 2, 3, 4};
        static const int ex[5] = {1, 2, 2, 2, 2};
        expect_grey("oil-paint majority (vertical)", "oil-paint", "", 1, 5, col, ex);
    }
}

static void test_pixelize(void)
{
    /* 10 wide, block 4: nw = 3, excess 2 -> one column overhangs on each side:
     * blocks cover 0..2 (3 px), 3..6 (4 px), 7..9 (3 px) */
    static const int row[10] = {0, 10, 20, 30, 40, 50, 60, 70, 80, 90};
    static const int ex[10] = {10, 10, 10, 45, 45, 45, 45, 80, 80, 80};
    /* 1x5, block 1x4: nh = 2, excess 3 -> top overhang 1 (floor), bottom 2 (ceiling):
     * rows 0..2 -> 10, rows 3..4 -> 35 */
    static const int col[5] = {0, 10, 20, 30, 40};
    static const int exc[5] = {10, 10, 10, 35, 35};
    static const int exc2[5] = {5, 5, 25, 25, 40}; /* block 1x2: excess 1 -> bottom only */
    expect_grey("pixelize centred grid, partial blocks both sides", "pixelize", "", 10, 1, row, ex);
    expect_grey("pixelize vertical partial blocks", "pixelize", "block=1x4", 1, 5, col, exc);
    expect_grey("pixelize excess 1 goes to the bottom", "pixelize", "block=1X2", 1, 5, col, exc2);
    /* region (2,0,10,1) in a 14x1 image: the grid is centred on the region, not the image */
    {
        static const int r14[14] = {200, 200, 0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 200, 200};
        static const int e14[14] = {200, 200, 10, 10, 10, 45, 45, 45, 45, 80, 80, 80, 200, 200};
        uint8_t *s = grey_image(14, 1, r14), *e = grey_image(14, 1, e14);
        expect_filter("pixelize region offset", "pixelize", "block=4", s, 14, 1, 2, 0, 10, 1, e);
        free(s);
        free(e);
    }
    /* huge block: one block = the region mean (floor) */
    {
        static const int e10[10] = {45, 45, 45, 45, 45, 45, 45, 45, 45, 45};
        expect_grey("pixelize block=65535", "pixelize", "block=65535", 10, 1, row, e10);
        expect_grey("pixelize block=1 identity", "pixelize", "block=1", 10, 1, row, row);
    }
}

static int hist_equal(const uint8_t *a, const uint8_t *b, size_t npx)
{
    /* compare multisets of 24-bit colours by sorting keys */
    uint32_t *ka = (uint32_t *)malloc(npx * sizeof(uint32_t));
    uint32_t *kb = (uint32_t *)malloc(npx * sizeof(uint32_t));
    size_t i, j;
    int eq = 1;
    for (i = 0; i < npx; i++) {
        ka[i] = ((uint32_t)a[3 * i] << 16) | ((uint32_t)a[3 * i + 1] << 8) | a[3 * i + 2];
        kb[i] = ((uint32_t)b[3 * i] << 16) | ((uint32_t)b[3 * i + 1] << 8) | b[3 * i + 2];
    }
    /* simple counting on a 24-bit space would be 64 MB; insertion-sort small arrays instead */
    for (i = 1; i < npx; i++) {
        uint32_t t = ka[i], u = kb[i];
        for (j = i; j > 0 && ka[j - 1] > t; j--)
            ka[j] = ka[j - 1];
        ka[j] = t;
        for (j = i; j > 0 && kb[j - 1] > u; j--)
            kb[j] = kb[j - 1];
        kb[j] = u;
    }
    for (i = 0; i < npx; i++)
        if (ka[i] != kb[i])
            eq = 0;
    free(ka);
    free(kb);
    return eq;
}

static void test_spread(void)
{
    /* 2x1 box 1x0, seed 1: x=0: R1 = 1804289383 (odd) -> x1 = 1, swap; x=1: R1 = 1681692777
     * (odd) -> x1 = 1, self-swap. */
    {
        static const int in[2] = {10, 20};
        static const int ex[2] = {20, 10};
        expect_grey("spread 2x1 box hand trace", "spread", "distance=1x0 seed=1", 2, 1, in, ex);
        expect_grey("spread 2x1 diamond hand trace", "spread", "distance=1", 2, 1, in, ex);
    }
    /* traces computed with an independent script written from spec 2.8 (pixel = index) */
    {
        static const int in9[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
        static const int d1[9] = {3, 1, 5, 4, 2, 0, 6, 7, 8};
        static const int in12[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
        static const int box12[12] = {1, 6, 9, 7, 4, 2, 3, 0, 8, 5, 10, 11};
        static const int box01[12] = {4, 1, 2, 7, 0, 5, 10, 11, 8, 9, 6, 3};
        static const int in20[20] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19};
        static const int dreg[20] = {0, 1, 2, 3, 4, 5, 8, 12, 16, 9, 10, 17, 6, 11, 14, 15, 18, 13, 7, 19};
        uint8_t *s, *e;
        expect_grey("spread 3x3 diamond d=1 seed 1", "spread", "distance=1 seed=1", 3, 3, in9, d1);
        expect_grey("spread 4x3 box 1x2 seed 7", "spread", "distance=1x2 seed=7", 4, 3, in12, box12);
        expect_grey("spread 4x3 box 0x1 seed 3 (two draws even for a zero range)", "spread",
                    "distance=0x1 seed=3", 4, 3, in12, box01);
        s = grey_image(5, 4, in20);
        e = grey_image(5, 4, dreg);
        expect_filter("spread diamond 2 in region (1,1,3,3) seed 99", "spread",
                      "distance=2 seed=99", s, 5, 4, 1, 1, 3, 3, e);
        free(s);
        free(e);
    }
    /* 0 and 0x0 do nothing; histogram preserved; seed-from-clock runs */
    {
        trng g = {777};
        const int w = 23, h = 17;
        uint8_t s[23 * 17 * 3], o[23 * 17 * 3];
        char err[256];
        const char *modes[] = {"distance=0", "distance=0x0", "", "distance=3x1 seed=5",
                               "distance=40 seed=2147483647", "seed-from-clock=true",
                               "distance=65535", "distance=0x65535"};
        int m, impl;
        for (m = 0; m < 5; m++) {
            trng_image(&g, s, w, h);
            for (impl = 0; impl <= 1; impl++) {
                int rc = mj_apply("spread", "distance=0", impl, s, o, w, h, 0, 0, w, h, err, sizeof(err));
                check(rc == MJ_OK && memcmp(s, o, sizeof(s)) == 0, "spread 0 no-op");
                rc = mj_apply("spread", "distance=0x0", impl, s, o, w, h, 0, 0, w, h, err, sizeof(err));
                check(rc == MJ_OK && memcmp(s, o, sizeof(s)) == 0, "spread 0x0 no-op");
            }
        }
        for (m = 2; m < (int)(sizeof(modes) / sizeof(modes[0])); m++) {
            for (impl = 0; impl <= 1; impl++) {
                int rc;
                trng_image(&g, s, w, h);
                rc = mj_apply("spread", modes[m], impl, s, o, w, h, 0, 0, w, h, err, sizeof(err));
                check(rc == MJ_OK && hist_equal(s, o, (size_t)w * h),
                      "spread \"%s\" preserves the histogram", modes[m]);
            }
        }
    }
}

/* ---- randomized straightforward == optimized == vectorized ------------------------------- */

static void self_check(long iterations, uint64_t seed)
{
    trng g;
    long it;
    long per_filter_fail[MJ_FILTER_COUNT] = {0};
    g.s = seed;
    for (it = 0; it < iterations; it++) {
        int f;
        for (f = 0; f < MJ_FILTER_COUNT; f++) {
            int w, h, reg[4], rc0, rc1, rc2, maxdim, x, y, outside_ok = 1;
            size_t n;
            uint8_t *src, *a, *b, *c;
            char params[128], err[256];
            const char *fid = mj_filter_id((mj_filter)f);
            mj_region cr;
            int sizeclass = trng_range(&g, 0, 9);
            if (sizeclass == 0) {
                w = trng_range(&g, 1, 2);
                h = trng_range(&g, 1, 40);
            } else if (sizeclass == 1) {
                w = trng_range(&g, 1, 40);
                h = trng_range(&g, 1, 2);
            } else if (sizeclass == 2) {
                w = trng_range(&g, 1, 4);
                h = trng_range(&g, 1, 4);
            } else if (sizeclass == 3) {
                w = trng_range(&g, 60, 130);
                h = trng_range(&g, 3, 12);
            } else {
                w = trng_range(&g, 3, 40);
                h = trng_range(&g, 3, 40);
            }
            maxdim = w > h ? w : h;
            n = (size_t)w * (size_t)h * 3u;
            src = (uint8_t *)malloc(n);
            a = (uint8_t *)malloc(n);
            b = (uint8_t *)malloc(n);
            c = (uint8_t *)malloc(n);
            trng_image(&g, src, w, h);
            trng_params(&g, f, maxdim, params, sizeof(params));
            trng_region(&g, w, h, reg);
            rc0 = mj_apply(fid, params, 0, src, a, w, h, reg[0], reg[1], reg[2], reg[3], err, sizeof(err));
            rc1 = mj_apply(fid, params, 1, src, b, w, h, reg[0], reg[1], reg[2], reg[3], err, sizeof(err));
            rc2 = mj_apply(fid, params, 2, src, c, w, h, reg[0], reg[1], reg[2], reg[3], err, sizeof(err));
            if (mj_clip_region(w, h, reg[0], reg[1], reg[2], reg[3], &cr)) {
                for (y = 0; y < h; y++)
                    for (x = 0; x < w; x++)
                        if (!(x >= cr.x && x < cr.x + cr.w && y >= cr.y && y < cr.y + cr.h) &&
                            (memcmp(a + 3 * ((size_t)y * w + x), src + 3 * ((size_t)y * w + x), 3) != 0 ||
                             memcmp(b + 3 * ((size_t)y * w + x), src + 3 * ((size_t)y * w + x), 3) != 0))
                            outside_ok = 0;
            } else {
                outside_ok = memcmp(a, src, n) == 0 && memcmp(b, src, n) == 0;
            }
            if (rc0 != MJ_OK || rc1 != MJ_OK || rc2 != MJ_OK || memcmp(a, b, n) != 0 || memcmp(a, c, n) != 0
                || !outside_ok) {
                size_t k = 0, kv = 0;
                while (k < n && a[k] == b[k])
                    k++;
                while (kv < n && a[kv] == c[kv])
                    kv++;
                per_filter_fail[f]++;
                if (per_filter_fail[f] <= 5)
                    printf("FAIL: self-check [%s] %s \"%s\" image %dx%d region %d %d %d %d: rc %d/%d/%d, "
                           "outside %s, first optimized difference at pixel %zu (%d vs %d), first vectorized "
                           "difference at pixel %zu (%d vs %d)\n",
                           mj_simd_level(), fid, params, w, h, reg[0], reg[1], reg[2], reg[3], rc0, rc1, rc2,
                           outside_ok ? "ok" : "CHANGED", k / 3, k < n ? a[k] : -1, k < n ? b[k] : -1,
                           kv / 3, kv < n ? a[kv] : -1, kv < n ? c[kv] : -1);
                g_failed++;
            } else {
                g_passed++;
            }
            free(src);
            free(a);
            free(b);
            free(c);
        }
    }
}

/* Wide, short images: several vectors per row, tails of every length and large windows for the vectorized kernels
 * (self_check's images are narrower). vectorized == straightforward, regions included. */
static void wide_check(long iterations, uint64_t seed)
{
    trng g;
    long it;
    g.s = seed;
    for (it = 0; it < iterations; it++) {
        int f;
        for (f = 0; f < MJ_FILTER_COUNT; f++) {
            const int w = trng_range(&g, 100, 700), h = trng_range(&g, 1, 9);
            const size_t n = (size_t)w * (size_t)h * 3u;
            uint8_t *src = (uint8_t *)malloc(n), *a = (uint8_t *)malloc(n), *c = (uint8_t *)malloc(n);
            char params[128], err[256];
            const char *fid = mj_filter_id((mj_filter)f);
            int reg[4], rc0, rc2;
            trng_image(&g, src, w, h);
            trng_params(&g, f, w, params, sizeof(params));
            trng_region(&g, w, h, reg);
            rc2 = mj_apply(fid, params, 2, src, c, w, h, reg[0], reg[1], reg[2], reg[3], err, sizeof(err));
            {
                size_t k = 0;
                rc0 = mj_apply(fid, params, 0, src, a, w, h, reg[0], reg[1], reg[2], reg[3], err, sizeof(err));
                while (k < n && a[k] == c[k])
                    k++;
                check(rc0 == MJ_OK && rc2 == MJ_OK && k == n, "wide [%s] %s \"%s\" %dx%d region %d %d %d %d: "
                      "rc %d/%d, first difference at pixel %zu", mj_simd_level(), fid, params, w, h, reg[0], reg[1],
                      reg[2], reg[3], rc0, rc2, k / 3);
            }
            free(src);
            free(a);
            free(c);
        }
    }
}

/* 1x1 images, thin images and in-place (src == dst) use of mj_apply */
static void test_shapes(void)
{
    static const char *const params[MJ_FILTER_COUNT][3] = {
        {"", "n=255", "n=5"}, {"", "p=0", "p=99"}, {"", "n=255", "n=5"},
        {"", "frame=black", "frame=xv"}, {"", "rounding=floor", ""},
        {"", "n=31", "window=centred n=31"}, {"", "block=65535", "block=1x3"},
        {"", "distance=65535", "distance=2x65535 seed=9"}};
    static const int dims[][2] = {{1, 1}, {1, 2}, {2, 1}, {2, 2}, {1, 3000}, {3000, 1}, {2, 700}, {700, 2}, {3, 3}};
    trng g = {4242};
    int f, d, k;
    for (f = 0; f < MJ_FILTER_COUNT; f++) {
        for (d = 0; d < (int)(sizeof(dims) / sizeof(dims[0])); d++) {
            for (k = 0; k < 3; k++) {
                const int w = dims[d][0], h = dims[d][1];
                const size_t n = (size_t)w * h * 3u;
                uint8_t *s = (uint8_t *)malloc(n), *a = (uint8_t *)malloc(n), *b = (uint8_t *)malloc(n);
                char err[256];
                int rc0, rc1, rc2, rc3;
                if ((f == MJ_DESPECKLE || f == MJ_OIL_PAINT) && k > 0 && (w > 3 || h > 3) &&
                    (w > 700 || h > 700))
                    k = 2; /* keep the straightforward large-window cost bounded */
                trng_image(&g, s, w, h);
                rc0 = mj_apply(mj_filter_id((mj_filter)f), params[f][k], 0, s, a, w, h, 0, 0, w, h, err, sizeof(err));
                rc1 = mj_apply(mj_filter_id((mj_filter)f), params[f][k], 1, s, b, w, h, 0, 0, w, h, err, sizeof(err));
                check(rc0 == MJ_OK && rc1 == MJ_OK && memcmp(a, b, n) == 0,
                      "shape %dx%d %s \"%s\": straightforward == optimized", w, h,
                      mj_filter_id((mj_filter)f), params[f][k]);
                rc3 = mj_apply(mj_filter_id((mj_filter)f), params[f][k], 2, s, a, w, h, 0, 0, w, h, err, sizeof(err));
                check(rc3 == MJ_OK && memcmp(a, b, n) == 0,
                      "shape %dx%d %s \"%s\": straightforward == vectorized [%s]", w, h,
                      mj_filter_id((mj_filter)f), params[f][k], mj_simd_level());
                /* in place: src == dst gives the same result */
                memcpy(a, s, n);
                rc2 = mj_apply(mj_filter_id((mj_filter)f), params[f][k], 1, a, a, w, h, 0, 0, w, h, err, sizeof(err));
                check(rc2 == MJ_OK && memcmp(a, b, n) == 0, "in-place %dx%d %s \"%s\"", w, h,
                      mj_filter_id((mj_filter)f), params[f][k]);
                free(s);
                free(a);
                free(b);
            }
        }
    }
}

int main(int argc, char **argv)
{
    long iterations = 1000;
    unsigned long long seed = 20240601ull;
    int i;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--iterations") == 0 && i + 1 < argc)
            iterations = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: unit_test [--iterations N] [--seed S]\n");
            return 2;
        }
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    test_xvr();
    test_div24();
    test_params();
    test_regions();
    test_blur();
    test_sharpen();
    test_despeckle();
    test_edge();
    test_emboss();
    test_oil();
    test_pixelize();
    test_spread();
    test_shapes();
    self_check(iterations, seed);
    wide_check(iterations / 10 + 1, seed + 1);
    printf("%ld passed, %ld failed (vectorized code path: %s)\n", g_passed, g_failed, mj_simd_level());
    return g_failed == 0 ? 0 : 1;
}
