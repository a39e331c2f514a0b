/*
 * Sharpen (spec 2.2): unsharp mask on the HSV value, binary64 in exactly the spec's
 * operation order. Must be compiled with -ffp-contract=off (no FMA contraction) and
 * without -ffast-math.
 */
#include <math.h>
#include <stdlib.h>
#include "mj_internal.h"

/* rgb->hsv of xv (spec 2.2). h = -1 means "no hue". */
static void rgb_to_hsv(int r, int g, int b, double *h, double *s, double *v)
{
    double rd = r / 255.0, gd = g / 255.0, bd = b / 255.0;
    double mx, mn, del;

    mx = rd;
    if (gd > mx) mx = gd;
    if (bd > mx) mx = bd;
    mn = rd;
    if (gd < mn) mn = gd;
    if (bd < mn) mn = bd;
    del = mx - mn;
    *v = mx;
    *s = (mx != 0.0) ? del / mx : 0.0;
    if (*s == 0.0) {
        *h = -1.0;
    } else {
        double rc = (mx - rd) / del;
        double gc = (mx - gd) / del;
        double bc = (mx - bd) / del;
        double hh;
        if (rd == mx)
            hh = bc - gc;
        else if (gd == mx)
            hh = 2 + rc - bc;
        else
            hh = 4 + gc - rc;
        hh = hh * 60;
        if (hh < 0)
            hh += 360;
        *h = hh;
    }
}

static int to_byte(double c)
{
    double f = floor(c * 255.0 + 0.5);
    if (f < 0.0) return 0;
    if (f > 255.0) return 255;
    return (int)f;
}

/* hsv->rgb of xv (spec 2.2). */
static void hsv_to_rgb(double h, double s, double v, int *r, int *g, int *b)
{
    double rr, gg, bb;
    if (h == -1.0 || s == 0.0) {
        rr = gg = bb = v;
    } else {
        int j;
        double fr, P, Q, T;
        if (h == 360.0)
            h = 0.0;
        h = h / 60;
        j = (int)floor(h);
        if (j < 0)
            j = 0;
        fr = h - j;
        P = v * (1 - s);
        Q = v * (1 - s * fr);
        T = v * (1 - s * (1 - fr));
        switch (j) {
        case 1: rr = Q; gg = v; bb = P; break;
        case 2: rr = P; gg = v; bb = T; break;
        case 3: rr = P; gg = Q; bb = v; break;
        case 4: rr = T; gg = P; bb = v; break;
        case 5: rr = v; gg = P; bb = Q; break;
        case 0:
        default: rr = v; gg = T; bb = P; break;
        }
    }
    *r = to_byte(rr);
    *g = to_byte(gg);
    *b = to_byte(bb);
}

static double value_of(const uint8_t *p)
{
    int m = p[0];
    if (p[1] > m) m = p[1];
    if (p[2] > m) m = p[2];
    return m / 255.0;
}

int mj_sharpen_straightforward(const uint8_t *src, uint8_t *dst, int width, int height,
                               mj_region r, int p)
{
    int x, y, dx, dy;
    double f, g;

    if (!mj_check_args(src, width, height, r) || dst == NULL || p < 0 || p > 99)
        return MJ_ERR_ARG;
    if (r.w < 3 || r.h < 3)
        return MJ_OK;
    f = p / 100.0;
    g = 1.0 - f;
    for (y = r.y + 1; y <= r.y + r.h - 2; y++) {
        for (x = r.x + 1; x <= r.x + r.w - 2; x++) {
            double S = 0.0, vc, vnew, hh, ss, vv;
            int first = 1, rr, gg, bb;
            const uint8_t *c = src + mj_off(x, y, width);
            uint8_t *o = dst + mj_off(x, y, width);
            for (dy = -1; dy <= 1; dy++) {
                for (dx = -1; dx <= 1; dx++) {
                    double v = value_of(src + mj_off(x + dx, y + dy, width));
                    if (first) {
                        S = v;
                        first = 0;
                    } else {
                        S = S + v;
                    }
                }
            }
            vc = value_of(c);
            vnew = (vc - (f * S) / 9) / g;
            if (vnew < 0.0) vnew = 0.0;
            if (vnew > 1.0) vnew = 1.0;
            rgb_to_hsv(c[0], c[1], c[2], &hh, &ss, &vv);
            hsv_to_rgb(hh, ss, vnew, &rr, &gg, &bb);
            o[0] = (uint8_t)rr;
            o[1] = (uint8_t)gg;
            o[2] = (uint8_t)bb;
        }
    }
    return MJ_OK;
}

/*
 * Optimized: three rolling line buffers of V (each pixel's V computed once per row, via a
 * 256-entry table holding the exact same binary64 quotients m / 255.0); the 3x3 sum keeps
 * the exact left-to-right order; rgb->hsv computes only the two quotients the hue needs
 * (same values); the hue formula and the hsv->rgb sector are selected through small tables
 * instead of data-dependent branches (the same binary64 operands and operations, just no
 * mispredictions); floor() of the non-negative rounding argument is a truncating cast.
 */
int mj_sharpen_optimized(const uint8_t *src, uint8_t *dst, int width, int height,
                         mj_region r, int p)
{
    const int sw = r.w, sh = r.h;
    double div255[256];
    double *buf, *rows[3];
    double f, g;
    int y, i;

    if (!mj_check_args(src, width, height, r) || dst == NULL || p < 0 || p > 99)
        return MJ_ERR_ARG;
    if (sw < 3 || sh < 3)
        return MJ_OK;
    buf = (double *)malloc(3u * (size_t)sw * sizeof(double));
    if (buf == NULL)
        return MJ_ERR_NOMEM;
    for (i = 0; i < 256; i++)
        div255[i] = i / 255.0;
    f = p / 100.0;
    g = 1.0 - f;

    for (i = 0; i < 3; i++)
        rows[i] = buf + (size_t)i * (size_t)sw;
    /* fill V rows for source rows r.y and r.y+1 */
    for (i = 0; i < 2; i++) {
        const uint8_t *s = src + mj_off(r.x, r.y + i, width);
        double *vr = rows[i];
        int x;
        for (x = 0; x < sw; x++, s += 3) {
            int m = s[0] > s[1] ? s[0] : s[1];
            m = m > s[2] ? m : s[2];
            vr[x] = div255[m];
        }
    }
    for (y = 1; y <= sh - 2; y++) {
        const double *va, *vb, *vcur;
        double *vn = rows[(y + 1) % 3];
        const uint8_t *s = src + mj_off(r.x, r.y + y + 1, width);
        const uint8_t *c;
        uint8_t *o;
        int x;
        for (x = 0; x < sw; x++, s += 3) {
            int m = s[0] > s[1] ? s[0] : s[1];
            m = m > s[2] ? m : s[2];
            vn[x] = div255[m];
        }
        va = rows[(y - 1) % 3];
        vcur = rows[y % 3];
        vb = vn;
        c = src + mj_off(r.x + 1, r.y + y, width);
        o = dst + mj_off(r.x + 1, r.y + y, width);
        for (x = 1; x <= sw - 2; x++, c += 3, o += 3) {
            double S = va[x - 1] + va[x];
            double vc = vcur[x], vnew, rd, gd, bd, mx, mn, del, rr, gg, bb;
            int R = c[0], G = c[1], B = c[2];
            S = S + va[x + 1];
            S = S + vcur[x - 1];
            S = S + vc;
            S = S + vcur[x + 1];
            S = S + vb[x - 1];
            S = S + vb[x];
            S = S + vb[x + 1];
            vnew = (vc - (f * S) / 9) / g;
            vnew = vnew < 0.0 ? 0.0 : vnew;
            vnew = vnew > 1.0 ? 1.0 : vnew;

            rd = div255[R];
            gd = div255[G];
            bd = div255[B];
            mx = vc; /* == max(rd, gd, bd) */
            mn = rd < gd ? rd : gd;
            mn = bd < mn ? bd : mn;
            del = mx - mn;
            if (mx == 0.0 || del / mx == 0.0) {
                /* no hue: r = g = b = v' */
                int q = (int)(vnew * 255.0 + 0.5);
                o[0] = o[1] = o[2] = (uint8_t)q;
            } else {
                /* branch-free selections of the same binary64 values:
                 * max channel r: H = (0 + bc) - gc; g: (2 + rc) - bc; b: (4 + gc) - rc,
                 * with xc = (mx - xd) / del; 0 + bc == bc exactly (bc >= +0) */
                static const int sel1[3] = {2, 0, 1}, sel2[3] = {1, 2, 0};
                static const double base[3] = {0.0, 2.0, 4.0};
                /* hsv->rgb channel sources by sector j: 0 = v', 1 = P, 2 = Q, 3 = T;
                 * j = 6 (hh/60 rounding up to 6) behaves as 0 */
                static const unsigned char rsel[7] = {0, 2, 1, 1, 3, 0, 0};
                static const unsigned char gsel[7] = {3, 0, 0, 2, 1, 1, 3};
                static const unsigned char bsel[7] = {1, 1, 3, 0, 0, 2, 1};
                const int M = R > G ? (R > B ? R : B) : (G > B ? G : B);
                const int idx = (R != M) * (1 + (G != M));
                double ch[3], pv[4], sat = del / mx, hh, fr;
                int j;
                ch[0] = rd;
                ch[1] = gd;
                ch[2] = bd;
                hh = (base[idx] + (mx - ch[sel1[idx]]) / del) - (mx - ch[sel2[idx]]) / del;
                hh = hh * 60;
                hh = hh + (hh < 0 ? 360.0 : 0.0); /* x + 0.0 == x for x >= +0 */
                if (hh == 360.0)
                    hh = 0.0;
                hh = hh / 60;
                j = (int)hh; /* hh >= 0: truncation == floor; 0..6 */
                fr = hh - j;
                pv[0] = vnew;
                pv[1] = vnew * (1 - sat);
                pv[2] = vnew * (1 - sat * fr);
                pv[3] = vnew * (1 - sat * (1 - fr));
                rr = pv[rsel[j]];
                gg = pv[gsel[j]];
                bb = pv[bsel[j]];
                /* all channels are in [0, 1]: c*255+0.5 in [0.5, 255.5], so the cast is
                 * floor and the 0..255 clamp never binds */
                o[0] = (uint8_t)(int)(rr * 255.0 + 0.5);
                o[1] = (uint8_t)(int)(gg * 255.0 + 0.5);
                o[2] = (uint8_t)(int)(bb * 255.0 + 0.5);
            }
        }
    }
    free(buf);
    return MJ_OK;
}
