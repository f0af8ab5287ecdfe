/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_args.c -- the subcommands' option parser (cli/args.h): "--name value"
 * and "--name=value", flags, and every refusal (unknown, repeated, missing
 * value, positional, a value given to a flag) with a one-line message naming
 * the command and the option; the strict conversions and lists. */
#include <check.h>
#include <string.h>
#include "testutil.h"
#include "cli/args.h"

START_TEST(args_forms)
{
    opt_t o[] = { { "beta", 1, NULL }, { "eps", 1, NULL }, { "quiet", 0, NULL } };
    char *argv[] = { "attnrank", "bracket", "--beta", "2.5", "--eps=0.1", "--quiet" };
    ck_assert_int_eq(args_parse(6, argv, 2, o, 3, "bracket"), AR_OK);
    ck_assert_str_eq(args_get(o, 3, "beta"), "2.5");
    ck_assert_str_eq(args_get(o, 3, "eps"), "0.1");
    ck_assert_str_eq(args_get(o, 3, "quiet"), "1");
    ck_assert_ptr_null(args_get(o, 3, "nosuch"));
    /* values are reset by the next parse */
    char *argv2[] = { "attnrank", "bracket", "--eps", "0.2" };
    ck_assert_int_eq(args_parse(4, argv2, 2, o, 3, "bracket"), AR_OK);
    ck_assert_ptr_null(args_get(o, 3, "beta"));
    ck_assert_ptr_null(args_get(o, 3, "quiet"));
    ck_assert_str_eq(args_get(o, 3, "eps"), "0.2");
}
END_TEST

START_TEST(args_refusals)
{
    opt_t o[] = { { "beta", 1, NULL }, { "quiet", 0, NULL } };
    struct {
        int argc;
        char *argv[4];
        const char *names;   /* a word the message must hold */
    } bad[] = {
        { 1, { "--nosuch" }, "nosuch" },
        { 1, { "--beta" }, "beta" },                      /* missing value */
        { 4, { "--beta", "1", "--beta", "2" }, "beta" },  /* repeated */
        { 1, { "positional" }, "positional" },
        { 1, { "--quiet=1" }, "quiet" },                  /* a value for a flag */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ar_error_set("%s", "");
        ck_assert_msg(args_parse(bad[i].argc, bad[i].argv, 0, o, 2, "scale") == AR_EINVAL, "case %zu accepted", i);
        const char *m = ar_error_get();
        ck_assert_msg(strstr(m, bad[i].names) != NULL, "case %zu: message '%s' does not name '%s'", i, m,
                      bad[i].names);
        ck_assert_msg(strchr(m, '\n') == NULL, "case %zu: message is not one line: '%s'", i, m);
    }
}
END_TEST

START_TEST(args_numbers)
{
    double x;
    ck_assert_int_eq(args_eps("0.25", &x), AR_OK);
    ck_assert(x == 0.25);
    const char *beps[] = { "0", "1", "-0.1", "nan", "inf", "0.1x", "", " 0.1" };
    for (size_t i = 0; i < sizeof beps / sizeof beps[0]; i++)
        ck_assert_msg(args_eps(beps[i], &x) == AR_EINVAL, "eps '%s' accepted", beps[i]);
    ck_assert_int_eq(args_beta("0", &x), AR_OK);
    ck_assert_int_eq(args_beta("-1", &x), AR_EINVAL);
    ck_assert_int_eq(args_beta("1e999", &x), AR_EINVAL);
    size_t n;
    ck_assert_int_eq(args_size("n", "12", 1, 100, &n), AR_OK);
    ck_assert_uint_eq(n, 12);
    const char *bsize[] = { "0", "101", "-1", "+1", " 1", "1 ", "0x10", "1.0", "", "18446744073709551616" };
    for (size_t i = 0; i < sizeof bsize / sizeof bsize[0]; i++) {
        ck_assert_msg(args_size("n", bsize[i], 1, 100, &n) == AR_EINVAL, "size '%s' accepted", bsize[i]);
        ck_assert_msg(strstr(ar_error_get(), "--n") != NULL, "%s", ar_error_get());
    }
    double v[ARGS_LIST_MAX];
    ck_assert_int_eq(args_double_list("eps", "0.1,0.2,0.3", v, 3, &n), AR_OK);
    ck_assert(n == 3 && v[0] == 0.1 && v[2] == 0.3);
    const char *blist[] = { "", ",", "0.1,", ",0.1", "0.1,,0.2", "0.1,0.2,0.3,0.4", "0.1,x" };
    for (size_t i = 0; i < sizeof blist / sizeof blist[0]; i++)
        ck_assert_msg(args_double_list("eps", blist[i], v, 3, &n) == AR_EINVAL, "list '%s' accepted", blist[i]);
    double lo, hi;
    size_t cnt;
    ck_assert_int_eq(args_beta_grid("10:40:3", 100, &lo, &hi, &cnt), AR_OK);
    ck_assert(lo == 10 && hi == 40 && cnt == 3);
    const char *bgrid[] = { "40:10:3", "0:10:3", "10:40:0", "10:40:101", "10:40", "10:40:3:1", "a:b:c" };
    for (size_t i = 0; i < sizeof bgrid / sizeof bgrid[0]; i++)
        ck_assert_msg(args_beta_grid(bgrid[i], 100, &lo, &hi, &cnt) == AR_EINVAL, "grid '%s' accepted", bgrid[i]);
}
END_TEST

/* --format: one parser for every command (text|tsv|json, and scale's md|tsv|json). */
START_TEST(args_formats)
{
    out_format_t f;
    ck_assert_int_eq(args_format(NULL, &f), AR_OK);
    ck_assert_int_eq(f, FMT_TEXT);
    ck_assert_int_eq(args_format("tsv", &f), AR_OK);
    ck_assert_int_eq(f, FMT_TSV);
    ck_assert_int_eq(args_format("json", &f), AR_OK);
    ck_assert_int_eq(f, FMT_JSON);
    ck_assert_int_eq(args_format("md", &f), AR_EINVAL);
    ck_assert_str_eq(ar_error_get(), "--format: expected text, tsv or json, got 'md'");
    unsigned scale = FMT_BIT(FMT_MD) | FMT_BIT(FMT_TSV) | FMT_BIT(FMT_JSON);
    ck_assert_int_eq(args_format_in(NULL, scale, &f), AR_OK);
    ck_assert_int_eq(f, FMT_MD);
    ck_assert_int_eq(args_format_in("md", scale, &f), AR_OK);
    ck_assert_int_eq(f, FMT_MD);
    ck_assert_int_eq(args_format_in("json", scale, &f), AR_OK);
    ck_assert_int_eq(f, FMT_JSON);
    ck_assert_int_eq(args_format_in("text", scale, &f), AR_EINVAL);
    ck_assert_str_eq(ar_error_get(), "--format: expected md, tsv or json, got 'text'");
}
END_TEST

Suite *suite_args(void)
{
    Suite *s = suite_create("args");
    TEST_TCASE(tc, "args");
    tcase_add_test(tc, args_forms);
    tcase_add_test(tc, args_refusals);
    tcase_add_test(tc, args_numbers);
    tcase_add_test(tc, args_formats);
    suite_add_tcase(s, tc);
    return s;
}
