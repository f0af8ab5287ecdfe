/* SPDX-License-Identifier: GPL-3.0-or-later */
/* blas.c -- the BLAS this process runs on: its core's name and its thread
 * count (see blas.h). */
#include "base/blas.h"

#include <dlfcn.h>
#include <pthread.h>
#include <sys/resource.h>

/* Contract: blas.h. */
int blas_as_limited(void)
{
    struct rlimit rl;
    return getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY;
}

const char *blas_corename(void)
{
    char *(*fn)(void) = (char *(*)(void))dlsym(RTLD_DEFAULT, "openblas_get_corename");
    if (!fn)
        return "reference/unknown";
    const char *s = fn();
    return s ? s : "unknown";
}

/* The largest OpenBLAS thread count this process has been seen to run with (its threads exist). */
static int threads_seen = 1;

void blas_set_threads(int n)
{
    void (*fn)(int) = (void (*)(int))dlsym(RTLD_DEFAULT, "openblas_set_num_threads");
    if (!fn || n <= 0)
        return;
    int now = blas_get_threads();
    if (now > threads_seen)
        threads_seen = now;
    /* under a finite RLIMIT_AS a count above what the process already ran with would start new
     * threads, each needing a 128 MiB buffer it spins without (cli/oom.h); one thread, or going back
     * to a count the process had, starts none (issue 32: the library under RLIMIT_AS left
     * OpenBLAS on its own threads, and Python and C got other numbers than the CLI) */
    if (blas_as_limited() && n > threads_seen)
        return;
    fn(n);
}

int blas_get_threads(void)
{
    int (*fn)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "openblas_get_num_threads");
    int n = fn ? fn() : 1;
    return n > 0 ? n : 1;
}

static pthread_mutex_t single_mu = PTHREAD_MUTEX_INITIALIZER;
static unsigned long single_open;   /* open regions, all threads */
static int single_saved = 1;        /* the count before the first open region */

void blas_single_begin(void)
{
    pthread_mutex_lock(&single_mu);
    if (single_open++ == 0) {
        single_saved = blas_get_threads();
        if (single_saved != 1)
            blas_set_threads(1);
    }
    pthread_mutex_unlock(&single_mu);
}

void blas_single_end(void)
{
    pthread_mutex_lock(&single_mu);
    if (single_open > 0 && --single_open == 0 && single_saved != 1)
        blas_set_threads(single_saved);
    pthread_mutex_unlock(&single_mu);
}
