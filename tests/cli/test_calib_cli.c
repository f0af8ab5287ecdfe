/* test_calib_cli.c -- `attnrank calib` end to end: usage errors and missing
 * data give one stderr line and the documented exit code; with the cached
 * model (`make calib-data`; skipped with a printed reason otherwise) the JSON
 * output has one line per (layer, head, scale) with the documented fields
 * and a final line with spearman and p_value. */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "testutil.h"
#include "cli/cliutil.h"

typedef cli_run_t crun_t;

static char cdir[256];

static void setup(void)
{
    cli_tmpdir_make(cdir, sizeof cdir, "calibcli");
}

static void teardown(void)
{
    cli_tmpdir_remove(cdir);
}

static void crun(crun_t *r, const char *const *args)
{
    cli_run_ex(r, cdir, args, 0, 0);
}

static void one_error_line(const crun_t *r, int code)
{
    ck_assert_msg(r->status == code, "exit %d, expected %d (stderr: %s)", r->status, code, r->err);
    ck_assert_str_eq(r->out, "");
    ck_assert_msg(strncmp(r->err, "attnrank: ", 10) == 0, "stderr '%s'", r->err);
    ck_assert_ptr_eq(strchr(r->err, '\n'), r->err + strlen(r->err) - 1);
}

START_TEST(calib_errors)
{
    crun_t r;
    const char *a1[] = { "calib", "--data", "/nonexistent/attnrank", NULL };
    crun(&r, a1);
    one_error_line(&r, 1);
    ck_assert_ptr_nonnull(strstr(r.err, "make calib-data"));
    const char *a2[] = { "calib", "--eps", "2", NULL };
    crun(&r, a2);
    one_error_line(&r, 2);
    const char *a3[] = { "calib", "--format", "csv", NULL };
    crun(&r, a3);
    one_error_line(&r, 2);
    const char *a4[] = { "calib", "--taus", "0.1,0.05", "--data", "/nonexistent", NULL };
    crun(&r, a4);
    ck_assert_int_ne(r.status, 0);
    const char *a5[] = { "calib", "--tau-main", "0.3", NULL };
    crun(&r, a5);
    one_error_line(&r, 2);
    const char *a6[] = { "calib", "--sentences", "0", NULL };
    crun(&r, a6);
    one_error_line(&r, 2);
    const char *a7[] = { "calib", "--scales", "1,x", NULL };
    crun(&r, a7);
    one_error_line(&r, 2);
    const char *a9[] = { "calib", "--per-sentence", NULL };
    crun(&r, a9);
    one_error_line(&r, 2);
    /* empty list items are refused before the data is looked for (the old
     * parser read "1,,2" as two scales and failed later on the data, exit 1) */
    cli_expect_refused(cdir, (const char *[]){ "calib", "--scales", "1,,2", "--data", "/nonexistent", NULL }, 2,
                       "--scales: empty item", 60);
    cli_expect_refused(cdir, (const char *[]){ "calib", "--taus", "0.05,0.1,", "--data", "/nonexistent", NULL }, 2,
                       "--taus: empty item", 60);
    const char *a8[] = { "calib", "--help", NULL };
    crun(&r, a8);
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "Usage: attnrank calib"));
}
END_TEST

START_TEST(calib_json)
{
    struct stat sb;
    const char *d = getenv("ATTNRANK_CALIB_DIR");
    char p[600];
    snprintf(p, sizeof p, "%s/model/package/dist/model.json", d && *d ? d : ".cache/calib");
    if (stat(p, &sb) != 0 || stat("/usr/share/common-licenses/Apache-2.0", &sb) != 0) {
        printf("test_calib_cli: SKIP calib JSON run: %s or the license texts absent (run 'make calib-data')\n", p);
        return;
    }
    crun_t r;
    const char *a[] = { "calib", "--data", d && *d ? d : ".cache/calib", "--sentences", "2", "--scales", "1",
                        "--perms", "100", "--format", "json", NULL };
    crun(&r, a);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    size_t lines = 0;
    for (char *line = strtok(r.out, "\n"); line; line = strtok(NULL, "\n")) {
        lines++;
        ck_assert(line[0] == '{' && line[strlen(line) - 1] == '}');
        if (lines <= 8) {
            const char *keys[] = { "\"layer\":", "\"head\":", "\"scale\":1,", "\"r\":", "\"r_tau\":{", "\"upper\":",
                                   "\"lower\":" };
            for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
                ck_assert_msg(strstr(line, keys[k]) != NULL, "line %zu lacks %s: %s", lines, keys[k], line);
        } else {
            ck_assert_ptr_nonnull(strstr(line, "\"spearman\":"));
            ck_assert_ptr_nonnull(strstr(line, "\"p_value\":"));
        }
    }
    ck_assert_uint_eq(lines, 9);
    /* per-sentence lines first: 8 settings x 2 sentences */
    const char *b[] = { "calib", "--data", d && *d ? d : ".cache/calib", "--sentences", "2", "--scales", "1",
                        "--perms", "100", "--format", "json", "--per-sentence", NULL };
    crun(&r, b);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    size_t sent = 0;
    lines = 0;
    for (char *line = strtok(r.out, "\n"); line; line = strtok(NULL, "\n")) {
        lines++;
        if (strstr(line, "\"sentence\":")) {
            ck_assert_uint_le(lines, 16);
            ck_assert_ptr_nonnull(strstr(line, "\"upper\":"));
            sent++;
        }
    }
    ck_assert_uint_eq(sent, 16);
    ck_assert_uint_eq(lines, 25);
}
END_TEST

Suite *suite_calib_cli(void)
{
    Suite *s = suite_create("calib_cli");
    TEST_TCASE(tc, "calib_cli");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, calib_errors);
    tcase_add_test(tc, calib_json);
    suite_add_tcase(s, tc);
    return s;
}
