/* SPDX-License-Identifier: GPL-3.0-or-later */
/* source.c -- build the instance from the command-line options. */
#include "cli/source.h"

#include <stdio.h>
#include <string.h>

#define MAX_POINTS ((size_t)1 << 26)
#define MAX_DIM 4096

/* The family name's check before the sizes (the order of the messages). */
static ar_status source_family_check(const char *fs)
{
    static const char *const names[] = { "polygon", "fibonacci", "packing", "uniform" };
    for (size_t i = 0; i < 4; i++)
        if (!strcmp(fs, names[i]))
            return AR_OK;
    attnrank_points *p = NULL;     /* the library's own message for an unknown family */
    ar_status st = (ar_status)attnrank_sphere_generate(fs, 1, 1, 1.0, 0, 1, &p);
    attnrank_points_free(p);
    return st ? st : AR_EINVAL;
}

ar_status source_load(const opt_t *o, size_t no, double beta, source_t *S)
{
    memset(S, 0, sizeof *S);
    const char *pts = args_get(o, no, "points"), *qs = args_get(o, no, "queries"),
               *ks = args_get(o, no, "keys"), *ws = args_get(o, no, "multiplicities"),
               *geo = args_get(o, no, "geometry");
    int forms = (pts != NULL) + (qs != NULL || ks != NULL) + (geo != NULL);
    if (forms != 1) {
        ar_error_set(forms == 0 ? "no instance: give --points, --queries/--keys or --geometry"
                                : "give only one of --points, --queries/--keys, --geometry");
        return AR_EINVAL;
    }
    const char *gen_only[] = { "family", "d", "n", "seed", "theta" };
    if (!geo)
        for (size_t i = 0; i < 5; i++)
            if (args_get(o, no, gen_only[i])) {
                ar_error_set("--%s only applies with --geometry", gen_only[i]);
                return AR_EINVAL;
            }
    ar_status st;
    if (pts) {
        S->self = 1;
        if ((st = (ar_status)attnrank_points_read(pts, ws, &S->Q)))
            return st;
        snprintf(S->description, sizeof S->description, "points %s%s%s", pts, ws ? " weights " : "", ws ? ws : "");
        return AR_OK;
    }
    if (qs || ks) {
        if (!qs || !ks) {
            ar_error_set("--queries and --keys must be given together");
            return AR_EINVAL;
        }
        S->self = 0;
        if ((st = (ar_status)attnrank_points_read(qs, NULL, &S->Q)))
            return st;
        if ((st = (ar_status)attnrank_points_read(ks, ws, &S->K))) {
            source_clear(S);
            return st;
        }
        if (attnrank_points_dim(S->Q) != attnrank_points_dim(S->K)) {
            ar_error_set("shape mismatch: queries have %zu columns, keys have %zu", attnrank_points_dim(S->Q),
                         attnrank_points_dim(S->K));
            source_clear(S);
            return AR_EINVAL;
        }
        snprintf(S->description, sizeof S->description, "queries %s keys %s%s%s", qs, ks,
                 ws ? " weights " : "", ws ? ws : "");
        return AR_OK;
    }
    if (strcmp(geo, "sphere") != 0) {
        ar_error_set("--geometry: only 'sphere' is available in this version, got '%s'", geo);
        return AR_EINVAL;
    }
    if (ws) {
        ar_error_set("--multiplicities cannot be combined with --geometry");
        return AR_EINVAL;
    }
    const char *fs = args_get(o, no, "family"), *ds = args_get(o, no, "d"), *ns = args_get(o, no, "n"),
               *ss = args_get(o, no, "seed"), *ts = args_get(o, no, "theta");
    size_t d = 0, n = 0;
    double theta = attnrank_sphere_packing_theta(beta);
    if (!fs || !ds || !ns) {
        ar_error_set("--geometry sphere needs --family, --d and --n");
        return AR_EINVAL;
    }
    if ((st = source_family_check(fs)) || (st = args_size("d", ds, 1, MAX_DIM, &d)) ||
        (st = args_size("n", ns, 1, MAX_POINTS, &n)))
        return st;
    S->seed = 1;
    S->has_seed = 1;
    if (ss && (st = args_u64("seed", ss, &S->seed)))
        return st;
    if (ts && (st = args_double("theta", ts, &theta)))
        return st;
    S->self = 1;
    if ((st = (ar_status)attnrank_sphere_generate(fs, d, n, theta, beta, S->seed, &S->Q)))
        return st;
    snprintf(S->description, sizeof S->description, "%s", attnrank_points_provenance(S->Q));
    return AR_OK;
}

void source_clear(source_t *S)
{
    attnrank_points_free(S->Q);
    attnrank_points_free(S->K);
    S->Q = S->K = NULL;
}
