/* SPDX-License-Identifier: GPL-3.0-or-later */
/* api_impl.h -- what the files of the public API (include/attnrank.h) share:
 * the point-set handle and the begin/end of every call (error buffer,
 * cancellation flag, per-call memory limit, option checks). */
#ifndef ATTNRANK_API_IMPL_H
#define ATTNRANK_API_IMPL_H

#include <flint/fmpz.h>
#include "include/attnrank.h"
#include "base/config.h"
#include "base/status.h"
#include "constructions/pointsets/pointset.h"
#include "theory/brackets/route.h"

struct attnrank_points {
    pointset_t P;
};

/* The configuration of a call, read from the environment at its start, and
 * the installation it replaced (restored when the call ends). */
typedef struct {
    ar_config_t cfg;
    const ar_config_t *prev;
} api_config_scope_t;

/* c = the environment's settings (api_config.c, the library's only reader of
 * attnrank's variables); AR_EINVAL naming a variable outside its range. */
ar_status api_config_from_env(ar_config_t *c);

/* Read the environment into s->cfg and install it for the calling thread
 * (nothing installed on failure); api_config_leave restores the previous one. */
ar_status api_config_enter(api_config_scope_t *s);
void api_config_leave(api_config_scope_t *s);

/* The CPUs this process may use (api_cpus.c): the affinity mask's count, lowered to the
 * cgroup v2 quota of /sys/fs/cgroup/cpu.max (rounded up) when that file holds one; at least 1,
 * at most AR_CONFIG_MAX_THREADS.  The default of the configuration's threads. */
size_t api_cpu_count(void);

/* The cgroup v2 cpu.max text ("QUOTA PERIOD" or "max PERIOD", one optional newline) applied
 * to cpus: min(cpus, ceil(QUOTA / PERIOD)); cpus itself for "max", for anything malformed
 * (untrusted input) and for a zero quota or period.  Pure. */
size_t api_cpu_quota_parse(const char *text, size_t cpus);

/* The body of an entry that runs under the environment's configuration:
 * return impl_call's status, or the configuration's AR_EINVAL. */
#define API_CONFIG_CALL(impl_call)                                   \
    do {                                                             \
        api_config_scope_t sc_;                                      \
        ar_error_set("%s", "");                                      \
        ar_status st_ = api_config_enter(&sc_);                      \
        if (st_)                                                     \
            return (attnrank_status)st_;                             \
        attnrank_status r_ = impl_call;                              \
        api_config_leave(&sc_);                                      \
        return r_;                                                   \
    } while (0)

/* The state a call restores when it ends. */
typedef struct {
    const volatile int *prev_cancel;
    const volatile int *cancel;
    api_config_scope_t conf;
} api_call_t;

/* Start a call: clear the thread's message, check o (NULL: defaults), install
 * its cancel flag and its configuration (the environment's, with o's memory
 * limit) for the calling thread.  On failure
 * nothing is installed. */
attnrank_status api_begin(const attnrank_options *o, api_call_t *c);

/* End a call started by api_begin: a set cancel flag turns any result into
 * ATTNRANK_ECANCELED; restores the previous flag and configuration. */
attnrank_status api_end(api_call_t *c, ar_status st);

/* The route chooser's options from the public ones (self: self-attention,
 * for the symeig/pchol choice); AR_EINVAL with a message for bad values. */
ar_status api_route_opts(const attnrank_options *o, int self, route_opts_t *ro);

/* A malloc'd decimal copy of x (NULL with AR_ENOMEM's message on failure). */
char *api_fmpz_str(const fmpz_t x);

/* Copy src into the fixed-size dst (always NUL-terminated). */
void api_copy(char *dst, size_t cap, const char *src);

/* Check a points handle argument (NULL: AR_EINVAL naming what). */
ar_status api_points_check(const attnrank_points *p, const char *what);

/* The route plan of rr as a JSON array (malloc'd; NULL with a message on allocation failure):
 * attnrank_bracket_result.route_plan. */
char *api_route_plan_json(const route_result_t *rr);

#endif
