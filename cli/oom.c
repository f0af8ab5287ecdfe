/* SPDX-License-Identifier: GPL-3.0-or-later */
/* oom.c -- allocation failure policy for GMP/FLINT and OpenBLAS (see oom.h). */
#include "cli/oom.h"

#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cblas.h>
#include <flint/flint.h>
#include "base/blas.h"
#include "base/envvar.h"

/* OpenBLAS 0.3.21's per-thread buffer: BUFFER_SIZE (128 MiB) + one page,
 * checked with a 1 MiB margin. */
#define OOM_BLAS_BUFFER ((size_t)129 << 20)

static const char *oom_prog = "attnrank";

_Noreturn void oom_fail(const char *what, size_t bytes)
{
    char line[256];
    int n = snprintf(line, sizeof line, "%s: out of memory (%s: %zu bytes)\n", oom_prog, what, bytes);
    if (n > 0) {
        size_t len = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
        line[len - 1] = '\n';
        ssize_t w = write(2, line, len);
        (void)w;
    }
    _exit(1);
}

static void *oom_malloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        oom_fail("GMP/FLINT allocation", n);
    return p;
}

static void *oom_calloc(size_t a, size_t b)
{
    void *p = calloc(a ? a : 1, b ? b : 1);
    if (!p)
        oom_fail("GMP/FLINT allocation", a * b);
    return p;
}

static void *oom_realloc(void *q, size_t n)
{
    void *p = realloc(q, n ? n : 1);
    if (!p)
        oom_fail("GMP/FLINT allocation", n);
    return p;
}

static void *oom_gmp_realloc(void *q, size_t old, size_t n)
{
    (void)old;
    return oom_realloc(q, n);
}

static void oom_gmp_free(void *p, size_t n)
{
    (void)n;
    free(p);
}

void oom_install(const char *prog)
{
    if (prog)
        oom_prog = prog;
    mp_set_memory_functions(oom_malloc, oom_gmp_realloc, oom_gmp_free);
    __flint_set_memory_functions(oom_malloc, oom_calloc, oom_realloc, free);
}

void oom_blas_guard(char **argv)
{
    if (!blas_as_limited())
        return;
    const char *t = getenv("OPENBLAS_NUM_THREADS");
    int reexecuted = 0;
    if (env_guard("ATTNRANK_OOM_REEXEC", &reexecuted) != AR_OK)
        reexecuted = 1;                 /* a bad guard value: never re-execute (refused by the CLI first) */
    if ((!t || strcmp(t, "1") != 0) && !reexecuted &&
        setenv("OPENBLAS_NUM_THREADS", "1", 1) == 0 && setenv("ATTNRANK_OOM_REEXEC", "1", 1) == 0)
        execv("/proc/self/exe", argv);   /* on failure: carry on */
    void *p = malloc(OOM_BLAS_BUFFER);
    if (!p)
        oom_fail("OpenBLAS work buffer under the address-space limit (ulimit -v)", OOM_BLAS_BUFFER);
    free(p);
    double a = 1, b = 1, c = 0;
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 1, 1, 1, 1.0, &a, 1, &b, 1, 0.0, &c, 1);
}
