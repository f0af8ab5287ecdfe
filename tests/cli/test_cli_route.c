/* test_cli_route.c -- `attnrank bracket` names the route of each end, in
 * text and JSON, and --engine restricts the routes (proofs-notes/routes.md).
 * The binary is $ATTNRANK_BIN (set by `make check`), default bin/attnrank. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "testutil.h"

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

Suite *suite_cli_route(void)
{
    Suite *s = suite_create("cli_route");
    TEST_TCASE(tc, "cli_route");
    tcase_add_test(tc, test_polygon_text_and_json);
    tcase_add_test(tc, test_sphere_polynomial_route);
    suite_add_tcase(s, tc);
    return s;
}
