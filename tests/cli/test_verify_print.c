/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_verify_print.c -- the verdict table printed from the items the
 * library hands back (cli/verify_print.h, sweeps/sweep_result.h): the text
 * header once before the first row, a report row's "report:<verdict>" and
 * "asserted":false, the names of the law enums in the JSON, and the claims
 * without a law row filtered by claim, in text and JSON (issue 34). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "cli/verify_print.h"
#include "sweeps/verify_judge.h"

/* Everything the items write through a printer, as one string (free it). */
typedef struct {
    char *buf;
    size_t len;
    FILE *f;
    verify_printer_t pr;
} capture_t;

static void cap_open(capture_t *c, int json)
{
    memset(c, 0, sizeof *c);
    c->f = open_memstream(&c->buf, &c->len);
    ck_assert_ptr_nonnull(c->f);
    c->pr.f = c->f;
    c->pr.json = json;
}

static char *cap_close(capture_t *c)
{
    fclose(c->f);
    return c->buf;
}

static size_t count(const char *s, const char *what)
{
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

START_TEST(test_rows)
{
    static const double betas[] = { 10 };
    law_t L = { .claim = "R", .dim = 1, .variable = LAW_VAR_BETA, .predicted = 0.5, .tol = 0.2, .eps = 0.1,
                .band_lo = 1, .band_hi = 2, .betas = betas, .nbetas = 1, .family = "test", .scope = "a test row",
                .upper_source = LAW_UPPER_CONTINUUM, .kind = LAW_REPORT };
    verify_row_t *row = calloc(1, sizeof *row);
    ck_assert_ptr_nonnull(row);
    row->law = &L;
    row->verdict = VERDICT_FAIL;
    snprintf(row->reason, sizeof row->reason, "the reason");
    verify_row_result_t it;
    verify_item_row(&it, row, "\"prov\":1");
    ck_assert_int_eq(it.kind, VERIFY_ITEM_ROW);
    ck_assert_int_eq(it.asserted, 0);
    capture_t c;
    cap_open(&c, 0);
    verify_print_item(&c.pr, &it);
    verify_print_item(&c.pr, &it);
    char *s = cap_close(&c);
    ck_assert_uint_eq(count(s, "claim d   predicted"), 1);      /* the header once */
    ck_assert_uint_eq(count(s, "report:fail"), 2);
    ck_assert_uint_eq(count(s, "the reason"), 2);
    free(s);
    cap_open(&c, 1);
    verify_print_item(&c.pr, &it);
    s = cap_close(&c);
    ck_assert_msg(strstr(s, "\"kind\":\"report\",\"d\":1,\"variable\":\"beta\"") != NULL, "%s", s);
    ck_assert_msg(strstr(s, "\"verdict\":\"fail\",\"asserted\":false") != NULL, "%s", s);
    ck_assert_msg(strstr(s, "\"upper_source\":\"continuum\"") != NULL, "%s", s);
    ck_assert_msg(strstr(s, "\"prov\":1}\n") != NULL, "%s", s);
    ck_assert_uint_eq(count(s, "claim d   predicted"), 0);
    free(s);
    free(row);
}
END_TEST

START_TEST(test_untested)
{
    capture_t c;
    cap_open(&c, 0);
    verify_untested_items("T", verify_print_item, &c.pr);
    char *s = cap_close(&c);
    ck_assert_msg(strncmp(s, "T     no law row; its own suite asserts it: ", 44) == 0, "%s", s);
    ck_assert_uint_eq(count(s, "\n"), 1);
    free(s);
    cap_open(&c, 1);
    verify_untested_items(NULL, verify_print_item, &c.pr);
    s = cap_close(&c);
    ck_assert(count(s, "\"law_row\":false") >= 2);
    ck_assert_uint_eq(count(s, "\n"), count(s, "{\"claim\":"));
    free(s);
    verify_untested_items(NULL, NULL, NULL);                      /* no sink: nothing handed back */
}
END_TEST

Suite *suite_verify_print(void)
{
    Suite *s = suite_create("verify_print");
    TEST_TCASE(tc, "verify_print");
    tcase_add_test(tc, test_rows);
    tcase_add_test(tc, test_untested);
    suite_add_tcase(s, tc);
    return s;
}
