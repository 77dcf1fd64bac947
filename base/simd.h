/* Which vector code may run. Every vector path has a portable scalar twin
 * that gives the same answers (docs/architecture.md, "Vector code and its
 * scalar twins"); the vector one is compiled only where the target has the
 * instructions (SBX_SSE2, SBX_X86_64 below; a build with -DSBX_NO_SIMD=1
 * has neither) and run only where the CPU has them (sbx_cpu_avx2,
 * sbx_cpu_ssse3). Tests and the differential fuzz targets turn the vector
 * code off at run time with sbx_simd_set_scalar, to compare the twins on
 * the same input. Nothing here allocates. */
#ifndef SBX_SIMD_H
#define SBX_SIMD_H

#include <stdbool.h>

/* SSE2 intrinsics (<emmintrin.h>) may be compiled: x86 with SSE2. */
#if defined(__SSE2__) && !defined(SBX_NO_SIMD)
#define SBX_SSE2 1
#else
#define SBX_SSE2 0
#endif

/* Code for AVX2 and SSSE3 may be compiled (target attributes, chosen at run
 * time by sbx_cpu_avx2 and sbx_cpu_ssse3): x86-64 with GCC or clang. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(SBX_NO_SIMD)
#define SBX_X86_64 1
#else
#define SBX_X86_64 0
#endif

extern int sbx_simd_scalar_only; /* use sbx_simd_on; set by sbx_simd_set_scalar */

/* False once sbx_simd_set_scalar(true): then every twin takes its scalar
 * path, word-at-a-time (SWAR) code included. */
static inline bool sbx_simd_on(void)
{
    return !__atomic_load_n(&sbx_simd_scalar_only, __ATOMIC_RELAXED);
}

/* For tests and fuzz targets: true makes every later call take the scalar
 * twins, false gives the vector code back. Set it while no other thread
 * scans. */
void sbx_simd_set_scalar(bool scalar);

/* The CPU has AVX2 (or SSSE3) and vector code is on; always false where
 * SBX_X86_64 is 0. The CPU is asked once. */
bool sbx_cpu_avx2(void);
bool sbx_cpu_ssse3(void);

#endif
