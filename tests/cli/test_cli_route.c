/* test_cli_route.c -- `attnrank bracket` names the route of each end, in
 * text and JSON, and --engine restricts the routes (proofs-notes/routes.md).
 * The binary is $ATTNRANK_BIN (set by `make check`), default bin/attnrank. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "testutil.h"
#include "cli/cliutil.h"

/* stdout of `attnrank bracket ARGS` into buf; returns the exit status. */
static int bracket_out(const char *args, char *buf, size_t cap)
{
    const char *b = getenv("ATTNRANK_BIN");
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s bracket %s 2>/dev/null", b ? b : "bin/attnrank", args);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    size_t n = fread(buf, 1, cap - 1, p);
    buf[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

START_TEST(test_polygon_text_and_json)
{
    static char out[8192];
    const char *inst = "--geometry sphere --family polygon --d 2 --n 600 --beta 300 --eps 0.1";
    char args[256];
    ck_assert_int_eq(bracket_out(inst, out, sizeof out), 0);
    ck_assert_msg(strstr(out, "by circulant route") != NULL, "text output names no circulant route:\n%s", out);
    ck_assert_msg(strstr(out, "regular 600-gon recognised") != NULL, "%s", out);
    snprintf(args, sizeof args, "%s --format json", inst);
    ck_assert_int_eq(bracket_out(args, out, sizeof out), 0);
    ck_assert_msg(strstr(out, "\"upper_route\":\"circulant\"") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "\"polygon_n\":600") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "\"source\":\"polygon n=600 d=2\"") != NULL, "source field broken: %s", out);
    snprintf(args, sizeof args, "%s --format json --engine dense", inst);
    ck_assert_int_eq(bracket_out(args, out, sizeof out), 0);
    ck_assert_msg(strstr(out, "\"routes\":\"dense\"") != NULL, "%s", out);
}
END_TEST

START_TEST(test_sphere_polynomial_route)
{
    static char out[8192];
    ck_assert_int_eq(bracket_out("--geometry sphere --family fibonacci --d 3 --n 300 --beta 10 --eps 0.1 --format json",
                                 out, sizeof out), 0);
    ck_assert_msg(strstr(out, "\"routes\":\"polynomial,dense\"") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "\"upper_route\":\"polynomial\"") != NULL, "%s", out);
}
END_TEST

/* Above 1000 points the dense route certifies its upper end with rsvd (seed reported, double
 * enclosure); --upper svd keeps the full SVD; --seed-sketch is reported; --progress prints the
 * stages on stderr (ATTNRANK_PROGRESS_AFTER=0: from the start), JSON alone prints nothing there;
 * generate --geometry ball writes uniform ball points and refuses other families. */
START_TEST(test_rsvd_progress_cli)
{
    static cli_run_t r;
    char dir[256], q[300], k[300];
    cli_tmpdir_make(dir, sizeof dir, "rsvd");
    snprintf(q, sizeof q, "%s/Q.npy", dir);
    snprintf(k, sizeof k, "%s/K.npy", dir);
    const char *gq[] = { "generate", "--geometry", "ball", "--family", "uniform", "--d", "3", "--n", "1200",
                         "--seed", "1", "--out", q, NULL };
    cli_run_ex(&r, dir, gq, 0, 60);
    ck_assert_msg(r.status == 0 && strstr(r.out, "uniform in the unit ball"), "%d %s %s", r.status, r.out, r.err);
    const char *gk[] = { "generate", "--geometry", "ball", "--family", "uniform", "--d", "3", "--n", "1100",
                         "--seed", "2", "--out", k, NULL };
    cli_run_ex(&r, dir, gk, 0, 60);
    ck_assert_int_eq(r.status, 0);
    const char *gbad[] = { "generate", "--geometry", "ball", "--family", "shells", "--d", "3", "--n", "10",
                           "--out", k, NULL };
    cli_run_ex(&r, dir, gbad, 0, 60);
    ck_assert_int_eq(r.status, 2);
    const char *js[] = { "bracket", "--queries", q, "--keys", k, "--beta", "6", "--eps", "0.15", "--format", "json",
                         NULL };
    cli_run_ex(&r, dir, js, 0, 120);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "\"upper_certificate\":\"rsvd\"") && strstr(r.out, "\"enclosure\":\"double\"") &&
                  strstr(r.out, "\"rsvd_seed\":20110217") && strstr(r.out, "\"streamed\":false"), "%s", r.out);
    ck_assert_msg(r.err[0] == '\0', "JSON without --progress wrote to stderr: %s", r.err);
    const char *sv[] = { "bracket", "--queries", q, "--keys", k, "--beta", "6", "--eps", "0.15", "--format", "json",
                         "--upper", "svd", NULL };
    cli_run_ex(&r, dir, sv, 0, 120);
    ck_assert_msg(r.status == 0 && strstr(r.out, "\"upper_certificate\":\"svd\"") && !strstr(r.out, "rsvd_seed"),
                  "%s", r.out);
    setenv("ATTNRANK_PROGRESS_AFTER", "0", 1);
    const char *pr[] = { "bracket", "--queries", q, "--keys", k, "--beta", "6", "--eps", "0.15", "--progress",
                         "--seed-sketch", "7", NULL };
    cli_run_ex(&r, dir, pr, 0, 120);
    unsetenv("ATTNRANK_PROGRESS_AFTER");
    ck_assert_msg(r.status == 0 && strstr(r.out, "seed 7,") && strstr(r.out, "by dense route, rsvd"), "%s", r.out);
    ck_assert_msg(strstr(r.err, "[bracket") && strstr(r.err, "rsvd: sketch of") && strstr(r.err, "lower:"), "%s",
                  r.err);
    const char *bad[] = { "bracket", "--queries", q, "--keys", k, "--beta", "6", "--eps", "0.15", "--seed-sketch",
                          "x", NULL };
    cli_run_ex(&r, dir, bad, 0, 60);
    ck_assert_int_eq(r.status, 2);
    cli_tmpdir_remove(dir);
}
END_TEST

Suite *suite_cli_route(void)
{
    Suite *s = suite_create("cli_route");
    TEST_TCASE(tc, "cli_route");
    tcase_add_test(tc, test_polygon_text_and_json);
    tcase_add_test(tc, test_sphere_polynomial_route);
    tcase_add_test(tc, test_rsvd_progress_cli);
    suite_add_tcase(s, tc);
    return s;
}
