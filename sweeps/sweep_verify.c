/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sweep_verify.c -- `attnrank verify`: judge the claims of the laws table
 * (whole, or one shard of its point list: theory/claims/vplan.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "numerics/args.h"
#include "sweeps/sweeps.h"
#include "numerics/textout.h"
#include "sweeps/shards.h"
#include "sweeps/verify_print.h"
#include "base/version.h"
#include "theory/claims/laws.h"
#include "theory/claims/verify.h"
#include "theory/claims/vplan.h"

static const char help[] =
    "Usage: attnrank verify [--claim S|B|R|T|E] [--d D] [--tier default|extended|all]\n"
    "                       [--format text|json] [--strict] [--shard K/N --out FILE [--key KEYFILE]]\n"
    "Runs the sweeps of the laws table, brackets every instance, fits both ends\n"
    "against the law's variable and prints one row per law with its verdict:\n"
    "  pass          all brackets certified, both fitted exponents within the declared\n"
    "                tolerance and every rank/law ratio inside the declared band\n"
    "  fail          certified brackets that contradict the declared law (a finding)\n"
    "  inconclusive  a bracket could not be certified, or too few points\n"
    "and claim T's planted heads with the verdict of their assertions.\n"
    "Claims without a check in this version are listed as inconclusive (implemented: false).\n"
    "--d selects law rows by dimension (r for claim R); a request that selects no row\n"
    "(e.g. --claim S --d 1) is an error (exit 2) that lists the claims and dimensions.\n"
    "--tier: rows of the default run (default), the rows outside it (extended, such\n"
    "as claim S in d = 6), or both (all); with --d and no --tier, all.\n"
    "--shard K/N --out FILE: compute only the points of shard K of N (0 <= K < N;\n"
    "the rule and the file are described in README 'Sweeps on a cluster') into the\n"
    "shard file FILE, and print nothing; a FILE already complete for this shard is\n"
    "kept (resumption), FILE.partial of an interrupted run is continued.\n"
    "--key KEYFILE (or ATTNRANK_SHARD_KEY=KEYFILE): the shard file gets an HMAC-SHA256\n"
    "under the key, which 'attnrank merge --key KEYFILE' checks (README 'Sweeps on a cluster').\n"
    "'attnrank merge FILES...' prints the table from the N shard files.\n"
    "A failed law is a finding, reported with exit status 0; with --strict (for\n"
    "regression runs) any failed row gives exit status 3.  1/2: errors.\n";

typedef struct {
    const vplan_t *p;
} vctx_t;

static ar_status unit_fn(size_t u, void *ctx, json_t **rec)
{
    const vplan_t *p = ((vctx_t *)ctx)->p;
    vresult_t r;
    ar_status st = vplan_compute(p, u, &r);
    if (st)
        return st;
    *rec = vplan_record(p, u, &r);
    if (!*rec) {
        ar_error_set("verify: out of memory for a record");
        return AR_ENOMEM;
    }
    return AR_OK;
}

static ar_status check_fn(size_t u, void *ctx, const json_t *rec, const char *where)
{
    vresult_t r;
    return vplan_parse_record(((vctx_t *)ctx)->p, u, rec, where, &r);
}

static int run_shard(const vplan_t *p, shard_sel_t sel, const char *out, const shardfile_key_t *key)
{
    size_t *owner;
    const char **ids;
    ar_status st = verify_plan_owners(p, sel.n, &owner, &ids);
    if (st)
        return sweep_fail(st);
    json_t *h = shards_header("verify", verify_shard_params(p), p->digest, sel, shards_precision());
    if (!h) {
        free(owner);
        free((void *)ids);
        ar_error_set("verify: out of memory for the shard header");
        return sweep_fail(AR_ENOMEM);
    }
    vctx_t c = { p };
    st = shards_run(out, h, ids, owner, p->nunits, sel, unit_fn, check_fn, &c, isatty(2), key);
    json_decref(h);
    free(owner);
    free((void *)ids);
    return st ? sweep_fail(st) : 0;
}

int sweep_verify(int argc, char **argv)
{
    opt_t o[] = { { "claim", 1, NULL }, { "d", 1, NULL }, { "format", 1, NULL }, { "strict", 0, NULL },
                  { "help", 0, NULL }, { "tier", 1, NULL }, { "shard", 1, NULL }, { "out", 1, NULL },
                  { "key", 1, NULL } };
    size_t no = sizeof o / sizeof o[0];
    ar_status st;
    if ((st = args_parse(argc, argv, 2, o, no, "verify")))
        return sweep_fail(st);
    if (args_get(o, no, "help")) {
        fputs(help, stdout);
        return 0;
    }
    out_format_t fmt;
    if ((st = args_format(args_get(o, no, "format"), &fmt)))
        return sweep_fail(st);
    if (fmt == FMT_TSV) {
        ar_error_set("verify: --format must be text or json");
        return sweep_fail(AR_EINVAL);
    }
    const char *claim = args_get(o, no, "claim");
    size_t dsel = 0;
    if (args_get(o, no, "d") && (st = args_size("d", args_get(o, no, "d"), 1, 64, &dsel)))
        return sweep_fail(st);
    vtier_t tier = dsel ? VTIER_ALL : VTIER_DEFAULT;
    if (args_get(o, no, "tier") && (st = vplan_tier_parse("tier", args_get(o, no, "tier"), &tier)))
        return sweep_fail(st);
    shard_sel_t sel = { 0, 1 };
    const char *shard = args_get(o, no, "shard"), *out = args_get(o, no, "out");
    if (shard && (st = shard_parse("shard", shard, &sel)))
        return sweep_fail(st);
    if (!shard != !out) {
        ar_error_set("verify: --shard K/N and --out FILE go together");
        return sweep_fail(AR_EINVAL);
    }
    const shardfile_key_t *key = NULL;
    if (args_get(o, no, "key") && !shard) {
        ar_error_set("verify: --key is for --shard K/N --out FILE");
        return sweep_fail(AR_EINVAL);
    }
    if (shard && ((st = shards_key(args_get(o, no, "key"), &key)) || (st = shardfile_check_target(out))))
        return sweep_fail(st);
    vplan_t p;
    if ((st = vplan_build(claim, (int)dsel, tier, &p)))   /* a request that selects nothing is an error */
        return sweep_fail(st);
    if (p.nunits == 0) {
        ar_error_set("verify: --tier %s selects no row of %s%s", vplan_tier_name(tier), claim ? "claim " : "the table",
                     claim ? claim : "");
        vplan_clear(&p);
        return sweep_fail(AR_EINVAL);
    }
    if (shard) {
        int rc = run_shard(&p, sel, out, key);
        vplan_clear(&p);
        return rc;
    }
    vresult_t *res = ar_calloc(p.nunits, sizeof *res, "verify results");
    if (!res) {
        vplan_clear(&p);
        return sweep_fail(AR_ENOMEM);
    }
    int tty = isatty(2), rc = 0;
    verify_out_t vo = { .json = fmt == FMT_JSON };
    for (size_t g = 0; g < p.ngroups && rc == 0; g++) {
        for (size_t u = p.groups[g].first; u < p.groups[g].first + p.groups[g].count; u++) {
            if (tty) {
                char msg[160];
                vplan_describe(&p, u, msg, sizeof msg);
                verify_print_progress(msg, NULL);
            }
            st = vplan_compute(&p, u, &res[u]);
            if (tty)
                fprintf(stderr, "\r\033[K");
            if (st) {
                rc = sweep_fail(st);
                break;
            }
        }
        if (rc == 0 && (st = verify_print_group(stdout, &vo, &p, g, res)))
            rc = sweep_fail(st);
        fflush(stdout);
    }
    free(res);
    vplan_clear(&p);
    if (rc)
        return rc;
    if (!dsel)                          /* claims without law rows have no dimension to select */
        verify_print_untested(stdout, claim, fmt == FMT_JSON);
    return vo.failed && args_get(o, no, "strict") ? 3 : 0;
}
