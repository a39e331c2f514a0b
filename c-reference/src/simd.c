/* Which code path the *_vectorized functions take: detected once per process from the CPU, capped by the
 * environment variable MJ_SIMD (avx512, avx2 or scalar) so that tests can run every path on one machine. */
#include <stdlib.h>
#include <string.h>
#include "mj_simd.h"

static int detect(void)
{
    int level = MJ_SIMD_SCALAR;
    const char *cap = getenv("MJ_SIMD");
#if MJ_X86_SIMD
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) {
        level = MJ_SIMD_AVX2;
        if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
            && __builtin_cpu_supports("avx512vl"))
            level = MJ_SIMD_AVX512;
    }
#endif
    if (cap != NULL) {
        if (strcmp(cap, "scalar") == 0)
            level = MJ_SIMD_SCALAR;
        else if (strcmp(cap, "avx2") == 0 && level > MJ_SIMD_AVX2)
            level = MJ_SIMD_AVX2;
    }
    return level;
}

int mj_simd(void)
{
#if defined(__GNUC__)
    /* every thread computes the same value, so a relaxed race to store it is harmless */
    static int cached = -1;
    int level = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (level < 0) {
        level = detect();
        __atomic_store_n(&cached, level, __ATOMIC_RELAXED);
    }
    return level;
#else
    return detect();
#endif
}

const char *mj_simd_level(void)
{
    static const char *const NAMES[3] = {"scalar", "avx2", "avx512"};
    return NAMES[mj_simd()];
}
