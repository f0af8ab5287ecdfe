/* SPDX-License-Identifier: GPL-3.0-or-later */
/* parallel.c -- one thread per job (see parallel.h). */
#include "base/parallel.h"
#include <flint/flint.h>
#include "base/config.h"

#include <pthread.h>

typedef struct {
    void (*fn)(void *);
    void (*thread_exit)(void);
    void *job;
    const ar_config_t *cfg;
} par_slot;

static void *par_main(void *arg)
{
    par_slot *s = arg;
    ar_config_install(s->cfg);      /* the caller's settings hold in its workers */
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
        slot[t] = (par_slot){ fn, thread_exit, (char *)jobs + (size_t)t * size, ar_config_installed() };
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

