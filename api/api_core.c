/* SPDX-License-Identifier: GPL-3.0-or-later */
/* api_core.c -- versions, statuses, messages, options and the begin/end of
 * every call of the public API. */
#include "api/api_impl.h"

#include <dlfcn.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <flint/flint.h>
#include <glpk.h>
#include "base/cancel.h"
#include "base/blas.h"
#include "base/blas_cores.h"
#include "base/envvar.h"
#include "base/parallel.h"
#include "base/version.h"
#include "sweeps/shards.h"
#include "theory/brackets/bracket.h"
#include "theory/brackets/bracket_ball.h"
#include "theory/brackets/bracket_scale.h"

const char *attnrank_version(void)
{
    return ATTNRANK_VERSION;
}

int attnrank_api_version(void)
{
    return ATTNRANK_API_VERSION;
}

const char *attnrank_version_line(void)
{
    return version_line();
}

const char *attnrank_version_json(void)
{
    return version_json_fields();
}

const char *attnrank_error_message(void)
{
    return ar_error_get();
}

const char *attnrank_status_name(attnrank_status s)
{
    return ar_status_str((ar_status)s);
}

/* The variables of the CLI's process policies, validated here so that a library
 * caller and the CLI refuse the same values (the CLI calls this first):
 * ATTNRANK_BLAS_AUTO ("0" or "1", default 1), the re-exec guards
 * ATTNRANK_BLAS_REEXEC and ATTNRANK_OOM_REEXEC (unset or "1"; cli/blas_select.h,
 * cli/oom.h) and, when the BLAS is OpenBLAS, a user's OPENBLAS_CORETYPE against
 * this CPU (base/blas_cores.h).  AR_EINVAL with one line otherwise. */
static ar_status process_env_check(void)
{
    int v;
    ar_status st = env_flag("ATTNRANK_BLAS_AUTO", 1, &v);
    if (st == AR_OK)
        st = env_guard("ATTNRANK_BLAS_REEXEC", &v);
    if (st == AR_OK)
        st = env_guard("ATTNRANK_OOM_REEXEC", &v);
    const char *core = getenv("OPENBLAS_CORETYPE");
#if defined(__x86_64__) || defined(__i386__)
    if (st == AR_OK && core && dlsym(RTLD_DEFAULT, "openblas_get_corename"))   /* OpenBLAS reads it */
        st = blas_core_check(core, blas_cpu_features());
#else
    (void)core;
#endif
    return st;
}

attnrank_status attnrank_check_environment(void)
{
    api_call_t c;
    attnrank_status as = api_begin(NULL, &c);
    if (as)
        return as;
    flint_set_num_threads((int)c.conf.cfg.flint_threads);
    ar_status st = process_env_check();
    if (!st)
        st = shards_key_env_check(c.conf.cfg.shard_key);
    return api_end(&c, st);
}

void attnrank_cleanup(void)
{
    flint_cleanup_master();
}

void attnrank_thread_cleanup(void)
{
    flint_cleanup();
    glp_free_env();
}

attnrank_status attnrank_options_default_sized(attnrank_options *o, size_t size)
{
    ar_error_set("%s", "");
    if (!o) {
        ar_error_set("options_default: NULL options");
        return ATTNRANK_EINVAL;
    }
    ar_status st = api_size_check(size, API_MIN_OPTIONS, "attnrank_options");
    if (st)
        return (attnrank_status)st;
    o->size = size;
    attnrank_options full;
    memset(&full, 0, sizeof full);   /* every default is zero */
    api_size_out(o, &full, sizeof full);
    return ATTNRANK_OK;
}

void attnrank_free(void *p)
{
    free(p);
}

void api_copy(char *dst, size_t cap, const char *src)
{
    if (!cap)
        return;
    size_t k = src ? strlen(src) : 0;
    if (k >= cap)
        k = cap - 1;
    if (k)
        memcpy(dst, src, k);
    dst[k] = '\0';
}

char *api_fmpz_str(const fmpz_t x)
{
    char *f = fmpz_get_str(NULL, 10, x);
    char *s = f ? malloc(strlen(f) + 1) : NULL;
    if (s)
        strcpy(s, f);
    else
        ar_error_set("out of memory for a decimal integer");
    flint_free(f);
    return s;
}

ar_status api_points_check(const attnrank_points *p, const char *what)
{
    if (!p) {
        ar_error_set("%s: NULL point set", what);
        return AR_EINVAL;
    }
    return AR_OK;
}

attnrank_status api_begin(const attnrank_options *o, api_call_t *c)
{
    ar_error_set("%s", "");
    c->cancel = c->prev_cancel = NULL;
    c->o = NULL;
    size_t limit = 0;
    if (o) {
        if (api_size_check(o->size, API_MIN_OPTIONS, "attnrank_options"))
            return ATTNRANK_EINVAL;
        api_size_in(&c->opt, NULL, sizeof c->opt, o);   /* every default is zero */
        o = c->o = &c->opt;
        if ((unsigned)o->engine > ATTNRANK_ENGINE_SCALE) {
            ar_error_set("options: engine must be auto, dense or scale (got %d)", (int)o->engine);
            return ATTNRANK_EINVAL;
        }
        if (o->upper & ~15u) {
            ar_error_set("options: upper must be a mask of ATTNRANK_UPPER_SVD, _SYMEIG, _PCHOL, _RSVD (got %u)",
                         o->upper);
            return ATTNRANK_EINVAL;
        }
        if (o->prec != 0 && (o->prec < 53 || o->prec > 4096)) {
            ar_error_set("options: prec must be 0 or in [53, 4096] bits (got %ld)", o->prec);
            return ATTNRANK_EINVAL;
        }
        if (o->threads < 0 || o->threads > 64) {
            ar_error_set("options: threads must be 0 or in [1, 64] (got %d)", o->threads);
            return ATTNRANK_EINVAL;
        }
        double gb = o->memory_limit_gb;
        if (gb != 0 && !(gb >= AR_MAX_ALLOC_GB_MIN && gb <= AR_MAX_ALLOC_GB_MAX)) {
            ar_error_set("options: memory_limit_gb must be 0 or in [%g, %g] GiB (got %g)", AR_MAX_ALLOC_GB_MIN,
                         AR_MAX_ALLOC_GB_MAX, gb);
            return ATTNRANK_EINVAL;
        }
        if (gb != 0)
            limit = (size_t)(gb * 1073741824.0);
        c->cancel = o->cancel;
    }
    ar_status st = api_config_enter(&c->conf);   /* a bad variable: its one line */
    if (st)
        return (attnrank_status)st;
    if (o && o->threads)
        c->conf.cfg.threads = (size_t)o->threads;   /* the caller's count over the default */
    if (limit) {
        c->conf.cfg.max_alloc_bytes = limit;
        c->conf.cfg.max_alloc_from_call = 1;
    }
    c->prev_cancel = cancel_install(c->cancel);
    if (cancel_check()) {
        cancel_install(c->prev_cancel);
        api_config_leave(&c->conf);
        return ATTNRANK_ECANCELED;
    }
    return ATTNRANK_OK;
}

attnrank_status api_end(api_call_t *c, ar_status st)
{
    if (cancel_check_flag(c->cancel)) {
        ar_error_set("cancelled");
        st = AR_ECANCELED;
    } else if (st == AR_ECANCELED) {
        ar_error_set("cancelled");
    }
    cancel_install(c->prev_cancel);
    api_config_leave(&c->conf);
    if (st != AR_OK && !*ar_error_get())
        ar_error_set("%s", ar_status_str(st));
    return (attnrank_status)st;
}

ar_status api_route_opts(const attnrank_options *o, int self, route_opts_t *ro)
{
    route_opts_default(ro);
    bracket_opts_t *bo = &ro->bracket;
    if (!o)
        return AR_OK;
    if (o->prec)
        bo->prec = o->prec;
    if (o->threads)
        bo->threads = o->threads;
    if (o->upper) {
        if (!self && (o->upper & (ATTNRANK_UPPER_SYMEIG | ATTNRANK_UPPER_PCHOL))) {
            ar_error_set("upper: %s needs self-attention (keys equal to the queries)",
                         (o->upper & ATTNRANK_UPPER_SYMEIG) ? "symeig" : "pchol");
            return AR_EINVAL;
        }
        bo->use_svd = (o->upper & ATTNRANK_UPPER_SVD) != 0;
        bo->use_symeig = (o->upper & ATTNRANK_UPPER_SYMEIG) != 0;
        bo->use_pchol = (o->upper & ATTNRANK_UPPER_PCHOL) != 0;
        bo->use_rsvd = (o->upper & ATTNRANK_UPPER_RSVD) != 0;
    }
    ro->engine = o->engine == ATTNRANK_ENGINE_DENSE ? ROUTE_DENSE
               : o->engine == ATTNRANK_ENGINE_SCALE ? ROUTE_SCALE : ROUTE_AUTO;
    if (o->sketch_seed)
        bo->seed = o->sketch_seed;
    bo->progress = o->progress;
    bo->progress_ctx = o->progress_ctx;
    return AR_OK;
}
