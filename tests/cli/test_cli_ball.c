/* SPDX-License-Identifier: GPL-3.0-or-later */
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
#include "constructions/formats/npy.h"
#include <math.h>

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
                              "--eps", "0.1", "--n", "300", "--unweighted", "--rho0", "0", "--format", "json", NULL });
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    ck_assert(json_num(r.out, "n") == 300);
    /* --npoints, the old spelling of --n: the same instance, flagged as deprecated on stderr */
    char first[512];
    snprintf(first, sizeof first, "%.*s", (int)(strstr(r.out, "\"seconds\"") - r.out), r.out);
    run(&r, (const char *[]){ "bracket", "--geometry", "ball", "--family", "uniform", "--d", "3", "--beta", "30",
                              "--eps", "0.1", "--npoints", "300", "--unweighted", "--rho0", "0", "--format", "json", NULL });
    ck_assert_msg(r.status == 0 && strstr(r.err, "--npoints is deprecated"), "status %d: %s", r.status, r.err);
    ck_assert_msg(strncmp(r.out, first, strlen(first)) == 0, "%s\nvs\n%s", r.out, first);
    ck_assert(json_num(r.out, "lower") >= 1 && json_num(r.out, "lower") <= json_num(r.out, "upper"));
    ck_assert(strstr(r.out, "\"weighted\":false") != NULL);
    /* text output names both certificates */
    run(&r, (const char *[]){ "bracket", "--geometry", "ball", "--family", "dense", "--d", "2", "--beta", "40",
                              "--eps", "0.1", "--n", "400", "--rho0", "0", NULL });
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
        ck_assert(strstr(p, "\"continuum_certificate\":\"shells-continuum hs=") != NULL);   /* names its spacing */
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
    /* a spacing coarser than 0.5 kernel widths no longer measures the ball (issue 22: at --hs 10 its
     * continuum end fell below the ball's certified lower end) */
    expect_error((const char *[]){ "scale", "--claim", "B", "--d", "2", "--beta", "100:200:2", "--eps", "0.1",
                                   "--rho0", "0", "--continuum", "--hs", "0.6", NULL }, "no longer measures the ball");
    expect_error((const char *[]){ "scale", "--claim", "B", "--d", "2", "--beta", "100:200:2", "--eps", "0.1",
                                   "--rho0", "0", "--continuum", "--hs", "10", NULL }, "--hs");
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
                                   "--eps", "0.1", "--n", "10", NULL }, "--n applies");
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

/* Run args with a timeout in a fresh directory and expect a clean refusal (exit 2). */
static void expect_refused(const char *const *args, const char *needle, double timeout_s)
{
    char dir[256];
    cli_tmpdir_make(dir, sizeof dir, "cliball");
    cli_expect_refused(dir, args, 2, needle, timeout_s);
    cli_tmpdir_remove(dir);
}

/* Issue 14 item 3: generators whose work has no bound are refused up front,
 * naming what to change; each of these ran forever before (rejection
 * sampling of a shell of width 1e-16, a lattice of ~1e16 cells, 3e13 cells
 * in d = 16, the same lattice under scale --claim B --upper). */
START_TEST(test_generators_bounded)
{
    expect_refused((const char *[]){ "bracket", "--geometry", "ball", "--family", "uniform", "--d", "2", "--beta", "10",
                                     "--eps", "0.1", "--rho0", "0.9999999999999999", "--n", "10", NULL },
                   "lower rho0", 30);
    expect_refused((const char *[]){ "bracket", "--geometry", "ball", "--family", "dense", "--d", "2", "--beta", "10",
                                     "--eps", "0.1", "--rho0", "0.9999999999999999", "--n", "10", NULL },
                   "ball dense", 30);
    expect_refused((const char *[]){ "bracket", "--geometry", "ball", "--family", "dense", "--d", "16", "--beta", "10",
                                     "--eps", "0.1", NULL },
                   "lower d", 30);
    expect_refused((const char *[]){ "scale", "--claim", "B", "--d", "2", "--beta", "10:10:1", "--eps", "0.1", "--upper",
                                     "--n", "10", "--rho0", "0.9999999999999999", NULL },
                   "ball dense", 30);
    expect_refused((const char *[]){ "bracket", "--geometry", "ball", "--family", "uniform", "--d", "16", "--beta", "10",
                                     "--eps", "0.1", NULL },
                   "ball uniform", 30);
    expect_refused((const char *[]){ "bracket", "--geometry", "ball", "--family", "shells", "--d", "10", "--beta", "100",
                                     "--eps", "0.1", NULL },
                   "lower beta or d", 30);
}
END_TEST

/* Issue 14 item 4: huge beta.  The shell count used to overflow a
 * (size_t)floor(...) cast (undefined behaviour) and collapse the instance to
 * one point (lower 1, log10 n 0.0, exponent 0.000, exit 0), the weight
 * precision a (long)ceil(...) cast (a crash at beta 1e60), and the sphere
 * routes answered with the polynomial certificate's internal limit
 * ("poly: ... <= 1e7"). */
START_TEST(test_huge_beta)
{
    expect_refused((const char *[]){ "scale", "--claim", "B", "--d", "2", "--beta", "1e60:1e61:2", "--eps", "0.1",
                                     "--no-sphere", NULL }, "lower beta", 30);
    expect_refused((const char *[]){ "bracket", "--geometry", "ball", "--family", "shells", "--d", "2", "--beta", "1e60",
                                     "--eps", "0.1", NULL }, "lower beta", 30);
    expect_refused((const char *[]){ "bracket", "--geometry", "ball", "--family", "shells", "--d", "3", "--beta", "1e41",
                                     "--eps", "0.1", NULL }, "lower beta", 30);
    expect_refused((const char *[]){ "bracket", "--geometry", "ball", "--family", "dense", "--d", "2", "--n",
                                     "100", "--beta", "1e60", "--eps", "0.1", NULL }, "multiplicities", 30);
    expect_refused((const char *[]){ "scale", "--claim", "S", "--d", "3", "--beta", "1e8:1e9:2", "--eps", "0.1", NULL },
                   "lower beta", 60);
    /* the sphere below the dense size: the polynomial route does not apply, the others run */
    brun_t r;
    char dir[256];
    cli_tmpdir_make(dir, sizeof dir, "cliball");
    cli_run_ex(&r, dir, (const char *[]){ "bracket", "--geometry", "sphere", "--family", "fibonacci", "--d", "3", "--n",
                                          "100", "--beta", "1e60", "--eps", "0.1", "--format", "json", NULL }, 0, 120);
    ck_assert_msg(r.status == 0 && strstr(r.out, "\"lower\":"), "exit %d: %s", r.status, r.err);
    ck_assert_msg(!strstr(r.out, "\"routes\":\"polynomial") && !strstr(r.out, ",polynomial"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "{\"route\":\"polynomial\",\"decision\":\"not applicable\""), "%s", r.out);
    /* above it, on a sphere set that is no packing at this beta (pairs 1e-5 apart): refused, naming --beta */
    double x[12 * 3];
    for (int i = 0; i < 6; i++) {
        double t = 0.9 * i, u[3] = { cos(t), sin(t) * 0.6, sin(t) * 0.8 };
        double v[3] = { u[0] + 1e-5, u[1], u[2] };
        double nv = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        for (int c = 0; c < 3; c++) {
            x[6 * i + c] = u[c];
            x[6 * i + 3 + c] = v[c] / nv;
        }
    }
    char path[300];
    snprintf(path, sizeof path, "%s/near.npy", dir);
    ck_assert_int_eq(npy_write(path, x, 12, 3), AR_OK);
    cli_expect_refused(dir, (const char *[]){ "bracket", "--points", path, "--beta", "1e8", "--eps", "0.1", "--engine",
                                              "scale", NULL }, 2, "lower beta, or use engine dense", 60);
    cli_tmpdir_remove(dir);
}
END_TEST

/* Issue 14 item 12: above the dense size, when nothing certifies, the trivial
 * bracket is "inconclusive", in text and JSON (it used to be printed as
 * certified: [1, 4100] after 52 s).  Fast reproduction: 300 points of the
 * line in [-1.5, 1.5] at beta 0.05, the ball route's dense certificates off
 * (ATTNRANK_BALL_DENSE_MAX=0) and only the structured routes (--engine scale). */
START_TEST(test_trivial_is_inconclusive)
{
    char dir[256], path[300];
    cli_tmpdir_make(dir, sizeof dir, "cliball");
    double x[300];
    test_rng_init(test_seed() + 12);
    for (size_t i = 0; i < 300; i++)
        x[i] = 3.0 * test_unif() - 1.5;
    snprintf(path, sizeof path, "%s/line.npy", dir);
    ck_assert_int_eq(npy_write(path, x, 300, 1), AR_OK);
    ck_assert_int_eq(setenv("ATTNRANK_BALL_DENSE_MAX", "0", 1), 0);
    brun_t r;
    cli_run_ex(&r, dir, (const char *[]){ "bracket", "--points", path, "--beta", "0.05", "--eps", "0.1", "--engine",
                                          "scale", NULL }, 0, 120);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_msg(strstr(r.out, "rank_eps   in [1, 300]   (inconclusive)"), "%s", r.out);
    cli_run_ex(&r, dir, (const char *[]){ "bracket", "--points", path, "--beta", "0.05", "--eps", "0.1", "--engine",
                                          "scale", "--format", "json", NULL }, 0, 120);
    ck_assert_msg(r.status == 0 && strstr(r.out, "\"status\":\"inconclusive\""), "exit %d: %s", r.status, r.out);
    unsetenv("ATTNRANK_BALL_DENSE_MAX");
    cli_run_ex(&r, dir, (const char *[]){ "bracket", "--points", path, "--beta", "0.05", "--eps", "0.1", NULL }, 0, 120);
    ck_assert_msg(r.status == 0 && strstr(r.out, "(certified)"), "exit %d: %s", r.status, r.out);
    cli_tmpdir_remove(dir);
}
END_TEST

/* A ball bracket reports its stages under --progress (issue 33 item 7: `bracket --geometry ball`
 * refused --progress and printed nothing for 17 s): every stage from ATTNRANK_PROGRESS_AFTER = 0 on,
 * the ball route's cluster nets among them. */
START_TEST(test_ball_progress)
{
    brun_t r;
    setenv("ATTNRANK_PROGRESS_AFTER", "0", 1);
    run(&r, (const char *[]){ "bracket", "--geometry", "ball", "--family", "dense", "--d", "2", "--rho0", "0",
                              "--beta", "60", "--eps", "0.1", "--n", "600", "--progress", "--format", "json", NULL });
    unsetenv("ATTNRANK_PROGRESS_AFTER");
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    ck_assert_msg(strstr(r.err, "[bracket ") && strstr(r.err, "ball: cluster certificate"), "stderr: %s", r.err);
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
    tcase_add_test(tc, test_generators_bounded);
    tcase_add_test(tc, test_huge_beta);
    tcase_add_test(tc, test_trivial_is_inconclusive);
    tcase_add_test(tc, test_ball_progress);
    suite_add_tcase(s, tc);
    return s;
}
