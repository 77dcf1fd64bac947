#include "base/simd.h"

int sbx_simd_scalar_only;

void sbx_simd_set_scalar(bool scalar)
{
    __atomic_store_n(&sbx_simd_scalar_only, scalar ? 1 : 0, __ATOMIC_RELAXED);
}

#if SBX_X86_64
/* 0 until first asked, then 1 (no) or 2 (yes); threads that race store the
 * same value. */
static int avx2_state, ssse3_state;

static bool cpu_has(int *state, bool (*ask)(void))
{
    int st = __atomic_load_n(state, __ATOMIC_RELAXED);
    if (__builtin_expect(st == 0, 0)) {
        __builtin_cpu_init();
        st = ask() ? 2 : 1;
        __atomic_store_n(state, st, __ATOMIC_RELAXED);
    }
    return st == 2 && sbx_simd_on();
}

static bool ask_avx2(void)
{
    return __builtin_cpu_supports("avx2");
}

static bool ask_ssse3(void)
{
    return __builtin_cpu_supports("ssse3");
}

bool sbx_cpu_avx2(void)
{
    return cpu_has(&avx2_state, ask_avx2);
}

bool sbx_cpu_ssse3(void)
{
    return cpu_has(&ssse3_state, ask_ssse3);
}
#else
bool sbx_cpu_avx2(void)
{
    return false;
}

bool sbx_cpu_ssse3(void)
{
    return false;
}
#endif
