/* SPDX-License-Identifier: GPL-3.0-or-later */
/* progress.c -- stage messages with a heartbeat (see progress.h). */
#include "cli/progress.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "base/clock.h"

/* One line "[tag   12.3 s] msg" (mu held). */
static void line(cli_progress_t *p, double now, const char *msg, const char *suffix)
{
    fprintf(stderr, "[%s %7.1f s] %s%s\n", p->tag, now - p->t0, msg, suffix);
    fflush(stderr);
    p->last = now;
}

void cli_progress_message(void *ctx, const char *msg)
{
    cli_progress_t *p = ctx;
    pthread_mutex_lock(&p->mu);
    double now = clock_now();
    if (now - p->t0 >= p->after)
        line(p, now, msg, "");
    snprintf(p->stage, sizeof p->stage, "%s", msg);
    pthread_mutex_unlock(&p->mu);
}

static void *heartbeat(void *arg)
{
    cli_progress_t *p = arg;
    pthread_mutex_lock(&p->mu);
    while (!p->done) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 250000000L;                    /* a look four times a second */
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        int rc = pthread_cond_timedwait(&p->cv, &p->mu, &ts);
        if (p->done || (rc != 0 && rc != ETIMEDOUT))
            break;
        double now = clock_now();
        if (now - p->t0 >= p->after && now - p->last >= 1.0 && p->stage[0])
            line(p, now, p->stage, p->last > 0 ? " (running)" : "");
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

void cli_progress_start(cli_progress_t *p, const char *tag, double after)
{
    memset(p, 0, sizeof *p);
    p->tag = tag;
    p->t0 = clock_now();
    p->after = after;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    p->started = pthread_create(&p->th, NULL, heartbeat, p) == 0;
}

void cli_progress_stop(cli_progress_t *p)
{
    pthread_mutex_lock(&p->mu);
    p->done = 1;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
    if (p->started)
        pthread_join(p->th, NULL);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
}
