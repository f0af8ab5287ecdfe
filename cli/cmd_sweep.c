/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_sweep.c -- `attnrank verify|scale|calib|merge`: the options parsed
 * into a typed spec and a run (cli/sweep_args.c), the sweep run at the
 * boundary (api/api_sweeps.h), its result printed here (cli/scale_print.c,
 * cli/calib_print.c, cli/verify_print.c), with --help, the progress and shard notices on
 * stderr and a failure's one line. */
#include <stdio.h>
#include <stdlib.h>
#include "cli/calib_print.h"
#include "cli/commands.h"
#include "cli/scale_print.h"
#include "cli/sweep_args.h"
#include "cli/verify_print.h"
#include "api/api_sweeps.h"

/* The exit code of a sweep that ran (its one line printed on 1 and 2). */
static int ran(int rc)
{
    if ((rc == 1 || rc == 2) && *ar_error_get())
        fprintf(stderr, "attnrank: %s\n", ar_error_get());
    return rc;
}

/* The exit code of a parse that stopped: --help printed, or the error's line. */
static int parsed(ar_status st, const char *help)
{
    if (st)
        return cmd_fail(st);
    fputs(help, stdout);
    return 0;
}

static void on_notice(void *ctx, const char *line)
{
    (void)ctx;
    fprintf(stderr, "%s\n", line);
}

static void on_unit(void *ctx, const char *what)
{
    (void)ctx;
    if (what) {
        fprintf(stderr, "\r\033[K[verify] %s", what);
        fflush(stderr);
    } else
        fprintf(stderr, "\r\033[K");
}

/* Where the run's events go: stderr; verify's items: the table pr on stdout. */
static void events(sweep_run_t *r, verify_printer_t *pr)
{
    r->ev.notice = on_notice;
    r->ev.point = scale_print_progress;
    r->ev.instances = calib_print_progress;
    r->ev.unit = on_unit;
    r->ev.ctx = NULL;
    pr->f = stdout;
    pr->json = r->format == SWEEP_FORMAT_JSON;
    pr->header = 0;
    r->verify_row = verify_print_item;
    r->verify_ctx = pr;
}

static void print_calib(const calib_results_t *c, const sweep_run_t *r)
{
    calib_print(c->R, c->nd, c->nd > 1 ? &c->pooled : NULL, r->format, r->per_sentence);
}

int cmd_verify(int argc, char **argv)
{
    verify_spec_t s;
    sweep_run_t r;
    const char *help;
    ar_error_set("%s", "");
    ar_status st = sweep_args_verify(argc, argv, &s, &r, &help);
    if (st || help)
        return parsed(st, help);
    verify_printer_t pr;
    events(&r, &pr);
    return ran(api_sweep_verify(&s, &r));
}

int cmd_scale(int argc, char **argv)
{
    scale_spec_t s;
    sweep_run_t r;
    const char *help;
    ar_error_set("%s", "");
    ar_status st = sweep_args_scale(argc, argv, &s, &r, &help);
    if (st || help)
        return parsed(st, help);
    verify_printer_t pr;
    events(&r, &pr);
    scale_result_t res;
    int rc = api_sweep_scale(&s, &r, &res);
    if (rc == 0 && !r.shard)
        scale_print(&res, r.format);
    scale_result_clear(&res);
    return ran(rc);
}

int cmd_calib(int argc, char **argv)
{
    calib_spec_t s;
    sweep_run_t r;
    const char *help;
    ar_error_set("%s", "");
    ar_status st = sweep_args_calib(argc, argv, &s, &r, &help);
    if (st || help)
        return parsed(st, help);
    verify_printer_t pr;
    events(&r, &pr);
    calib_results_t res;
    int rc = api_sweep_calib(&s, &r, &res);
    if (rc == 0 && !r.shard)
        print_calib(&res, &r);
    calib_results_clear(&res);
    return ran(rc);
}

int cmd_merge(int argc, char **argv)
{
    char **paths = NULL;
    size_t nf;
    sweep_run_t r;
    const char *help;
    ar_error_set("%s", "");
    ar_status st = sweep_args_merge(argc, argv, &paths, &nf, &r, &help);
    if (st || help) {
        free(paths);
        return parsed(st, help);
    }
    verify_printer_t pr;
    events(&r, &pr);
    sweep_merged_t m;
    int rc = api_sweep_merge(paths, nf, &r, &m);
    free(paths);
    if (rc == 0 && m.kind == SWEEP_MERGED_SCALE)
        scale_print(&m.scale, r.format);
    else if (rc == 0 && m.kind == SWEEP_MERGED_CALIB)
        print_calib(&m.calib, &r);
    sweep_merged_clear(&m);
    return ran(rc);
}
