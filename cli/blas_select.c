/* SPDX-License-Identifier: GPL-3.0-or-later */
/* blas_select.c -- the CLI's OpenBLAS kernel choice: re-execute once with a
 * better core than OpenBLAS's generic fallback (see blas_select.h). */
#include "cli/blas_select.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/blas.h"
#include "base/envvar.h"

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
