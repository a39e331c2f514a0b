/*
 * gray16_test [--iterations N] [--seed S]
 * The 16-bit grey ports (docs/xv-filters-16bit.md): hand-computed cases for the decisions where
 * 8-bit does not carry over literally, the entry point's errors, the 8-bit grey identity
 * (unsigned 8-bit grey == the 8-bit filter on r = g = b), and a randomized self-check that the
 * straightforward and optimized ports agree word for word on every format. Closes with
 * "N passed, N failed".
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "medjava_filters.h"
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

static mj_gray_format F(int bits, int is_signed)
{
    mj_gray_format f;
    f.bits_stored = bits;
    f.is_signed = is_signed;
    return f;
}

static int value_of(uint16_t w, mj_gray_format f)
{
    return f.is_signed ? (int)(int16_t)w : (int)w;
}


static const char *const IMPL_NAMES[3] = {"straightforward", "optimized", "vectorized"};

/* runs filter on values v (w x h, whole image) with the three implementations; expects e */
static void expect(const char *name, const char *filter, const char *params, mj_gray_format f,
                   int w, int h, const int *v, const int *e)
{
    int impl, i, n = w * h;
    uint16_t *src = (uint16_t *)malloc((size_t)n * sizeof(uint16_t));
    uint16_t *dst = (uint16_t *)malloc((size_t)n * sizeof(uint16_t));
    char err[256];
    for (i = 0; i < n; i++)
        src[i] = (uint16_t)(unsigned)v[i];
    for (impl = 0; impl <= 2; impl++) {
        int rc = mj_apply_gray16(filter, params, impl, src, dst, w, h, f, 0, 0, w, h, err, sizeof(err));
        int ok = rc == MJ_OK;
        for (i = 0; ok && i < n; i++)
            ok = value_of(dst[i], f) == e[i];
        check(ok, "%s [%s]: rc %d, first value %d (expected %d) %s", name, IMPL_NAMES[impl],
              rc, rc == MJ_OK ? value_of(dst[0], f) : 0, e[0], rc == MJ_OK ? "" : err);
        if (!ok && rc == MJ_OK)
            for (i = 0; i < n; i++)
                printf("    [%d] %d expected %d\n", i, value_of(dst[i], f), e[i]);
    }
    free(src);
    free(dst);
}

static void test_decisions(void)
{
    /* blur: signed means floor toward -inf */
    { int v[] = {-3, -2}, e[] = {-3, -3};
      expect("blur signed floor", "blur", "", F(16, 1), 2, 1, v, e); }
    { int v[] = {0, 0, 0, 0, 65535, 0, 0, 0, 0}, e[] = {16383, 10922, 16383, 10922, 7281, 10922, 16383, 10922, 16383};
      expect("blur counts at the top of the range", "blur", "", F(16, 0), 3, 3, v, e); }
    /* sharpen: V = u / R; D2 clamp to the format's range */
    { int v[] = {1000, 1000, 1000, 1000, 2000, 1000, 1000, 1000, 1000},
          e[] = {1000, 1000, 1000, 1000, 2889, 1000, 1000, 1000, 1000};
      expect("sharpen u/R", "sharpen", "p=50", F(12, 0), 3, 3, v, e); }
    { int v[] = {32767, 32767, 32767, 32767, -32000, 32767, 32767, 32767, 32767},
          e[] = {32767, 32767, 32767, 32767, -32768, 32767, 32767, 32767, 32767};
      expect("sharpen clamp to min", "sharpen", "", F(16, 1), 3, 3, v, e); }
    /* despeckle D3: even count floors toward -inf on signed values */
    { int v[] = {-3, -2, -2, -3}, e[] = {-3, -3, -3, -3};
      expect("despeckle even signed", "despeckle", "", F(16, 1), 2, 2, v, e);
      expect("despeckle even signed n=5", "despeckle", "n=5", F(16, 1), 2, 2, v, e); }
    { int v[] = {65535, 65534, 0, 65535}, e[] = {65534, 65534, 65534, 65534};
      expect("despeckle even sum beyond 16 bits", "despeckle", "", F(16, 0), 2, 2, v, e); }
    /* edge detect D4 (no edge = min) and D5 (stretch by R / maxv in 64 bits) */
    { int v[16] = {0}, e[] = {32767, 32767, 32767, 32767, 32767, -32768, -32768, 32767,
                              32767, -32768, -32768, 32767, 32767, 32767, 32767, 32767};
      expect("edge-detect no edge is min", "edge-detect", "", F(16, 1), 4, 4, v, e); }
    { int v[] = {0, 7, 30, 0, 7, 30, 0, 7, 30}, e[] = {0, 0, 0, 0, 4095, 0, 0, 0, 0};
      expect("edge-detect stretch to R", "edge-detect", "frame=black", F(12, 0), 3, 3, v, e); }
    { int v[] = {65533, 65534}, e[] = {65533, 65535};
      expect("edge-detect 64-bit stretch", "edge-detect", "", F(16, 0), 2, 1, v, e); }
    /* emboss D6: mid-grey 2^(b-1) unsigned, 0 signed; extremes reach the ends */
    { int v[] = {5, 5, 5, 5, 5, 5, 5, 5, 5}, e[] = {2048, 2048, 2048, 2048, 2048, 2048, 2048, 2048, 2048};
      expect("emboss mid unsigned 12", "emboss", "", F(12, 0), 3, 3, v, e); }
    { int lo = -32768, hi = 32767;
      int v[] = {lo, lo, lo, lo, lo, hi, lo, hi, hi}, e[] = {0, 0, 0, 0, 32767, 0, 0, 0, 0};
      int d[] = {hi, hi, hi, hi, hi, lo, hi, lo, lo}, ex[] = {0, 0, 0, 0, -32767, 0, 0, 0, 0},
          ef[] = {0, 0, 0, 0, -32768, 0, 0, 0, 0};
      expect("emboss up signed", "emboss", "", F(16, 1), 3, 3, v, e);
      expect("emboss down signed xv", "emboss", "", F(16, 1), 3, 3, d, ex);
      expect("emboss down signed floor", "emboss", "rounding=floor", F(16, 1), 3, 3, d, ef); }
    /* oil paint D7: ties to the first occurrence (every window of n=1 -> 2x2 starts with the top-left) */
    { int v[] = {-32768, 32767, 32767, -32768}, e[] = {-32768, -32768, -32768, -32768};
      expect("oil-paint tie", "oil-paint", "n=1", F(16, 1), 2, 2, v, e); }
    /* pixelize: signed block means floor */
    { int v[] = {-3, -2, 2047, -2048, 5}, e[] = {-3, -3, -1, -1, 5};
      expect("pixelize signed floor", "pixelize", "block=2x1", F(12, 1), 5, 1, v, e); }
}

static void test_errors(void)
{
    uint16_t img[4] = {0, 1, 4096, 3}, out[4];
    char err[256];
    int rc = mj_apply_gray16("blur", "", 0, img, out, 2, 2, F(12, 0), 0, 0, 2, 2, err, sizeof(err));
    check(rc == MJ_ERR_ARG && strcmp(err, "blur: grey value 4096 at (0,1) is outside the 12-bit unsigned "
                                     "range 0..4095") == 0, "value out of range: %d %s", rc, err);
    rc = mj_apply_gray16("blur", "", 0, img, out, 2, 2, F(17, 0), 0, 0, 2, 2, err, sizeof(err));
    check(rc == MJ_ERR_ARG && strcmp(err, "blur: bits stored must be an integer from 1 to 16, got 17") == 0,
          "bits 17: %d %s", rc, err);
    rc = mj_apply_gray16("blur", "n=4", 0, img, out, 2, 2, F(16, 0), 0, 0, 2, 2, err, sizeof(err));
    check(rc == MJ_ERR_PARAM && strstr(err, "n must be an odd integer") != NULL, "n=4: %d %s", rc, err);
    img[2] = 0xF800; /* -2048 */
    rc = mj_apply_gray16("blur", "", 0, img, out, 2, 2, F(12, 1), 0, 0, 2, 2, err, sizeof(err));
    check(rc == MJ_OK, "signed -2048 is in range: %d %s", rc, err);
    check(mj_gray_min(F(12, 1)) == -2048 && mj_gray_max(F(12, 1)) == 2047 && mj_gray_max(F(16, 0)) == 65535,
          "format range");
}

/* random offset values of one of several kinds */
static void random_gray(trng *g, uint16_t *w, int n, mj_gray_format f)
{
    const int range = (int)((1u << f.bits_stored) - 1u), min = mj_gray_min(f);
    const int kind = trng_range(g, 0, 4), level = trng_range(g, 0, range);
    int i;
    for (i = 0; i < n; i++) {
        int u;
        switch (kind) {
        case 0: u = trng_range(g, 0, range); break;
        case 1: u = trng_range(g, 0, 1) ? range - trng_range(g, 0, range < 2 ? range : 2) : trng_range(g, 0, range < 2 ? range : 2); break;
        case 2: u = (int)((long)range * trng_range(g, 0, 3) / 3); break;
        case 3: u = level; break;
        default: u = trng_range(g, 0, range < 40 ? range : 40); break;
        }
        w[i] = (uint16_t)(unsigned)(u + min);
    }
}

static void self_check(long iterations, uint64_t seed)
{
    static const int common[] = {16, 16, 12, 12, 8, 10, 15};
    trng g;
    long it, per_filter_fail[MJ_FILTER_COUNT] = {0};
    g.s = seed;
    for (it = 0; it < iterations; it++) {
        int f;
        for (f = 0; f < MJ_FILTER_COUNT; f++) {
            /* now and then wider than two AVX-512 vectors of words, for the vector loops and their tails */
            int w = trng_range(&g, 0, 3) == 0 ? trng_range(&g, 41, 150) : trng_range(&g, 1, 40);
            int h = trng_range(&g, 1, 30), reg[4], rc0, rc1, rc2;
            int bits = trng_range(&g, 0, 4) == 0 ? trng_range(&g, 1, 16) : common[trng_range(&g, 0, 6)];
            mj_gray_format fmt = F(bits, trng_range(&g, 0, 1));
            size_t n = (size_t)w * (size_t)h;
            uint16_t *src = (uint16_t *)malloc(n * 2), *a = (uint16_t *)malloc(n * 2), *b = (uint16_t *)malloc(n * 2);
            uint16_t *c = (uint16_t *)malloc(n * 2);
            char params[128], err[256];
            const char *fid = mj_filter_id((mj_filter)f);
            random_gray(&g, src, (int)n, fmt);
            trng_params(&g, f, w > h ? w : h, params, sizeof(params));
            trng_region(&g, w, h, reg);
            rc0 = mj_apply_gray16(fid, params, 0, src, a, w, h, fmt, reg[0], reg[1], reg[2], reg[3], err, sizeof(err));
            rc1 = mj_apply_gray16(fid, params, 1, src, b, w, h, fmt, reg[0], reg[1], reg[2], reg[3], err, sizeof(err));
            rc2 = mj_apply_gray16(fid, params, 2, src, c, w, h, fmt, reg[0], reg[1], reg[2], reg[3], err, sizeof(err));
            if (rc0 != MJ_OK || rc1 != MJ_OK || rc2 != MJ_OK || memcmp(a, b, n * 2) != 0 || memcmp(a, c, n * 2) != 0 ||
                mj_gray_first_out_of_range(a, n, fmt) >= 0) {
                per_filter_fail[f]++;
                if (per_filter_fail[f] <= 5)
                    printf("FAIL: gray self-check [%s] %s \"%s\" %dx%d %c%d region %d %d %d %d: rc %d/%d/%d, "
                           "optimized %s, vectorized %s %s\n", mj_simd_level(), fid, params, w, h,
                           fmt.is_signed ? 's' : 'u', bits, reg[0], reg[1], reg[2], reg[3], rc0, rc1, rc2,
                           memcmp(a, b, n * 2) ? "DIFFERS" : "ok", memcmp(a, c, n * 2) ? "DIFFERS" : "ok", err);
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

/* Blur's largest windows on 16-bit words: counts n * rows up to 65025, many of whose vector divisions need 33-bit
 * multipliers (vectorized == optimized; the straightforward port would take minutes here) */
static void large_windows(void)
{
    static const int ns[] = {13, 101, 255};
    const int w = 300, h = 260;
    const size_t n = (size_t)w * h;
    uint16_t *src = (uint16_t *)malloc(n * 2), *a = (uint16_t *)malloc(n * 2), *b = (uint16_t *)malloc(n * 2);
    trng g = {99};
    char params[32], err[256];
    size_t i;
    int k, s;
    for (k = 0; k < 3; k++) {
        for (s = 0; s < 2; s++) {
            int rc1, rc2;
            for (i = 0; i < n; i++)
                src[i] = (uint16_t)(s ? trng_range(&g, 0, 65535) : 65535 - trng_range(&g, 0, 3));
            snprintf(params, sizeof(params), "n=%d", ns[k]);
            rc1 = mj_apply_gray16("blur", params, 1, src, a, w, h, F(16, 0), 0, 0, w, h, err, sizeof(err));
            rc2 = mj_apply_gray16("blur", params, 2, src, b, w, h, F(16, 0), 0, 0, w, h, err, sizeof(err));
            check(rc1 == MJ_OK && rc2 == MJ_OK && memcmp(a, b, n * 2) == 0, "blur %s u16 %dx%d [%s]: optimized == "
                  "vectorized", params, w, h, mj_simd_level());
        }
    }
    free(src);
    free(a);
    free(b);
}

/* unsigned 8-bit grey gives exactly the 8-bit filter's output on r = g = b */
static void eight_bit_identity(long iterations, uint64_t seed)
{
    trng g;
    long it;
    g.s = seed;
    for (it = 0; it < iterations; it++) {
        int f;
        for (f = 0; f < MJ_FILTER_COUNT; f++) {
            int w = trng_range(&g, 1, 30), h = trng_range(&g, 1, 20), reg[4], impl, ok = 1;
            size_t n = (size_t)w * (size_t)h, i;
            uint16_t *gs = (uint16_t *)malloc(n * 2), *gd = (uint16_t *)malloc(n * 2);
            uint8_t *rs = (uint8_t *)malloc(n * 3), *rd = (uint8_t *)malloc(n * 3);
            char params[128], err[256];
            const char *fid = mj_filter_id((mj_filter)f);
            random_gray(&g, gs, (int)n, F(8, 0));
            for (i = 0; i < n; i++)
                rs[3 * i] = rs[3 * i + 1] = rs[3 * i + 2] = (uint8_t)gs[i];
            trng_params(&g, f, w > h ? w : h, params, sizeof(params));
            trng_region(&g, w, h, reg);
            for (impl = 0; impl <= 2; impl++) {
                int rc = mj_apply(fid, params, impl, rs, rd, w, h, reg[0], reg[1], reg[2], reg[3], err, sizeof(err));
                ok = ok && rc == MJ_OK;
                mj_apply_gray16(fid, params, impl, gs, gd, w, h, F(8, 0), reg[0], reg[1], reg[2], reg[3], err,
                                sizeof(err));
                for (i = 0; i < n; i++)
                    ok = ok && gd[i] == rd[3 * i] && rd[3 * i] == rd[3 * i + 1] && rd[3 * i] == rd[3 * i + 2];
            }
            check(ok, "8-bit grey identity %s \"%s\" %dx%d", fid, params, w, h);
            free(gs);
            free(gd);
            free(rs);
            free(rd);
        }
    }
}

int main(int argc, char **argv)
{
    long iterations = 300;
    uint64_t seed = 16;
    int i;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--iterations") == 0 && i + 1 < argc)
            iterations = atol(argv[++i]);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = (uint64_t)strtoull(argv[++i], NULL, 10);
    }
    test_decisions();
    test_errors();
    self_check(iterations, seed);
    large_windows();
    eight_bit_identity(iterations / 3 + 1, seed + 1);
    printf("%ld passed, %ld failed (vectorized code path: %s)\n", g_passed, g_failed, mj_simd_level());
    return g_failed ? 1 : 0;
}
