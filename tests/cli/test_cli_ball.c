/* test_cli_ball.c -- `attnrank bracket --geometry ball` and `attnrank scale
 * --claim B`: JSON fields and figures, agreement with the library, clean
 * one-line errors on bad input. */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "testutil.h"
#include "cli/cliutil.h"

typedef cli_run_t brun_t;

/* Run the binary with its output captured in a fresh temporary directory. */
static void run(brun_t *r, const char *const *args)
{
    char dir[256];
    cli_tmpdir_make(dir, sizeof dir, "cliball");
    cli_run_ex(r, dir, args, 0, 0);
    cli_tmpdir_remove(dir);
}

/* Numeric value of "key": in a JSON line (NAN if absent); quoted numbers accepted. */
static double json_num(const char *s, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(s, pat);
    if (!p)
        return NAN;
    p += strlen(pat);
    if (*p == '"')
        p++;
    return strtod(p, NULL);
}

static void expect_error(const char *const *args, const char *needle)
{
    brun_t r;
    run(&r, args);
    ck_assert_msg(r.status == 1 || r.status == 2, "exit status %d (stderr %s)", r.status, r.err);
    ck_assert_msg(r.out[0] == '\0', "stdout not empty: %s", r.out);
    size_t len = strlen(r.err);
    ck_assert_msg(len > 11 && strncmp(r.err, "attnrank: ", 10) == 0 && strchr(r.err, '\n') == r.err + len - 1,
                  "stderr not one line: [%s]", r.err);
    ck_assert_msg(strstr(r.err, needle) != NULL, "[%s] does not mention '%s'", r.err, needle);
}

START_TEST(test_bracket_ball_json)
{
    brun_t r;
    run(&r, (const char *[]){ "bracket", "--geometry", "ball", "--family", "shells", "--d", "2", "--beta", "1000",
                              "--eps", "0.1", "--format", "json", NULL });
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    ck_assert(strstr(r.out, "\"status\":\"certified\"") != NULL);
    ck_assert(strstr(r.out, "\"lower_certificate\":\"ball-diagdom\"") != NULL);
    double lower = json_num(r.out, "lower"), upper = json_num(r.out, "upper"), l10 = json_num(r.out, "log10_n");
    double distinct = json_num(r.out, "distinct_points");
    ck_assert(lower >= 200 && lower <= upper && upper <= distinct);
    ck_assert_msg(l10 >= 54 && l10 < 60, "log10_n %g", l10);
    ck_assert(strstr(r.out, "\"n_condition_holds\":true") != NULL);
    /* unweighted: n is the distinct count */
    run(&r, (const char *[]){ "bracket", "--geometry", "ball", "--family", "uniform", "--d", "3", "--beta", "30",
                              "--eps", "0.1", "--npoints", "300", "--unweighted", "--rho0", "0", "--format", "json", NULL });
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    ck_assert(json_num(r.out, "n") == 300);
    ck_assert(json_num(r.out, "lower") >= 1 && json_num(r.out, "lower") <= json_num(r.out, "upper"));
    ck_assert(strstr(r.out, "\"weighted\":false") != NULL);
    /* text output names both certificates */
    run(&r, (const char *[]){ "bracket", "--geometry", "ball", "--family", "dense", "--d", "2", "--beta", "40",
                              "--eps", "0.1", "--npoints", "400", "--rho0", "0", NULL });
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    ck_assert(strstr(r.out, "rank_eps   in [") != NULL && strstr(r.out, "upper      ") != NULL);
}
END_TEST

START_TEST(test_scale_ball)
{
    brun_t r;
    run(&r, (const char *[]){ "scale", "--claim", "B", "--d", "2", "--beta", "100:1000:3", "--eps", "0.1", "--rho0",
                              "0", "--format", "json", NULL });
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    int lines = 0;
    for (const char *p = r.out; (p = strchr(p, '\n')); p++)
        lines++;
    ck_assert_int_eq(lines, 3);
    ck_assert(strstr(r.out, "\"claim\":\"B\"") != NULL && strstr(r.out, "\"sphere_lower\":") != NULL);
    run(&r, (const char *[]){ "scale", "--claim", "B", "--d", "2", "--beta", "100:1000:3", "--eps", "0.1", NULL });
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    ck_assert(strstr(r.out, "fitted exponents") != NULL);
}
END_TEST

/* scale --claim B --continuum: the shells-continuum upper end, above the
 * certified lower end at every beta, with its exponent; errors for d = 5 and
 * for --hs without --continuum. */
START_TEST(test_scale_ball_continuum)
{
    brun_t r;
    run(&r, (const char *[]){ "scale", "--claim", "B", "--d", "2", "--beta", "30:120:3", "--eps", "0.1", "--rho0",
                              "0", "--continuum", "--no-sphere", "--format", "json", NULL });
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    int lines = 0;
    for (const char *p = r.out; *p; ) {
        const char *e = strchr(p, '\n');
        ck_assert(e != NULL);
        double lo = json_num(p, "lower"), cu = json_num(p, "continuum");
        ck_assert_msg(lo >= 1 && cu >= lo && cu < 1000, "lower %g continuum %g", lo, cu);
        ck_assert(strstr(p, "\"continuum_certificate\":\"shells-continuum Q=") != NULL);
        lines++;
        p = e + 1;
    }
    ck_assert_int_eq(lines, 3);
    run(&r, (const char *[]){ "scale", "--claim", "B", "--d", "3", "--beta", "20:40:2", "--eps", "0.1", "--rho0",
                              "0", "--continuum", "--hs", "0.4", "--no-sphere", NULL });
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    ck_assert(strstr(r.out, "continuum ") != NULL && strstr(r.out, "| continuum |") != NULL);
    expect_error((const char *[]){ "scale", "--claim", "B", "--d", "5", "--beta", "10:20:2", "--eps", "0.1",
                                   "--continuum", NULL }, "d = 2, 3, 4");
    expect_error((const char *[]){ "scale", "--claim", "B", "--d", "2", "--beta", "10:20:2", "--eps", "0.1",
                                   "--hs", "0.5", NULL }, "--hs");
    expect_error((const char *[]){ "scale", "--claim", "B", "--d", "2", "--beta", "10:20:2", "--eps", "0.1",
                                   "--continuum", "--hs", "-1", NULL }, "--hs");
}
END_TEST

START_TEST(test_bad_input)
{
    expect_error((const char *[]){ "bracket", "--geometry", "ball", "--family", "disk", "--d", "2", "--beta", "10",
                                   "--eps", "0.1", NULL }, "family");
    expect_error((const char *[]){ "bracket", "--geometry", "ball", "--family", "shells", "--d", "1", "--beta", "10",
                                   "--eps", "0.1", NULL }, "d");
    expect_error((const char *[]){ "bracket", "--geometry", "ball", "--family", "shells", "--d", "2", "--beta", "0",
                                   "--eps", "0.1", NULL }, "beta");
    expect_error((const char *[]){ "bracket", "--geometry", "ball", "--family", "shells", "--d", "2", "--beta", "10",
                                   "--eps", "0.1", "--rho0", "1.5", NULL }, "rho0");
    expect_error((const char *[]){ "bracket", "--geometry", "ball", "--family", "shells", "--d", "2", "--beta", "10",
                                   "--eps", "0.1", "--npoints", "10", NULL }, "npoints");
    expect_error((const char *[]){ "bracket", "--geometry", "ball", "--d", "2", "--beta", "10", "--eps", "0.1", NULL },
                 "family");
    expect_error((const char *[]){ "bracket", "--geometry", "ball", "--family", "shells", "--d", "2", "--beta", "1e9",
                                   "--eps", "0.1", NULL }, "points");
    expect_error((const char *[]){ "scale", "--claim", "B", "--d", "2", "--beta", "0:10:3", "--eps", "0.1", NULL },
                 "beta");
    expect_error((const char *[]){ "scale", "--claim", "B", "--beta", "10:100:3", "--eps", "0.1", NULL }, "--d");
    expect_error((const char *[]){ "scale", "--claim", "B", "--d", "2", "--beta", "10:100:3", "--eps", "0.1",
                                   "--format", "xml", NULL }, "format");
}
END_TEST

Suite *suite_cli_ball(void)
{
    Suite *s = suite_create("cli_ball");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_bracket_ball_json);
    tcase_add_test(tc, test_scale_ball);
    tcase_add_test(tc, test_scale_ball_continuum);
    tcase_add_test(tc, test_bad_input);
    suite_add_tcase(s, tc);
    return s;
}
