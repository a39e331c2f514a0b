/*
 * The vector layer of the vectorized kernels, included twice by each src/<filter>_vectorized.c: with MJ_VEC_BITS
 * 256 (AVX2) and 512 (AVX-512 F+BW+VL). It switches the target of the functions that follow (the kernels are built
 * with the library's plain -O2 flags) and defines the same names at both widths, so each kernel is written once;
 * mj_vec_end.h switches back. Every operation is an integer or IEEE lane operation with the scalar code's result:
 * no fused multiply-add anywhere (the kernels write separate multiplies and adds, as the scalar code does).
 */
#if MJ_VEC_BITS == 256
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif
#define VF(name) name##_avx2
#define vi __m256i
#define vh __m128i /* half a vector */
#define vd __m256d
#define VB 32
#define ld(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define st(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#define ldh(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define sth(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))
#define set1_16(x) _mm256_set1_epi16((short)(x))
#define set1_32(x) _mm256_set1_epi32((int)(x))
#define zero() _mm256_setzero_si256()
#define add16 _mm256_add_epi16
#define sub16 _mm256_sub_epi16
#define add32 _mm256_add_epi32
#define add64 _mm256_add_epi64
#define sub32 _mm256_sub_epi32
#define max16 _mm256_max_epi16
#define min16 _mm256_min_epi16
#define max32 _mm256_max_epi32
#define abs16 _mm256_abs_epi16
#define abs32 _mm256_abs_epi32
#define mullo16 _mm256_mullo_epi16
#define mullo32 _mm256_mullo_epi32
#define min_u16 _mm256_min_epu16
#define max_u16 _mm256_max_epu16
#define min_u8 _mm256_min_epu8
#define max_u8 _mm256_max_epu8
#define mulhi16 _mm256_mulhi_epu16
#define srl16 _mm256_srl_epi16 /* count in a __m128i */
#define srai16 _mm256_srai_epi16
#define srai32 _mm256_srai_epi32
#define slli16 _mm256_slli_epi16
#define slli32 _mm256_slli_epi32
#define and_ _mm256_and_si256
#define or_ _mm256_or_si256
#define mul_epu32 _mm256_mul_epu32
#define srl64 _mm256_srl_epi64
#define srli64 _mm256_srli_epi64
#define slli64 _mm256_slli_epi64
#define u8_u16 _mm256_cvtepu8_epi16    /* half vector of bytes -> u16 lanes */
#define u16_u32 _mm256_cvtepu16_epi32  /* half vector of words -> u32 lanes */
#define addh16 _mm_add_epi16
#define lo_half _mm256_castsi256_si128
#define hi_half(v) _mm256_extracti128_si256((v), 1)
#define set1h16(x) _mm_set1_epi16((short)(x))
/* u16 lanes (each 0..255) -> half a vector of bytes */
static inline __m128i mjv_u16_u8_avx2(__m256i v)
{
    return _mm_packus_epi16(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
}
/* u32 lanes (each 0..65535) -> half a vector of words */
static inline __m128i mjv_u32_u16_avx2(__m256i v)
{
    return _mm_packus_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
}
/* u32 lanes (each 0..255) -> stored as 8 bytes */
static inline void mjv_st_u32_u8_avx2(void *p, __m256i v)
{
    const __m128i w = mjv_u32_u16_avx2(v);
    _mm_storel_epi64((__m128i *)p, _mm_packus_epi16(w, w));
}
#define u16_u8 mjv_u16_u8_avx2
#define u32_u16 mjv_u32_u16_avx2
#define st_u32_u8 mjv_st_u32_u8_avx2
#elif MJ_VEC_BITS == 512
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,avx512bw,avx512vl"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl")
#endif
#define VF(name) name##_avx512
#define vi __m512i
#define vh __m256i
#define vd __m512d
#define VB 64
#define ld(p) _mm512_loadu_si512((const void *)(p))
#define st(p, v) _mm512_storeu_si512((void *)(p), (v))
#define ldh(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define sth(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#define set1_16(x) _mm512_set1_epi16((short)(x))
#define set1_32(x) _mm512_set1_epi32((int)(x))
#define zero() _mm512_setzero_si512()
#define add16 _mm512_add_epi16
#define sub16 _mm512_sub_epi16
#define add32 _mm512_add_epi32
#define add64 _mm512_add_epi64
#define sub32 _mm512_sub_epi32
#define max16 _mm512_max_epi16
#define min16 _mm512_min_epi16
#define max32 _mm512_max_epi32
#define abs16 _mm512_abs_epi16
#define abs32 _mm512_abs_epi32
#define mullo16 _mm512_mullo_epi16
#define mullo32 _mm512_mullo_epi32
#define min_u16 _mm512_min_epu16
#define max_u16 _mm512_max_epu16
#define min_u8 _mm512_min_epu8
#define max_u8 _mm512_max_epu8
#define mulhi16 _mm512_mulhi_epu16
#define srl16 _mm512_srl_epi16
#define srai16 _mm512_srai_epi16
#define srai32 _mm512_srai_epi32
#define slli16 _mm512_slli_epi16
#define slli32 _mm512_slli_epi32
#define and_ _mm512_and_si512
#define or_ _mm512_or_si512
#define mul_epu32 _mm512_mul_epu32
#define srl64 _mm512_srl_epi64
#define srli64 _mm512_srli_epi64
#define slli64 _mm512_slli_epi64
#define u8_u16 _mm512_cvtepu8_epi16
#define u16_u32 _mm512_cvtepu16_epi32
#define addh16 _mm256_add_epi16
#define lo_half _mm512_castsi512_si256
#define hi_half(v) _mm512_extracti64x4_epi64((v), 1)
#define set1h16(x) _mm256_set1_epi16((short)(x))
#define u16_u8 _mm512_cvtepi16_epi8   /* vpmovwb: exact for lanes 0..255 */
#define u32_u16 _mm512_cvtepi32_epi16 /* vpmovdw: exact for lanes 0..65535 */
#define st_u32_u8(p, v) _mm_storeu_si128((__m128i *)(void *)(p), _mm512_cvtepi32_epi8(v)) /* vpmovdb */
#else
#error "MJ_VEC_BITS must be 256 or 512"
#endif

#define V16 (VB / 2) /* 16-bit lanes */
#define V32 (VB / 4) /* 32-bit lanes */

/* A division of 32-bit lanes by a constant, x / d == (x * m) >> k (div_make with mmax MJ_DIV_MMAX: m has up to 33
 * bits). x * m = x * mlo + hi * x * 2^32 with mlo = m mod 2^32, hi = m >> 32 (0 or 1); both halves are halved
 * first, so their sum fits 64 bits: ((x * mlo >> 1) + hi * (x << 31)) >> (k - 1), exact as the low bit of
 * x * 2^32 is 0. Even lanes, then the odd ones moved down; the quotients (< 2^32) back in place. */
typedef struct {
    vi mlo, hi; /* hi: all ones in each 64-bit lane when m >= 2^32 */
    __m128i k1;
} VF(divq_t);

static inline VF(divq_t) VF(divq_make)(div_mk dv)
{
    VF(divq_t) q;
    q.mlo = set1_32((uint32_t)dv.m);
    q.hi = set1_32(dv.m >> 32 ? -1 : 0);
    q.k1 = _mm_cvtsi32_si128(dv.k - 1);
    return q;
}

static inline vi VF(divq)(vi x, VF(divq_t) q)
{
    const vi low32 = srli64(set1_32(-1), 32);
    const vi xe = and_(x, low32), xo = srli64(x, 32);
    const vi even = srl64(add64(srli64(mul_epu32(xe, q.mlo), 1), and_(slli64(xe, 31), q.hi)), q.k1);
    const vi odd = srl64(add64(srli64(mul_epu32(xo, q.mlo), 1), and_(slli64(xo, 31), q.hi)), q.k1);
    return or_(and_(even, low32), slli64(odd, 32));
}
