/* cmd_generate.c -- `attnrank generate`: write a point set as .npy. */
#include <stdio.h>
#include "cli/commands.h"
#include "cli/source.h"
#include "constructions/formats/npy.h"

static const char help[] =
    "Usage: attnrank generate --geometry sphere --family polygon|fibonacci|packing|uniform\n"
    "                         --d D --n N [--seed S] [--theta T] [--beta B] --out X.npy\n"
    "Writes the points as an n x d float64 .npy file (the exact doubles used by\n"
    "'attnrank bracket --geometry ...' with the same options).  --beta only sets\n"
    "the default packing separation 3/sqrt(1+B).\n";

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
    source_t S;
    if ((st = source_load(o, no, beta, &S)))
        return cmd_fail(st);
    st = npy_write(out, S.Q.x, S.Q.n, S.Q.d);
    if (!st)
        printf("wrote %zu x %zu points (%s) to %s\n", S.Q.n, S.Q.d, S.description, out);
    source_clear(&S);
    return st ? cmd_fail(st) : 0;
}
