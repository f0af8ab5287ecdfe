/* verifyutil.c -- see verifyutil.h. */
#include "verify/verifyutil.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "cli/verify_print.h"
#include "numerics/status.h"
#include "theory/claims/laws.h"
#include "theory/claims/verify.h"

static const law_t *nth_row(const char *claim, size_t k)
{
    size_t nl, seen = 0;
    const law_t *laws = laws_table(&nl);
    for (size_t i = 0; i < nl; i++)
        if (strcmp(laws[i].claim, claim) == 0 && seen++ == k)
            return &laws[i];
    return NULL;
}

size_t verify_rows(const char *claim)
{
    size_t n = 0;
    while (nth_row(claim, n))
        n++;
    return n;
}

void verify_assert_row(const char *claim, size_t k)
{
    const law_t *L = nth_row(claim, k);
    ck_assert_msg(L != NULL, "claim %s has no row %zu in the laws table", claim, k);
    const char *fmt = getenv("ATTNRANK_VERIFY_FORMAT");
    int json = fmt && strcmp(fmt, "json") == 0;
    verify_row_t *row = malloc(sizeof *row);
    ck_assert_ptr_nonnull(row);
    ar_status st = verify_law(L, row, verify_print_progress, NULL);
    fprintf(stderr, "\r\033[K");
    ck_assert_msg(st == AR_OK, "claim %s d=%d row %zu: %s", claim, L->dim, k, ar_error_get());
    if (json)
        verify_print_json(stdout, row);
    else
        verify_print_text(stdout, row);
    fflush(stdout);
    char verdict[16], reason[256];
    snprintf(verdict, sizeof verdict, "%s", row->verdict);
    snprintf(reason, sizeof reason, "%s", row->reason);
    free(row);
    if (law_asserted(L))
        ck_assert_msg(strcmp(verdict, "pass") == 0, "claim %s d=%d (%s): verdict %s: %s", claim, L->dim,
                      L->kind ? L->kind : "exponent", verdict, reason);
}
