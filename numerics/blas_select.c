/* blas_select.c -- OpenBLAS kernel selection (see blas_select.h for the policy). */
#include "numerics/blas_select.h"
#include "numerics/oom.h"
#include "numerics/envvar.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *blas_corename(void)
{
    char *(*fn)(void) = (char *(*)(void))dlsym(RTLD_DEFAULT, "openblas_get_corename");
    if (!fn)
        return "reference/unknown";
    const char *s = fn();
    return s ? s : "unknown";
}

void blas_set_threads(int n)
{
    if (oom_as_limited())   /* each OpenBLAS thread needs 128 MiB and spins without it (oom.h) */
        return;
    void (*fn)(int) = (void (*)(int))dlsym(RTLD_DEFAULT, "openblas_set_num_threads");
    if (fn && n > 0)
        fn(n);
}

/* Kernel name to request for this CPU, or NULL to keep OpenBLAS's choice. */
static const char *blas_preferred_core(void)
{
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl"))
        return "SkylakeX";
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return "Haswell";
    return NULL;
}

ar_status blas_check_env(void)
{
    int v;
    ar_status st = env_flag("ATTNRANK_BLAS_AUTO", 1, &v);
    if (st == AR_OK)
        st = env_guard("ATTNRANK_BLAS_REEXEC", &v);
    return st;
}

void blas_select_kernel(int argc, char **argv)
{
    (void)argc;
    int reexecuted = 1, autosel = 0;
    if (getenv("OPENBLAS_CORETYPE") || env_guard("ATTNRANK_BLAS_REEXEC", &reexecuted) || reexecuted)
        return;
    if (env_flag("ATTNRANK_BLAS_AUTO", 1, &autosel) || !autosel)
        return;                         /* off, or a bad value (refused by blas_check_env first) */
    /* Only the generic fallback is overridden: a specific detection is trusted. */
    if (strcmp(blas_corename(), "Prescott") != 0)
        return;
    const char *want = blas_preferred_core();
    if (!want)
        return;
    if (setenv("OPENBLAS_CORETYPE", want, 1) != 0 || setenv("ATTNRANK_BLAS_REEXEC", "1", 1) != 0)
        return;
    execv("/proc/self/exe", argv);
    /* exec failed: carry on with the kernels already loaded */
    unsetenv("OPENBLAS_CORETYPE");
}
