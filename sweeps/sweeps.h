/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sweeps.h -- the sweeps below the public API: verify, scale (claim S and
 * the ball sweeps of claim B), calib and merge, each run from its typed spec
 * (sweeps/sweep_spec.h) and a run (sweep_run_t: format, shard, key).  The
 * command-line options are parsed in cli/ (cli/sweep_args.c); a merge reads
 * the spec stored in the shard headers, never a command line.
 *
 * Each returns its result to the caller (sweeps/sweep_result.h; verify
 * streams its judged rows to the run's sink) and the process exit code: 0, 1
 * (runtime failure), 2 (bad input), 3 (verify strict or a verify merge: an
 * asserted row did not pass).  On 1 and 2 the one-line reason is in
 * ar_error_get() (base/status.h): nothing is printed on stderr for it
 * (the caller prints it); progress and shard notices go to the run's
 * events (sweep_events_t).  No
 * process-wide state: the shard key is loaded per call from run->key. */
#ifndef ATTNRANK_SWEEPS_SWEEPS_H
#define ATTNRANK_SWEEPS_SWEEPS_H

#include <stddef.h>
#include <stdio.h>
#include "numerics/shard.h"
#include "base/status.h"
#include "sweeps/sweep_result.h"
#include "sweeps/sweep_spec.h"

/* How a sweep's result is shown: text (scale: markdown), TSV (scale, calib,
 * merge of those) or JSON lines. */
typedef enum { SWEEP_FORMAT_TEXT, SWEEP_FORMAT_TSV, SWEEP_FORMAT_JSON } sweep_format_t;

/* What a sweep tells its caller while it runs (each may be NULL): */
typedef struct {
    void (*notice)(void *ctx, const char *line);   /* a shard run's notices, one line without its newline */
    void (*point)(void *ctx, size_t done, size_t total, double beta);   /* scale: before point `done`; done
                                                                           == total: the points are done */
    void (*instances)(void *ctx, size_t done, size_t total);   /* calib: instances bracketed so far */
    void (*unit)(void *ctx, const char *what);     /* verify: before a unit (what it computes); NULL: after it */
    void *ctx;
} sweep_events_t;

/* One run of a spec: everything that is not the sweep itself. */
typedef struct {
    sweep_format_t format;
    int strict;                /* verify: exit code 3 when an asserted row fails */
    int per_sentence;          /* calib (JSON): one line per input first */
    int progress;              /* progress events (the CLI: stderr is a terminal) */
    sweep_events_t ev;
    verify_row_sink_fn verify_row;   /* verify and a verify merge: receives each judged item as it is
                                        judged (the CLI prints it); NULL: judged, nothing handed back */
    void *verify_ctx;          /* verify_row's ctx */
    int shard;                 /* 1: compute shard `sel` into `out` and print nothing */
    shard_sel_t sel;
    const char *out;
    const char *key;           /* the shard key file (--key), NULL: none */
    int key_from_env;          /* key came from ATTNRANK_SHARD_KEY (named so in messages) */
} sweep_run_t;

/* verify hands each judged item to r->verify_row as it is judged;
 * scale and calib fill *out (a shard run: nothing), which the caller prints
 * and clears (scale_result_clear, calib_results_clear). */
int sweep_verify_run(const verify_spec_t *s, const sweep_run_t *r);
int sweep_scale_run(const scale_spec_t *s, const sweep_run_t *r, scale_result_t *out);
int sweep_calib_run(const calib_spec_t *s, const sweep_run_t *r, calib_results_t *out);

/* `attnrank merge`: the files paths[0..nf) of one sweep (verify: its items handed to r->verify_row), shown in
 * r->format (text, json or tsv; per_sentence for calib); r->key (NULL:
 * none) must have signed every file.  r's shard fields are ignored. */
int sweep_merge_run(char *const *paths, size_t nf, const sweep_run_t *r, sweep_merged_t *out);

/* The exit code for st (2 for AR_EINVAL, else 1), the message kept in
 * ar_error_get() (set to ar_status_str(st) when empty). */
int sweep_fail(int st);

#endif
