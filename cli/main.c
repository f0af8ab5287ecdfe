/* SPDX-License-Identifier: GPL-3.0-or-later */
/* main.c -- attnrank: certified eps-rank brackets for softmax attention. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cli/commands.h"
#include "cli/blas_select.h"
#include "base/envvar.h"
#include "cli/oom.h"
#include "base/parallel.h"
#include "base/status.h"
#include "base/version.h"
#include "include/attnrank.h"

static const char usage[] =
    "Usage: attnrank COMMAND [OPTIONS]\n"
    "\n"
    "Certified brackets lower <= rank_eps(A) <= upper for softmax attention matrices\n"
    "A = rowsoftmax(beta Q K^T) in the max-row-l1 norm, and the paper's laws.\n"
    "\n"
    "Commands:\n"
    "  bracket     certified eps-rank bracket of one instance\n"
    "  verify      judge the paper's claims against the laws table\n"
    "  scale       sweep over beta: table of certified brackets and fitted exponents\n"
    "  plot        log-log plots (SVG, PNG) of 'scale' tables, via gnuplot\n"
    "  funk-hecke  spectral check of exp(beta x.y) on the sphere against Funk-Hecke\n"
    "  generate    write a point set as .npy (and multiplicities)\n"
    "  head        visible dimension, r(tau) and eps-rank bracket of one attention head\n"
    "  calib       claim E on real transformers or your own model's heads (needs 'make calib-data')\n"
    "  merge       tables and verdicts of a sweep from its shard files (--shard K/N)\n"
    "\n"
    "Options:\n"
    "  --help      this text (also 'attnrank COMMAND --help')\n"
    "  --version   version and library versions\n"
    "\n"
    "Results go to stdout; errors to stderr as one line, with a non-zero exit.\n";

/* Every environment variable attnrank reads, checked once before any work:
 * a bad value is refused (exit 2) instead of silently meaning a default. */
static ar_status check_environment(void)
{
    double x;
    ar_status st;
    if ((st = (ar_status)attnrank_check_environment()) || (st = cmd_bracket_progress_after(&x)))
        return st;
    return AR_OK;
}

/* The command's exit code (every output on stdout, none flushed yet). */
static int run(int argc, char **argv)
{
    int rc;
    if (argc < 2) {
        fputs(usage, stderr);
        return 2;
    }
    const char *c = argv[1];
    if (strcmp(c, "--help") == 0 || strcmp(c, "-h") == 0 || strcmp(c, "help") == 0) {
        fputs(usage, stdout);
        return 0;
    }
    if (strcmp(c, "--version") == 0) {
        printf("%s\n", version_line());
        return 0;
    }
    if (strcmp(c, "bracket") == 0)
        rc = cmd_bracket(argc, argv);
    else if (strcmp(c, "verify") == 0)
        rc = cmd_verify(argc, argv);
    else if (strcmp(c, "funk-hecke") == 0)
        rc = cmd_funkhecke(argc, argv);
    else if (strcmp(c, "scale") == 0)
        rc = cmd_scale(argc, argv);
    else if (strcmp(c, "plot") == 0)
        rc = cmd_plot(argc, argv);
    else if (strcmp(c, "head") == 0)
        rc = cmd_head(argc, argv);
    else if (strcmp(c, "calib") == 0)
        rc = cmd_calib(argc, argv);
    else if (strcmp(c, "merge") == 0)
        rc = cmd_merge(argc, argv);
    else if (strcmp(c, "generate") == 0)
        rc = cmd_generate(argc, argv);
    else {
        ar_error_set("unknown command '%s' (see 'attnrank --help')", c);
        return cmd_fail(AR_EINVAL);
    }
    attnrank_cleanup();
    return rc;
}

int main(int argc, char **argv)
{
    oom_install("attnrank");
    ar_status st = check_environment();
    if (st)
        return cmd_fail(st);
    oom_blas_guard(argv);
    blas_select_kernel(argc, argv);
    int rc = run(argc, argv);
    /* A result that did not reach its reader is a failure: a full disk, a
     * closed or broken stdout.  Every buffered byte is flushed and checked
     * here, once, for every command. */
    int werr = fflush(stdout) != 0 || ferror(stdout);
    int cerr = fclose(stdout) != 0;
    if (werr || cerr) {
        ar_error_set("write error on standard output: %s (the output is incomplete)", strerror(errno ? errno : EIO));
        cmd_fail(AR_EIO);
        return 1;
    }
    return rc;
}
