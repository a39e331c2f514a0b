/* Deterministic random images, regions and parameter strings for the self-checks
 * (unit_test) and the case generator (gen_cases). Test-only. */
#ifndef MJ_RANDGEN_H
#define MJ_RANDGEN_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    uint64_t s;
} trng;

static inline uint32_t trng_next(trng *g)
{
    /* splitmix64 */
    uint64_t z = (g->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

/* uniform in [lo, hi] */
static inline int trng_range(trng *g, int lo, int hi)
{
    return lo + (int)(trng_next(g) % (uint32_t)(hi - lo + 1));
}

/* Fills a random image of one of several kinds: noise, posterized (few levels per channel),
 * palette (few exact colours: oil-paint ties, despeckle duplicates), gradient + noise,
 * flat with sparse bright specks. Returns the kind used. */
static inline int trng_image(trng *g, uint8_t *px, int w, int h)
{
    const size_t n = (size_t)w * (size_t)h * 3u;
    const int kind = trng_range(g, 0, 4);
    size_t k;
    uint8_t pal[6][3];
    int npal = trng_range(g, 1, 6), i;
    for (i = 0; i < 6; i++) {
        pal[i][0] = (uint8_t)trng_next(g);
        pal[i][1] = (uint8_t)trng_next(g);
        pal[i][2] = (uint8_t)trng_next(g);
    }
    for (k = 0; k < n; k += 3) {
        size_t p = k / 3;
        int x = (int)(p % (size_t)w), y = (int)(p / (size_t)w);
        switch (kind) {
        case 0:
            px[k] = (uint8_t)trng_next(g);
            px[k + 1] = (uint8_t)trng_next(g);
            px[k + 2] = (uint8_t)trng_next(g);
            break;
        case 1:
            px[k] = (uint8_t)(trng_range(g, 0, 2) * 127);
            px[k + 1] = (uint8_t)(trng_range(g, 0, 2) * 127);
            px[k + 2] = (uint8_t)(trng_range(g, 0, 2) * 127);
            break;
        case 2:
            i = trng_range(g, 0, npal - 1);
            px[k] = pal[i][0];
            px[k + 1] = pal[i][1];
            px[k + 2] = pal[i][2];
            break;
        case 3:
            px[k] = (uint8_t)((x * 7 + y * 3 + trng_range(g, 0, 8)) & 255);
            px[k + 1] = (uint8_t)((x * 2 + y * 11 + trng_range(g, 0, 8)) & 255);
            px[k + 2] = (uint8_t)((255 - x * 5 + trng_range(g, 0, 3)) & 255);
            break;
        default:
            if (trng_range(g, 0, 20) == 0) {
                px[k] = px[k + 1] = px[k + 2] = 255;
            } else {
                px[k] = 20;
                px[k + 1] = 30;
                px[k + 2] = (uint8_t)trng_range(g, 40, 41);
            }
            break;
        }
    }
    return kind;
}

/* Random region x y w h that may reach outside a w x h image (or be empty, rarely). */
static inline void trng_region(trng *g, int w, int h, int reg[4])
{
    int mode = trng_range(g, 0, 5);
    if (mode == 0) {
        reg[0] = 0; reg[1] = 0; reg[2] = w; reg[3] = h;
    } else if (mode == 1) {
        reg[0] = trng_range(g, -3, w); reg[1] = trng_range(g, -3, h);
        reg[2] = trng_range(g, 0, w + 6); reg[3] = trng_range(g, 0, h + 6);
    } else {
        reg[0] = trng_range(g, 0, w - 1);
        reg[1] = trng_range(g, 0, h - 1);
        reg[2] = trng_range(g, 1, w - reg[0]);
        reg[3] = trng_range(g, 1, h - reg[1]);
        if (mode == 2) { /* thin regions: width or height 1 or 2 */
            if (trng_range(g, 0, 1)) reg[2] = trng_range(g, 1, 2 < w - reg[0] ? 2 : w - reg[0]);
            else reg[3] = trng_range(g, 1, 2 < h - reg[1] ? 2 : h - reg[1]);
        }
    }
}

/* Random valid parameter string for filter index f (order of docs/filters.md). Keeps the
 * straightforward ports' cost bounded by the image size (maxdim). */
static inline void trng_params(trng *g, int f, int maxdim, char *out, size_t outlen)
{
    int a, b;
    out[0] = '\0';
    switch (f) {
    case 0: /* blur */
    case 2: /* despeckle */
        a = trng_range(g, 0, 9);
        if (a == 0) { out[0] = '\0'; break; }
        if (a <= 4) b = 3;
        else if (a <= 6) b = 2 * trng_range(g, 0, 3) + 1;
        else if (a <= 8) b = 2 * trng_range(g, 0, maxdim) + 1;
        else b = maxdim <= 16 ? 255 : 2 * trng_range(g, 0, 8) + 1;
        if (b > 255) b = 255;
        snprintf(out, outlen, "n=%d", b);
        break;
    case 1: /* sharpen */
        a = trng_range(g, 0, 4);
        if (a == 0) break;
        snprintf(out, outlen, "p=%d", a == 1 ? 99 : (a == 2 ? 0 : trng_range(g, 0, 99)));
        break;
    case 3:
        a = trng_range(g, 0, 2);
        snprintf(out, outlen, "%s", a == 0 ? "" : (a == 1 ? "frame=xv" : "frame=black"));
        break;
    case 4:
        a = trng_range(g, 0, 2);
        snprintf(out, outlen, "%s", a == 0 ? "" : (a == 1 ? "rounding=xv" : "rounding=floor"));
        break;
    case 5: /* oil-paint */
        a = trng_range(g, 0, 3);
        b = (maxdim <= 12 || trng_range(g, 0, 3) == 0) ? trng_range(g, 1, maxdim <= 12 ? 31 : 9)
                                                      : trng_range(g, 1, 5);
        if (a == 0) snprintf(out, outlen, "n=%d", b);
        else if (a == 1) snprintf(out, outlen, "n=%d window=centred", b);
        else if (a == 2) snprintf(out, outlen, "window=xv");
        else out[0] = '\0';
        break;
    case 6: /* pixelize */
        a = trng_range(g, 0, 4);
        if (a == 0) break;
        if (a == 1) snprintf(out, outlen, "block=%d", trng_range(g, 1, maxdim + 3));
        else if (a == 2) snprintf(out, outlen, "block=%dx%d", trng_range(g, 1, maxdim + 3),
                                  trng_range(g, 1, maxdim + 3));
        else if (a == 3) snprintf(out, outlen, "block=%dX%d", trng_range(g, 1, 6),
                                  trng_range(g, 1, 6));
        else snprintf(out, outlen, "block=%d", trng_range(g, 0, 1) ? 65535 : 1);
        break;
    default: /* spread */
        a = trng_range(g, 0, 4);
        {
            char d[32] = "";
            unsigned long seed = trng_range(g, 0, 3) == 0 ? 0ul : (unsigned long)(trng_next(g) >> 1);
            if (a == 1) snprintf(d, sizeof(d), "distance=%d ", trng_range(g, 0, maxdim + 2));
            else if (a == 2) snprintf(d, sizeof(d), "distance=%dx%d ", trng_range(g, 0, maxdim + 2),
                                      trng_range(g, 0, maxdim + 2));
            else if (a == 3) snprintf(d, sizeof(d), "distance=%s ",
                                      trng_range(g, 0, 1) ? "65535" : "0x3");
            snprintf(out, outlen, "%sseed=%lu", d, seed);
        }
        break;
    }
}

#endif
