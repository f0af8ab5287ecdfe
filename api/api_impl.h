/* SPDX-License-Identifier: GPL-3.0-or-later */
/* api_impl.h -- what the files of the public API (include/attnrank.h) share:
 * the point-set handle, the size-checked structs and the begin/end of every
 * call (error buffer, cancellation flag, per-call memory limit, option checks,
 * configuration). */
#ifndef ATTNRANK_API_IMPL_H
#define ATTNRANK_API_IMPL_H

#include <stddef.h>
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

/* ---- size-checked structs (include/attnrank.h; api_sized.c) ---- */

/* The end of member m of T: the smallest size accepted for T when m is its
 * last member in API 0.3, the first version with the size field. */
#define API_SIZE_THROUGH(T, m) (offsetof(T, m) + sizeof(((T *)0)->m))
#define API_MIN_OPTIONS API_SIZE_THROUGH(attnrank_options, memory_limit_gb)
#define API_MIN_BALL_SPEC API_SIZE_THROUGH(attnrank_ball_spec, m0)
#define API_MIN_BRACKET API_SIZE_THROUGH(attnrank_bracket_result, logit_bias)
#define API_MIN_HEAD API_SIZE_THROUGH(attnrank_head_result, radius)
#define API_MIN_FUNK_HECKE API_SIZE_THROUGH(attnrank_funk_hecke_result, seconds)
#define API_MIN_LAW API_SIZE_THROUGH(attnrank_law, scope)
#define API_MIN_LAW_VERDICT API_SIZE_THROUGH(attnrank_law_verdict, seconds)

/* The size field of the size-checked struct at p (non-NULL): its first member. */
size_t api_size_get(const void *p);

/* AR_OK when size (a caller's size field; type: the struct's name, e.g.
 * "attnrank_bracket_result") is >= min (> sizeof(size_t)); else AR_EINVAL
 * with one line naming type, size and min. */
ar_status api_size_check(size_t size, size_t min, const char *type);

/* A result argument checked before its fields are written: p NULL is
 * AR_EINVAL with null_msg, else api_size_check of its size. */
ar_status api_size_out_check(const void *p, size_t min, const char *type, const char *null_msg);

/* An input read into the library's full struct *full (full_size bytes):
 * *defaults (NULL: zeros), over which the first min(src's size, full_size)
 * bytes of src are copied, then full's size = full_size.  src's size was
 * checked (api_size_check). */
void api_size_in(void *full, const void *defaults, size_t full_size, const void *src);

/* An output: the first min(dst's size, full_size) bytes of *full copied into
 * dst, dst's size field kept.  dst's size was checked. */
void api_size_out(void *dst, const void *full, size_t full_size);

/* Zero the first min(dst's size, full_size) bytes of dst, its size field
 * kept; nothing when dst is NULL or its size is below min. */
void api_size_zero(void *dst, size_t min, size_t full_size);

/* ---- the begin and end of every entry ---- */

/* The state of a call: the caller's options read in full, and what the call
 * restores when it ends. */
typedef struct {
    attnrank_options opt;             /* the caller's options, fields past its size at their defaults */
    const attnrank_options *o;        /* &opt, or NULL when the caller gave none */
    const volatile int *prev_cancel;
    const volatile int *cancel;
    api_config_scope_t conf;
} api_call_t;

/* Start a call: clear the thread's message, check o (NULL: defaults; its
 * size, then its fields) and read it into c->opt (c->o: &c->opt, or NULL),
 * install its cancel flag and its configuration (the environment's, with o's
 * memory limit and threads) for the calling thread.  Every entry that
 * computes or reads a file starts here and ends with api_end; on failure
 * nothing is installed (do not call api_end). */
attnrank_status api_begin(const attnrank_options *o, api_call_t *c);

/* End a call started by api_begin: a set cancel flag turns any result into
 * ATTNRANK_ECANCELED ("cancelled"); restores the previous flag and
 * configuration; a failure without a message gets its status's name. */
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
