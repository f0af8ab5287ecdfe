/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_generate.c -- `attnrank generate`: write a point set as .npy. */
#include <stdio.h>
#include <string.h>
#include "cli/commands.h"
#include "cli/source.h"
#include "include/attnrank.h"

static const char help[] =
    "Usage: attnrank generate --geometry sphere --family polygon|fibonacci|packing|uniform\n"
    "                         --d D --n N [--seed S] [--theta T] [--beta B] --out X.npy\n"
    "Writes the points as an n x d float64 .npy file (the exact doubles used by\n"
    "'attnrank bracket --geometry ...' with the same options).  --beta only sets\n"
    "the default packing separation 3/sqrt(1+B).\n"
    "       attnrank generate --geometry ball --family uniform --d D --n N [--seed S] --out X.npy\n"
    "writes N i.i.d. uniform points of the unit ball B^D (rejection from the cube,\n"
    "seeded; default seed 1), e.g. queries and keys for `bracket --queries --keys`.\n";

/* --geometry ball --family uniform: i.i.d. uniform points of the unit ball (no multiplicities). */
static int generate_ball(const opt_t *o, size_t no, const char *out)
{
    ar_status st;
    const char *fam = args_get(o, no, "family");
    if (!fam || strcmp(fam, "uniform") != 0) {
        ar_error_set("generate --geometry ball: only --family uniform is available");
        return cmd_fail(AR_EINVAL);
    }
    size_t d, n;
    uint64_t seed = 1;
    if (!args_get(o, no, "d") || !args_get(o, no, "n")) {
        ar_error_set("generate --geometry ball: --d and --n are required");
        return cmd_fail(AR_EINVAL);
    }
    if ((st = args_size("d", args_get(o, no, "d"), 2, 16, &d)) ||
        (st = args_size("n", args_get(o, no, "n"), 1, 5000000, &n)) ||
        (args_get(o, no, "seed") && (st = args_u64("seed", args_get(o, no, "seed"), &seed))))
        return cmd_fail(st);
    attnrank_ball_spec bs;
    attnrank_ball_spec_default(&bs, "uniform", d, 1.0);
    bs.rho0 = 0.0;
    bs.npoints = n;
    bs.seed = seed;
    bs.unweighted = 1;
    attnrank_points *P = NULL;
    if ((st = (ar_status)attnrank_ball_generate(&bs, &P)))
        return cmd_fail(st);
    st = (ar_status)attnrank_points_write_npy(P, out);
    if (!st)
        printf("wrote %zu x %zu points (uniform in the unit ball, seed %llu) to %s\n", attnrank_points_count(P),
               attnrank_points_dim(P), (unsigned long long)seed, out);
    attnrank_points_free(P);
    return st ? cmd_fail(st) : 0;
}

int cmd_generate(int argc, char **argv)
{
    opt_t o[] = { SOURCE_OPTIONS, { "beta", 1, NULL }, { "out", 1, NULL }, { "help", 0, NULL } };
    size_t no = sizeof o / sizeof o[0];
    ar_status st;
    if ((st = args_parse(argc, argv, 2, o, no, "generate")))
        return cmd_fail(st);
    if (args_get(o, no, "help")) {
        fputs(help, stdout);
        return 0;
    }
    double beta = 0;
    if (args_get(o, no, "beta") && (st = args_beta(args_get(o, no, "beta"), &beta)))
        return cmd_fail(st);
    const char *out = args_get(o, no, "out");
    if (!out) {
        ar_error_set("generate: --out is required");
        return cmd_fail(AR_EINVAL);
    }
    if (!args_get(o, no, "geometry")) {
        ar_error_set("generate: --geometry is required");
        return cmd_fail(AR_EINVAL);
    }
    if (!strcmp(args_get(o, no, "geometry"), "ball"))
        return generate_ball(o, no, out);
    source_t S;
    if ((st = source_load(o, no, beta, &S)))
        return cmd_fail(st);
    st = (ar_status)attnrank_points_write_npy(S.Q, out);
    if (!st)
        printf("wrote %zu x %zu points (%s) to %s\n", attnrank_points_count(S.Q), attnrank_points_dim(S.Q),
               S.description, out);
    source_clear(&S);
    return st ? cmd_fail(st) : 0;
}
