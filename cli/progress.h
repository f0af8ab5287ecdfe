/* SPDX-License-Identifier: GPL-3.0-or-later */
/* progress.h -- the CLI's stage messages on stderr, with a heartbeat.
 *
 * The library reports a stage when it starts and, in its long loops, at least once a second
 * (attnrank_options.progress); a single LAPACK factorisation or an enclosure pass reports
 * nothing while it runs.  The heartbeat thread repeats the running stage, with the time, once a
 * second when no message came, so that under --progress (or on a terminal) something is printed
 * at least once a second from ATTNRANK_PROGRESS_AFTER seconds on (issue 32).  Messages before
 * that threshold are held; the one running at the threshold is printed then. */
#ifndef ATTNRANK_CLI_PROGRESS_H
#define ATTNRANK_CLI_PROGRESS_H

#include <pthread.h>

typedef struct {
    const char *tag;          /* "bracket" */
    double t0, after;         /* start time; seconds before anything is printed */
    double last;              /* time of the last line printed (0: none) */
    char stage[200];          /* the running stage */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int done, started;
    pthread_t th;
} cli_progress_t;

/* Start reporting for `tag` (static string) from `after` seconds on, with the heartbeat thread
 * (when it cannot be started, stage messages are still printed). */
void cli_progress_start(cli_progress_t *p, const char *tag, double after);

/* The library's progress callback (ctx: the cli_progress_t). */
void cli_progress_message(void *ctx, const char *msg);

/* Stop the heartbeat and wait for it. */
void cli_progress_stop(cli_progress_t *p);

#endif
