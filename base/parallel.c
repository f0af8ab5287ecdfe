/* SPDX-License-Identifier: GPL-3.0-or-later */
/* parallel.c -- one thread per job; fixed blocks over any thread count (see parallel.h). */
#include "base/parallel.h"
#include <flint/flint.h>
#include "base/cancel.h"
#include "base/config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

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

/* The state of one par_run_as: the caller's job function, configuration and cancellation flag. */
typedef struct {
    void (*fn)(void *);
    const ar_config_t *cfg;
    const volatile int *cancel;
    void *job;
} par_as_job;

static void par_as_main(void *arg)
{
    par_as_job *a = arg;
    const ar_config_t *prev = ar_config_install(a->cfg);
    const volatile int *cprev = cancel_install(a->cancel);
    a->fn(a->job);
    cancel_install(cprev);
    ar_config_install(prev);
}

void par_run_as(int njobs, void (*fn)(void *job), void (*thread_exit)(void), void *jobs, size_t size,
                const ar_config_t *cfg)
{
    if (njobs > PAR_MAX_JOBS)
        njobs = PAR_MAX_JOBS;
    par_as_job a[PAR_MAX_JOBS];
    const volatile int *cancel = cancel_current();
    for (int t = 0; t < njobs; t++)
        a[t] = (par_as_job){ fn, cfg, cancel, (char *)jobs + (size_t)t * size };
    par_run(njobs, par_as_main, thread_exit, a, sizeof a[0]);
}

int par_threads(void)
{
    size_t t = ar_config()->threads;
    if (t < 1)
        t = 1;
    return t > PAR_MAX_JOBS ? PAR_MAX_JOBS : (int)t;
}

size_t par_parts(size_t len, size_t min_len)
{
    size_t p = min_len ? len / min_len : len;
    if (p < 2)
        p = len >= 4 ? 2 : 1;       /* the halves of the former two fixed threads */
    return p > PAR_MAX_PARTS ? PAR_MAX_PARTS : p;
}

size_t par_part_start(size_t len, size_t parts, size_t j)
{
    if (parts == 0)
        return 0;
    /* floor(len j / parts) without overflow: len = q parts + r, j <= parts */
    size_t q = len / parts, r = len % parts;
    return q * j + r * j / parts;
}

/* The shared state of one par_for: the next block to hand out. */
typedef struct {
    void (*fn)(void *, size_t);
    void *ctx;
    size_t nblocks;
    atomic_size_t next;
} par_for_state;

static void par_for_worker(void *arg)
{
    par_for_state *s = *(par_for_state **)arg;
    for (;;) {
        size_t i = atomic_fetch_add(&s->next, 1);
        if (i >= s->nblocks)
            return;
        s->fn(s->ctx, i);
    }
}

void par_for(size_t nblocks, void (*fn)(void *ctx, size_t i), void *ctx, void (*thread_exit)(void))
{
    if (nblocks == 0)
        return;
    size_t nt = (size_t)par_threads();
    if (nt > nblocks)
        nt = nblocks;
    par_for_state s = {.fn = fn, .ctx = ctx, .nblocks = nblocks};
    atomic_init(&s.next, 0);
    if (nt == 1) {
        for (size_t i = 0; i < nblocks; i++)
            fn(ctx, i);
        return;
    }
    par_for_state *ptr[PAR_MAX_JOBS];
    for (size_t t = 0; t < nt; t++)
        ptr[t] = &s;
    par_run((int)nt, par_for_worker, thread_exit, ptr, sizeof ptr[0]);
}

/* The shared state of one par_for_status: the least failing item, its status and its message. */
typedef struct {
    ar_status (*fn)(void *, size_t);
    void *ctx;
    pthread_mutex_t mu;
    size_t first;           /* least failing item (SIZE_MAX: none) */
    ar_status st;
    char msg[512];
} par_status_state;

static void par_status_item(void *arg, size_t i)
{
    par_status_state *s = arg;
    ar_status st = s->fn(s->ctx, i);
    if (st == AR_OK)
        return;
    pthread_mutex_lock(&s->mu);
    if (i < s->first) {
        s->first = i;
        s->st = st;
        snprintf(s->msg, sizeof s->msg, "%s", ar_error_get());
    }
    pthread_mutex_unlock(&s->mu);
}

ar_status par_for_status(size_t n, ar_status (*fn)(void *ctx, size_t i), void *ctx, void (*thread_exit)(void))
{
    par_status_state s = {.fn = fn, .ctx = ctx, .first = SIZE_MAX, .st = AR_OK};
    pthread_mutex_init(&s.mu, NULL);
    par_for(n, par_status_item, &s, thread_exit);
    pthread_mutex_destroy(&s.mu);
    if (s.st != AR_OK)
        ar_error_set("%s", s.msg);
    return s.st;
}
