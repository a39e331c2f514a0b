/* XVR (spec 2.8): exact re-implementation of glibc random() TYPE_3 (degree 31, sep 3). */
#include "mj_internal.h"

void mj_xvr_seed(mj_xvr *g, uint32_t seed)
{
    uint32_t i;
    if (seed == 0)
        seed = 1;
    g->r[0] = seed;
    for (i = 1; i <= 30; i++)
        g->r[i] = (uint32_t)(((uint64_t)16807 * g->r[i - 1]) % 2147483647u);
    for (i = 31; i <= 33; i++)
        g->r[i] = g->r[i - 31];
    g->i = 34;
    /* r[34..343] are discarded */
    for (i = 34; i <= 343; i++)
        (void)mj_xvr_next(g);
}

/* Computes r[i] = (r[i-31] + r[i-3]) mod 2^32 (i >= 34) and returns r[i] >> 1. */
uint32_t mj_xvr_next(mj_xvr *g)
{
    const uint32_t i = g->i;
    const uint32_t v = g->r[(i - 31) % 34] + g->r[(i - 3) % 34];
    g->r[i % 34] = v;
    /* keep the index bounded (it is only used mod 34) */
    g->i = (i + 1 >= 34u * 2u) ? i + 1 - 34u : i + 1;
    return v >> 1;
}
