/* Ends a vector width begun by mj_vec.h: the previous target again, and its names gone. */
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#undef VF
#undef vi
#undef vh
#undef vd
#undef VB
#undef ld
#undef st
#undef ldh
#undef sth
#undef set1_16
#undef set1_32
#undef zero
#undef add16
#undef sub16
#undef add32
#undef add64
#undef sub32
#undef max16
#undef min16
#undef max32
#undef abs16
#undef abs32
#undef mullo16
#undef mullo32
#undef min_u16
#undef max_u16
#undef min_u8
#undef max_u8
#undef mulhi16
#undef srl16
#undef srai16
#undef srai32
#undef slli16
#undef slli32
#undef and_
#undef or_
#undef mul_epu32
#undef srl64
#undef srli64
#undef slli64
#undef u8_u16
#undef u16_u32
#undef addh16
#undef lo_half
#undef hi_half
#undef set1h16
#undef u16_u8
#undef u32_u16
#undef st_u32_u8
#undef V16
#undef V32
