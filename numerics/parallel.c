/* SPDX-License-Identifier: GPL-3.0-or-later */
/* parallel.c -- one thread per job (see parallel.h). */
#include "numerics/parallel.h"
#include <flint/flint.h>
#include "numerics/envvar.h"

#include <pthread.h>

typedef struct {
    void (*fn)(void *);
    void (*thread_exit)(void);
    void *job;
} par_slot;

static void *par_main(void *arg)
{
    par_slot *s = arg;
    s->fn(s->job);
    if (s->thread_exit)
        s->thread_exit();
    return NULL;
}

void par_run(int njobs, void (*fn)(void *job), void (*thread_exit)(void), void *jobs, size_t size)
{
    if (njobs > PAR_MAX_JOBS)
        njobs = PAR_MAX_JOBS;
    pthread_t th[PAR_MAX_JOBS];
    par_slot slot[PAR_MAX_JOBS];
    int started[PAR_MAX_JOBS];
    for (int t = 0; t < njobs; t++) {
        slot[t] = (par_slot){ fn, thread_exit, (char *)jobs + (size_t)t * size };
        started[t] = t > 0 && pthread_create(&th[t], NULL, par_main, &slot[t]) == 0;
    }
    if (njobs > 0)
        fn(slot[0].job);
    for (int t = 1; t < njobs; t++) {
        if (started[t])
            pthread_join(th[t], NULL);
        else
            fn(slot[t].job);       /* thread creation failed: its share runs here */
    }
}

ar_status par_flint_threads_env(void)
{
    size_t n;
    ar_status st = env_size("ATTNRANK_FLINT_THREADS", 1, 256, 1, &n);
    if (st == AR_OK)
        flint_set_num_threads((int)n);
    return st;
}
