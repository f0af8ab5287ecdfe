/* cmd_verify.c -- `attnrank verify`: judge the claims of the laws table. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "cli/verify_print.h"
#include "numerics/version.h"
#include "theory/claims/laws.h"
#include "theory/claims/verify.h"

static const char help[] =
    "Usage: attnrank verify [--claim S|B|R|T|E] [--d D] [--format text|json] [--strict]\n"
    "Runs the sweeps of the laws table, brackets every instance, fits both ends\n"
    "against the law's variable and prints one row per law with its verdict:\n"
    "  pass          all brackets certified, both fitted exponents within the declared\n"
    "                tolerance and every rank/law ratio inside the declared band\n"
    "  fail          certified brackets that contradict the declared law (a finding)\n"
    "  inconclusive  a bracket could not be certified, or too few points\n"
    "Claims without a check in this version are listed as inconclusive (implemented: false).\n"
    "--d selects law rows by dimension (r for claim R); a request that selects no row\n"
    "(e.g. --claim S --d 1) is an error (exit 2) that lists the claims and dimensions.\n"
    "A failed law is a finding, reported with exit status 0; with --strict (for\n"
    "regression runs) any failed row gives exit status 3.  1/2: errors.\n";

int cmd_verify(int argc, char **argv)
{
    opt_t o[] = { { "claim", 1, NULL }, { "d", 1, NULL }, { "format", 1, NULL }, { "strict", 0, NULL },
                  { "help", 0, NULL } };
    size_t no = sizeof o / sizeof o[0];
    ar_status st;
    if ((st = args_parse(argc, argv, 2, o, no, "verify")))
        return cmd_fail(st);
    if (args_get(o, no, "help")) {
        fputs(help, stdout);
        return 0;
    }
    out_format_t fmt;
    if ((st = args_format(args_get(o, no, "format"), &fmt)))
        return cmd_fail(st);
    if (fmt == FMT_TSV) {
        ar_error_set("verify: --format must be text or json");
        return cmd_fail(AR_EINVAL);
    }
    const char *claim = args_get(o, no, "claim");
    size_t dsel = 0;
    if (args_get(o, no, "d") && (st = args_size("d", args_get(o, no, "d"), 1, 64, &dsel)))
        return cmd_fail(st);
    if ((st = laws_check_selection(claim, (int)dsel)))   /* a request that selects nothing is an error */
        return cmd_fail(st);
    size_t nl;
    const law_t *laws = laws_table(&nl);
    int tty = isatty(2), failed = 0, header = 0;
    for (size_t i = 0; i < nl; i++) {
        if ((claim && strcmp(claim, laws[i].claim)) || (dsel && (size_t)laws[i].dim != dsel))
            continue;
        verify_row_t row;
        st = verify_law(&laws[i], &row, tty ? verify_print_progress : NULL, NULL);
        if (tty)
            fprintf(stderr, "\r\033[K");
        if (st)
            return cmd_fail(st);
        if (strcmp(row.verdict, "fail") == 0 && law_asserted(&laws[i]))
            failed = 1;
        if (fmt == FMT_JSON) {
            verify_print_json(stdout, &row);
        } else {
            if (!header++)
                verify_print_header(stdout);
            verify_print_text(stdout, &row);
        }
        fflush(stdout);
    }
    if (!dsel)                          /* claims without law rows have no dimension to select */
        verify_print_untested(stdout, claim, fmt == FMT_JSON);
    return failed && args_get(o, no, "strict") ? 3 : 0;
}
