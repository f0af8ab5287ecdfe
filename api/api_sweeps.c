/* SPDX-License-Identifier: GPL-3.0-or-later */
/* api_sweeps.c -- the typed sweeps at the boundary (see api_sweeps.h), and
 * the deprecated argv entry of the public API. */
#include "api/api_sweeps.h"

#include "base/blas.h"
#include "api/api_impl.h"
#include "base/version.h"

typedef enum { SW_VERIFY, SW_SCALE, SW_CALIB, SW_MERGE } sweep_kind_t;

typedef struct {
    sweep_kind_t kind;
    const void *spec;
    char *const *paths;
    size_t nf;
    void *out;
} sweep_call_t;

static int call(const sweep_call_t *c, const sweep_run_t *r0)
{
    api_call_t ac;
    if (api_begin(NULL, &ac) != ATTNRANK_OK)
        return 2;
    sweep_run_t r = *r0;
    if (!r.key && ac.conf.cfg.shard_key[0]) {     /* ATTNRANK_SHARD_KEY, as the boundary read it */
        r.key = ac.conf.cfg.shard_key;
        r.key_from_env = 1;
    }
    blas_single_begin();
    int rc = 2;
    switch (c->kind) {
    case SW_VERIFY:
        rc = sweep_verify_run(c->spec, &r);
        break;
    case SW_SCALE:
        rc = sweep_scale_run(c->spec, &r, c->out);
        break;
    case SW_CALIB:
        rc = sweep_calib_run(c->spec, &r, c->out);
        break;
    case SW_MERGE:
        rc = sweep_merge_run(c->paths, c->nf, &r, c->out);
        break;
    }
    blas_single_end();
    (void)api_end(&ac, AR_OK);   /* the sweep's exit code is its outcome; its messages stay */
    return rc;
}

int api_sweep_verify(const verify_spec_t *s, const sweep_run_t *r)
{
    sweep_call_t c = { SW_VERIFY, s, NULL, 0, NULL };
    return call(&c, r);
}

int api_sweep_scale(const scale_spec_t *s, const sweep_run_t *r, scale_result_t *out)
{
    sweep_call_t c = { SW_SCALE, s, NULL, 0, out };
    return call(&c, r);
}

int api_sweep_calib(const calib_spec_t *s, const sweep_run_t *r, calib_results_t *out)
{
    sweep_call_t c = { SW_CALIB, s, NULL, 0, out };
    return call(&c, r);
}

int api_sweep_merge(char *const *paths, size_t nf, const sweep_run_t *r, sweep_merged_t *out)
{
    sweep_call_t c = { SW_MERGE, NULL, paths, nf, out };
    return call(&c, r);
}

/* Deprecated (see include/attnrank.h): the sweeps' options are parsed by the
 * attnrank command now (cli/sweep_args.c), never inside the library. */
int attnrank_sweep_command(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    ar_error_set("attnrank_sweep_command is deprecated and no longer runs sweeps (attnrank %s parses the sweeps' "
                 "options in the attnrank command only): run 'attnrank verify|scale|calib|merge'", ATTNRANK_VERSION);
    return 2;
}
