/*
 * golden_test CASES_CSV [--testdata DIR] [--diff-dir DIR]
 *             [--impl all|both|straightforward|optimized|vectorized] [--verbose]
 * Runs every case of a cases.csv (docs/filters.md) with each implementation (default all three; both = the two
 * portable ones) and compares
 * the output with the expected PPM byte for byte. Lines with a seventh column, the grey format
 * (cases-gray16.csv: u16, s12, ...), are 16-bit grey cases on PGM files, compared word for word;
 * their mismatches leave <id>.<impl>.diff.pgm and <id>.<impl>.actual.pgm. On a mismatch, writes
 * DIFF_DIR/<id>.<impl>.diff.ppm (differing pixels red, equal pixels dimmed grey of the
 * expected) and DIFF_DIR/<id>.<impl>.actual.ppm. Closes with "N passed, N failed"
 * (case x implementation); exits 1 if anything failed, 2 on a usage error or unreadable CSV.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "medjava_filters.h"
#include "ppm.h"

static const char *IMPL_NAMES[3] = {"straightforward", "optimized", "vectorized"};

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = (char *)malloc(n);
    if (d != NULL)
        memcpy(d, s, n);
    return d;
}

static char *join_path(const char *dir, const char *rel)
{
    size_t a, b;
    char *p;
    if (rel[0] == '/' || dir == NULL || dir[0] == '\0')
        return xstrdup(rel);
    a = strlen(dir);
    b = strlen(rel);
    p = (char *)malloc(a + b + 2);
    if (p == NULL)
        return NULL;
    memcpy(p, dir, a);
    p[a] = '/';
    memcpy(p + a + 1, rel, b + 1);
    return p;
}

static char *trim(char *s)
{
    char *e;
    while (*s == ' ' || *s == '\t')
        s++;
    e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n'))
        *--e = '\0';
    return s;
}

static int mkdir_p(const char *path)
{
    char *p = xstrdup(path), *q;
    if (p == NULL)
        return -1;
    for (q = p + 1; *q; q++) {
        if (*q == '/') {
            *q = '\0';
            if (mkdir(p, 0777) != 0 && errno != EEXIST) {
                free(p);
                return -1;
            }
            *q = '/';
        }
    }
    if (mkdir(p, 0777) != 0 && errno != EEXIST) {
        free(p);
        return -1;
    }
    free(p);
    return 0;
}

static int valid_id(const char *id)
{
    if (*id == '\0')
        return 0;
    for (; *id; id++)
        if (!((*id >= 'a' && *id <= 'z') || (*id >= '0' && *id <= '9') || *id == '-'))
            return 0;
    return 1;
}

/* "x y w h" (whitespace separated integers); returns 1 ok */
static int parse_region(const char *s, int v[4])
{
    int k;
    char *end;
    for (k = 0; k < 4; k++) {
        long long x;
        while (*s == ' ' || *s == '\t')
            s++;
        if (!(*s == '-' || (*s >= '0' && *s <= '9')))
            return 0;
        errno = 0;
        x = strtoll(s, &end, 10);
        if (errno != 0 || end == s || x < INT_MIN || x > INT_MAX)
            return 0;
        if (*end != '\0' && *end != ' ' && *end != '\t')
            return 0;
        v[k] = (int)x;
        s = end;
    }
    while (*s == ' ' || *s == '\t')
        s++;
    return *s == '\0';
}

/* one-entry cache of the last input image */
typedef struct {
    char *path;
    mj_image img;
} input_cache;

static const mj_image *load_cached(input_cache *c, const char *path, char *err, size_t errlen)
{
    if (c->path != NULL && strcmp(c->path, path) == 0)
        return &c->img;
    free(c->path);
    c->path = NULL;
    mj_image_free(&c->img);
    if (ppm_read(path, &c->img, err, errlen) != 0)
        return NULL;
    c->path = xstrdup(path);
    return &c->img;
}

static void write_diff(const char *diff_dir, const char *id, const char *impl,
                       const mj_image *expected, const mj_image *actual)
{
    mj_image d;
    size_t n = mj_image_bytes(expected->width, expected->height), k;
    char *name, *path, err[512];
    d.width = expected->width;
    d.height = expected->height;
    d.pixels = (uint8_t *)malloc(n);
    name = (char *)malloc(strlen(id) + strlen(impl) + 32);
    if (d.pixels == NULL || name == NULL) {
        free(d.pixels);
        free(name);
        return;
    }
    for (k = 0; k < n; k += 3) {
        const uint8_t *e = expected->pixels + k, *a = actual->pixels + k;
        if (e[0] != a[0] || e[1] != a[1] || e[2] != a[2]) {
            d.pixels[k] = 255;
            d.pixels[k + 1] = 0;
            d.pixels[k + 2] = 0;
        } else {
            int g = 32 + ((11 * e[0] + 16 * e[1] + 5 * e[2]) >> 5) / 3; /* 32..117 */
            d.pixels[k] = d.pixels[k + 1] = d.pixels[k + 2] = (uint8_t)g;
        }
    }
    if (mkdir_p(diff_dir) != 0) {
        printf("    cannot create diff directory %s: %s\n", diff_dir, strerror(errno));
    } else {
        sprintf(name, "%s.%s.diff.ppm", id, impl);
        path = join_path(diff_dir, name);
        if (path != NULL && ppm_write_atomic(path, &d, err, sizeof(err)) == 0)
            printf("    diff image: %s\n", path);
        else
            printf("    cannot write diff image: %s\n", err);
        free(path);
        sprintf(name, "%s.%s.actual.ppm", id, impl);
        path = join_path(diff_dir, name);
        if (path != NULL && ppm_write_atomic(path, actual, err, sizeof(err)) == 0)
            printf("    actual output: %s\n", path);
        free(path);
    }
    free(d.pixels);
    free(name);
}

/* "u16", "s12": the grey format column; returns 1 ok */
static int parse_format(const char *s, mj_gray_format *fmt)
{
    char *end;
    long b;
    if (s[0] != 'u' && s[0] != 's')
        return 0;
    if (!(s[1] >= '0' && s[1] <= '9'))
        return 0;
    b = strtol(s + 1, &end, 10);
    if (*end != '\0' || b < 1 || b > 16)
        return 0;
    fmt->bits_stored = (int)b;
    fmt->is_signed = s[0] == 's';
    return 1;
}

static void write_gray_diff(const char *diff_dir, const char *id, const char *impl,
                            const mj_gray_image *expected, const mj_gray_image *actual)
{
    mj_gray_image d;
    size_t n = (size_t)expected->width * (size_t)expected->height, k;
    char *name, *path, err[512];
    const int min = mj_gray_min(expected->fmt), range = mj_gray_max(expected->fmt) - min;
    d.width = expected->width;
    d.height = expected->height;
    d.fmt.bits_stored = 16;
    d.fmt.is_signed = 0;
    d.words = (uint16_t *)malloc(n * sizeof(uint16_t));
    name = (char *)malloc(strlen(id) + strlen(impl) + 32);
    if (d.words == NULL || name == NULL) {
        free(d.words);
        free(name);
        return;
    }
    for (k = 0; k < n; k++) {
        unsigned u = (uint16_t)((unsigned)expected->words[k] - (unsigned)min);
        d.words[k] = expected->words[k] != actual->words[k]
                         ? 0xFFFF : (uint16_t)((unsigned long)u * 0x7FFFu / (unsigned long)(range > 0 ? range : 1));
    }
    if (mkdir_p(diff_dir) != 0) {
        printf("    cannot create diff directory %s: %s\n", diff_dir, strerror(errno));
    } else {
        sprintf(name, "%s.%s.diff.pgm", id, impl);
        path = join_path(diff_dir, name);
        if (path != NULL && pgm_write_atomic(path, &d, err, sizeof(err)) == 0)
            printf("    diff image: %s\n", path);
        free(path);
        sprintf(name, "%s.%s.actual.pgm", id, impl);
        path = join_path(diff_dir, name);
        if (path != NULL && pgm_write_atomic(path, actual, err, sizeof(err)) == 0)
            printf("    actual output: %s\n", path);
        free(path);
    }
    free(d.words);
    free(name);
}

/* one grey case, each implementation asked for; adds to *passed / *failed */
static void run_gray_case(char **col, const char *case_error_in, int have_region, int *reg,
                          const char *in_path, const char *exp_path, int impl_from, int impl_to,
                          const char *diff_dir, int verbose, long *passed, long *failed)
{
    char err[1024];
    const char *case_error = case_error_in;
    mj_gray_format fmt = {0, 0};
    mj_gray_image in = {0, 0, {0, 0}, NULL}, expected = {0, 0, {0, 0}, NULL};
    int impl;
    if (case_error == NULL && !parse_format(col[6], &fmt)) {
        snprintf(err, sizeof(err), "invalid format \"%s\" (expected u or s and the bits stored "
                 "1..16, e.g. u16, s12)", col[6]);
        case_error = err;
    }
    if (case_error == NULL && pgm_read(in_path, fmt, &in, err, sizeof(err)) != 0)
        case_error = err;
    if (case_error == NULL && pgm_read(exp_path, fmt, &expected, err, sizeof(err)) != 0)
        case_error = err;
    if (case_error == NULL && (expected.width != in.width || expected.height != in.height)) {
        snprintf(err, sizeof(err), "expected image is %dx%d but the input is %dx%d",
                 expected.width, expected.height, in.width, in.height);
        case_error = err;
    }
    for (impl = impl_from; impl <= impl_to; impl++) {
        mj_gray_image actual;
        size_t n, k, diffs = 0, first = 0;
        int rc;
        if (case_error != NULL) {
            printf("FAIL %s [%s]: %s\n", col[0], IMPL_NAMES[impl], case_error);
            (*failed)++;
            continue;
        }
        if (!have_region) {
            reg[0] = reg[1] = 0;
            reg[2] = in.width;
            reg[3] = in.height;
        }
        n = (size_t)in.width * (size_t)in.height;
        actual.width = in.width;
        actual.height = in.height;
        actual.fmt = fmt;
        actual.words = (uint16_t *)malloc(n * sizeof(uint16_t));
        if (actual.words == NULL) {
            printf("FAIL %s [%s]: out of memory\n", col[0], IMPL_NAMES[impl]);
            (*failed)++;
            continue;
        }
        rc = mj_apply_gray16(col[1], col[2], impl, in.words, actual.words, in.width, in.height,
                             fmt, reg[0], reg[1], reg[2], reg[3], err, sizeof(err));
        if (rc != MJ_OK) {
            printf("FAIL %s [%s]: %s\n", col[0], IMPL_NAMES[impl], err);
            (*failed)++;
            mj_gray_image_free(&actual);
            continue;
        }
        for (k = 0; k < n; k++) {
            if (actual.words[k] != expected.words[k]) {
                if (diffs == 0)
                    first = k;
                diffs++;
            }
        }
        if (diffs == 0) {
            (*passed)++;
            if (verbose)
                printf("ok   %s [%s]\n", col[0], IMPL_NAMES[impl]);
        } else {
            (*failed)++;
            printf("FAIL %s [%s]: %zu of %zu pixels differ; first at (%zu,%zu): expected %d got %d\n",
                   col[0], IMPL_NAMES[impl], diffs, n, first % (size_t)in.width,
                   first / (size_t)in.width,
                   fmt.is_signed ? (int)(int16_t)expected.words[first] : (int)expected.words[first],
                   fmt.is_signed ? (int)(int16_t)actual.words[first] : (int)actual.words[first]);
            write_gray_diff(diff_dir, col[0], IMPL_NAMES[impl], &expected, &actual);
        }
        mj_gray_image_free(&actual);
    }
    mj_gray_image_free(&in);
    mj_gray_image_free(&expected);
}

int main(int argc, char **argv)
{
    const char *csv = NULL, *testdata = NULL, *diff_dir = "golden-diffs";
    char *testdata_alloc = NULL;
    int impl_from = 0, impl_to = 2, verbose = 0, i;
    long passed = 0, failed = 0, ncases = 0, lineno = 0;
    FILE *f;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    input_cache cache = {NULL, {0, 0, NULL}};
    char **ids = NULL;
    size_t nids = 0, idcap = 0;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--testdata") == 0 && i + 1 < argc) {
            testdata = argv[++i];
        } else if (strcmp(argv[i], "--diff-dir") == 0 && i + 1 < argc) {
            diff_dir = argv[++i];
        } else if (strcmp(argv[i], "--impl") == 0 && i + 1 < argc) {
            const char *v = argv[++i];
            if (strcmp(v, "all") == 0) {
                impl_from = 0; impl_to = 2;
            } else if (strcmp(v, "both") == 0) { /* the two portable ones */
                impl_from = 0; impl_to = 1;
            } else if (strcmp(v, "straightforward") == 0) {
                impl_from = impl_to = 0;
            } else if (strcmp(v, "optimized") == 0) {
                impl_from = impl_to = 1;
            } else if (strcmp(v, "vectorized") == 0) {
                impl_from = impl_to = 2;
            } else {
                fprintf(stderr, "golden_test: --impl must be all, both, straightforward, optimized or "
                        "vectorized\n");
                return 2;
            }
        } else if (strcmp(argv[i], "--verbose") == 0 || strcmp(argv[i], "-v") == 0) {
            verbose = 1;
        } else if (argv[i][0] == '-' && argv[i][1] == '-') {
            fprintf(stderr, "golden_test: unknown option %s\n", argv[i]);
            return 2;
        } else if (csv == NULL) {
            csv = argv[i];
        } else {
            fprintf(stderr, "golden_test: unexpected argument %s\n", argv[i]);
            return 2;
        }
    }
    if (csv == NULL) {
        fprintf(stderr, "usage: golden_test CASES_CSV [--testdata DIR] [--diff-dir DIR] "
                "[--impl all|both|straightforward|optimized|vectorized] [--verbose]\n");
        return 2;
    }
    if (testdata == NULL) {
        const char *slash = strrchr(csv, '/');
        if (slash == NULL) {
            testdata = ".";
        } else {
            size_t n = (size_t)(slash - csv);
            testdata_alloc = (char *)malloc(n + 2);
            if (testdata_alloc == NULL)
                return 2;
            if (n == 0) {
                strcpy(testdata_alloc, "/");
            } else {
                memcpy(testdata_alloc, csv, n);
                testdata_alloc[n] = '\0';
            }
            testdata = testdata_alloc;
        }
    }
    f = fopen(csv, "r");
    if (f == NULL) {
        fprintf(stderr, "golden_test: cannot open %s: %s\n", csv, strerror(errno));
        free(testdata_alloc);
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);

    while ((len = getline(&line, &cap, f)) >= 0) {
        char *s = trim(line), *col[7], *p;
        int ncol = 0, reg[4] = {0, 0, 0, 0}, have_region = 0, impl;
        char err[1024], *in_path = NULL, *exp_path = NULL;
        const mj_image *in;
        mj_image expected = {0, 0, NULL};
        mj_params parsed;
        const char *case_error = NULL;
        size_t k;
        (void)len;
        lineno++;
        if (*s == '\0' || *s == '#')
            continue;
        if (strcmp(s, "id,filter,params,region,input,expected") == 0 ||
            strcmp(s, "id,filter,params,region,input,expected,format") == 0)
            continue; /* header line */
        col[ncol++] = s;
        for (p = s; *p; p++) {
            if (*p == ',') {
                *p = '\0';
                if (ncol < 7)
                    col[ncol] = p + 1;
                ncol++;
            }
        }
        ncases++;
        err[0] = '\0';
        if (ncol != 6 && ncol != 7) {
            snprintf(err, sizeof(err), "line %ld: expected 6 comma-separated columns "
                     "(id,filter,params,region,input,expected), or 7 for a grey case (...,format), "
                     "found %d", lineno, ncol);
            case_error = err;
        }
        for (k = 0; k < (size_t)ncol && case_error == NULL; k++)
            col[k] = trim(col[k]);
        if (case_error == NULL && !valid_id(col[0])) {
            snprintf(err, sizeof(err), "line %ld: invalid id \"%s\" (must match [a-z0-9-]+)",
                     lineno, col[0]);
            case_error = err;
        }
        if (case_error == NULL) {
            for (k = 0; k < nids; k++)
                if (strcmp(ids[k], col[0]) == 0)
                    break;
            if (k < nids) {
                snprintf(err, sizeof(err), "line %ld: duplicate id \"%s\"", lineno, col[0]);
                case_error = err;
            } else {
                if (nids == idcap) {
                    char **n2;
                    idcap = idcap ? 2 * idcap : 64;
                    n2 = (char **)realloc(ids, idcap * sizeof(char *));
                    if (n2 == NULL) {
                        fprintf(stderr, "golden_test: out of memory\n");
                        return 2;
                    }
                    ids = n2;
                }
                ids[nids++] = xstrdup(col[0]);
            }
        }
        if (case_error == NULL &&
            mj_parse_params(col[1], col[2], &parsed, err, sizeof(err)) != MJ_OK)
            case_error = err;
        if (case_error == NULL && col[3][0] != '\0') {
            if (!parse_region(col[3], reg)) {
                snprintf(err, sizeof(err), "line %ld: invalid region \"%s\" (expected x y w h)",
                         lineno, col[3]);
                case_error = err;
            }
            have_region = 1;
        }
        if (case_error == NULL) {
            in_path = join_path(testdata, col[4]);
            exp_path = join_path(testdata, col[5]);
            if (in_path == NULL || exp_path == NULL) {
                snprintf(err, sizeof(err), "out of memory");
                case_error = err;
            }
        }
        if (ncol == 7) {
            run_gray_case(col, case_error, have_region, reg, in_path, exp_path, impl_from, impl_to,
                          diff_dir, verbose, &passed, &failed);
            free(in_path);
            free(exp_path);
            continue;
        }
        in = NULL;
        if (case_error == NULL) {
            in = load_cached(&cache, in_path, err, sizeof(err));
            if (in == NULL)
                case_error = err;
        }
        if (case_error == NULL && ppm_read(exp_path, &expected, err, sizeof(err)) != 0)
            case_error = err;
        if (case_error == NULL &&
            (expected.width != in->width || expected.height != in->height)) {
            snprintf(err, sizeof(err), "expected image is %dx%d but the input is %dx%d",
                     expected.width, expected.height, in->width, in->height);
            case_error = err;
        }
        for (impl = impl_from; impl <= impl_to; impl++) {
            mj_image actual;
            size_t nbytes, diffs = 0, first = 0;
            int rc;
            if (case_error != NULL) {
                printf("FAIL %s [%s]: %s\n", ncol >= 1 ? col[0] : "?", IMPL_NAMES[impl],
                       case_error);
                failed++;
                continue;
            }
            if (!have_region) {
                reg[0] = reg[1] = 0;
                reg[2] = in->width;
                reg[3] = in->height;
            }
            nbytes = mj_image_bytes(in->width, in->height);
            actual.width = in->width;
            actual.height = in->height;
            actual.pixels = (uint8_t *)malloc(nbytes);
            if (actual.pixels == NULL) {
                printf("FAIL %s [%s]: out of memory\n", col[0], IMPL_NAMES[impl]);
                failed++;
                continue;
            }
            rc = mj_apply(col[1], col[2], impl, in->pixels, actual.pixels, in->width,
                          in->height, reg[0], reg[1], reg[2], reg[3], err, sizeof(err));
            if (rc != MJ_OK) {
                printf("FAIL %s [%s]: %s\n", col[0], IMPL_NAMES[impl], err);
                failed++;
                mj_image_free(&actual);
                continue;
            }
            if (memcmp(actual.pixels, expected.pixels, nbytes) != 0) {
                for (k = 0; k < nbytes; k += 3) {
                    if (memcmp(actual.pixels + k, expected.pixels + k, 3) != 0) {
                        if (diffs == 0)
                            first = k;
                        diffs++;
                    }
                }
            }
            if (diffs == 0) {
                passed++;
                if (verbose)
                    printf("ok   %s [%s]\n", col[0], IMPL_NAMES[impl]);
            } else {
                size_t px = first / 3;
                const uint8_t *e = expected.pixels + first, *a = actual.pixels + first;
                failed++;
                printf("FAIL %s [%s]: %zu of %zu pixels differ; first at (%zu,%zu): "
                       "expected (%d,%d,%d) got (%d,%d,%d)\n",
                       col[0], IMPL_NAMES[impl], diffs, nbytes / 3,
                       px % (size_t)in->width, px / (size_t)in->width, e[0], e[1], e[2],
                       a[0], a[1], a[2]);
                write_diff(diff_dir, col[0], IMPL_NAMES[impl], &expected, &actual);
            }
            mj_image_free(&actual);
        }
        (void)parsed;
        mj_image_free(&expected);
        free(in_path);
        free(exp_path);
    }
    free(line);
    fclose(f);
    free(cache.path);
    mj_image_free(&cache.img);
    for (i = 0; i < (int)nids; i++)
        free(ids[i]);
    free(ids);
    free(testdata_alloc);
    if (ncases == 0)
        printf("golden_test: no cases found in %s\n", csv);
    printf("%ld passed, %ld failed\n", passed, failed);
    return (failed > 0 || ncases == 0) ? 1 : 0;
}
