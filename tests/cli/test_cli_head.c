/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_cli_head.c -- `attnrank head` end to end: the documented JSON keys
 * and values on small exact heads (r = r_exact, invisible directions,
 * weights-only mode), and bad input (wrong shapes, NaN, mismatched
 * dimensions or multiplicity counts, tau outside (0, 2), mixed modes): one
 * line on stderr, nothing on stdout, exit 2 or 1, never a crash.  The
 * binary is $ATTNRANK_BIN (set by `make check`), default bin/attnrank. */
#include <check.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "testutil.h"
#include "cli/cliutil.h"
#include "constructions/formats/npy.h"

typedef cli_run_t run_t;

static char tmpdir[256];

static void run(run_t *r, const char *const *args)
{
    cli_run_ex(r, tmpdir, args, 0, 0);
}

static void setup(void)
{
    cli_tmpdir_make(tmpdir, sizeof tmpdir, "clihead");
}

static void teardown(void)
{
    cli_tmpdir_remove(tmpdir);
}

static const char *save(const char *name, const double *x, size_t r, size_t c)
{
    static char paths[8][300];
    static int k = 0;
    char *p = paths[k++ % 8];
    snprintf(p, 300, "%s/%s", tmpdir, name);
    ck_assert_int_eq(npy_write(p, x, r, c), AR_OK);
    return p;
}

/* a failing run: exactly one line "attnrank: ..." on stderr, nothing on stdout */
static void expect_fail(const char *const *args, int code)
{
    run_t r;
    run(&r, args);
    ck_assert_msg(r.status == code, "exit %d (want %d), stderr: %s", r.status, code, r.err);
    ck_assert_msg(r.out[0] == '\0', "stdout not empty: %s", r.out);
    ck_assert_msg(strncmp(r.err, "attnrank: ", 10) == 0, "stderr: %s", r.err);
    char *nl = strchr(r.err, '\n');
    ck_assert_msg(nl && nl[1] == '\0', "stderr is not one line: %s", r.err);
}

/* integer value of "key": in JSON text (-1 if null or missing) */
static long json_int(const char *s, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(s, pat);
    if (!p)
        return -2;
    p += strlen(pat);
    if (!strncmp(p, "null", 4))
        return -1;
    return strtol(p, NULL, 10);
}

/* small exact head: q, k integers in a 2-dim subspace of dh = 5 plus a key
 * offset and query parts orthogonal to the key differences: r = r_exact = 2 */
START_TEST(test_instance_json)
{
    double Q[12 * 5], K[10 * 5];
    rng_t g;
    rng_init(&g, test_seed() + 901);
    for (size_t i = 0; i < 12; i++) {
        double a = (double)(long)(rng_u64(&g) % 7) - 3, b = (double)(long)(rng_u64(&g) % 7) - 3;
        double z = (double)(long)(rng_u64(&g) % 9) - 4;
        double row[5] = { a + b, a - b, b, z, 2 * z };            /* parts 3, 4: invisible */
        memcpy(Q + 5 * i, row, sizeof row);
    }
    for (size_t j = 0; j < 10; j++) {
        double a = (double)(long)(rng_u64(&g) % 5) - 2, b = (double)(long)(rng_u64(&g) % 5) - 2;
        double row[5] = { a + b, a - b, b, 7, 7 };                /* common offset in 3, 4 */
        memcpy(K + 5 * j, row, sizeof row);
    }
    const char *pq = save("q.npy", Q, 12, 5), *pk = save("k.npy", K, 10, 5);
    run_t r;
    const char *a1[] = { "head", "--queries", pq, "--keys", pk, "--eps", "0.1", "--tau", "0.05,0.5",
                         "--format", "json", NULL };
    run(&r, a1);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_int_eq(json_int(r.out, "r"), 2);
    ck_assert_int_eq(json_int(r.out, "r_exact"), 2);
    ck_assert_int_eq(json_int(r.out, "head_dim"), 5);
    ck_assert_int_eq(json_int(r.out, "r_tau"), 2);
    long lo = json_int(r.out, "lower"), up = json_int(r.out, "upper");
    ck_assert(lo >= 1 && lo <= up && up <= 10);
    ck_assert(strstr(r.out, "\"eta\":") && strstr(r.out, "\"tol\":") && strstr(r.out, "\"attnrank\":"));
    ck_assert(strstr(r.out, "\"beta\":0.4472135954999579"));     /* default 1/sqrt(5) */
    /* --exact-max 0: no exact rank */
    const char *a3[] = { "head", "--queries", pq, "--keys", pk, "--exact-max", "0", "--format", "json", NULL };
    run(&r, a3);
    ck_assert_msg(r.status == 0 && json_int(r.out, "r_exact") == -1 && json_int(r.out, "r") == 2, "%s", r.out);
    /* text output too */
    const char *a2[] = { "head", "--queries", pq, "--keys", pk, "--beta", "2", NULL };
    run(&r, a2);
    ck_assert_msg(r.status == 0 && strstr(r.out, "r          2") && strstr(r.out, "rank_eps   in ["), "%s", r.out);
}
END_TEST

START_TEST(test_weights_json)
{
    double WQ[8 * 4], WK[8 * 4];
    rng_t g;
    rng_init(&g, test_seed() + 902);
    for (size_t t = 0; t < 32; t++) {
        WQ[t] = (double)(long)(rng_u64(&g) % 5) - 2;
        WK[t] = (t % 4 < 2) ? (double)(long)(rng_u64(&g) % 5) - 2 : 0.0;   /* rank <= 2 */
    }
    const char *pq = save("wq.npy", WQ, 8, 4), *pk = save("wk.npy", WK, 8, 4);
    run_t r;
    const char *a[] = { "head", "--wq", pq, "--wk", pk, "--radius", "1", "--tau", "0.01", "--format", "json", NULL };
    run(&r, a);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    long rr = json_int(r.out, "r");
    ck_assert(rr >= 1 && rr <= 2);
    ck_assert_int_eq(json_int(r.out, "r_exact"), rr);
    ck_assert_int_eq(json_int(r.out, "r_tau"), rr);
    ck_assert_int_eq(json_int(r.out, "head_dim"), 4);
}
END_TEST

START_TEST(test_bad_input)
{
    double Q[6] = { 1, 2, 3, 4, 5, 6 }, K3[6] = { 1, 0, 0, 1, 1, 1 }, K2[4] = { 1, 0, 0, 1 };
    const char *pq = save("q.npy", Q, 2, 3), *pk = save("k.npy", K3, 2, 3), *pk2 = save("k2.npy", K2, 2, 2);
    double Qn[6] = { 1, 2, 3, 4, 5, 6 };
    /* NaN: npy_write refuses it, so patch the payload of a valid file */
    Qn[2] = 12345.0;
    const char *pqn = save("qn.npy", Qn, 2, 3);
    {
        FILE *fp = fopen(pqn, "r+b");
        ck_assert(fp != NULL);
        unsigned char buf[4096];
        size_t len = fread(buf, 1, sizeof buf, fp);
        double mark = 12345.0, nan = NAN;
        int patched = 0;
        for (size_t o = 0; o + 8 <= len; o++)
            if (!memcmp(buf + o, &mark, 8)) {
                fseek(fp, (long)o, SEEK_SET);
                fwrite(&nan, 8, 1, fp);
                patched = 1;
                break;
            }
        fclose(fp);
        ck_assert(patched);
    }
    char pw[300];
    snprintf(pw, sizeof pw, "%s/w.txt", tmpdir);
    FILE *f = fopen(pw, "w");
    fputs("1\n2\n3\n", f);                                   /* 3 weights for 2 keys */
    fclose(f);
    const char *c1[] = { "head", "--queries", pq, "--keys", pk2, NULL };                 /* dims 3 vs 2 */
    expect_fail(c1, 2);
    const char *c2[] = { "head", "--queries", pqn, "--keys", pk, NULL };                 /* NaN */
    expect_fail(c2, 2);
    const char *c3[] = { "head", "--queries", pq, "--keys", pk, "--tau", "2", NULL };     /* tau >= 2 */
    expect_fail(c3, 2);
    const char *c4[] = { "head", "--queries", pq, "--keys", pk, "--tau", "0", NULL };
    expect_fail(c4, 2);
    const char *c5[] = { "head", "--queries", pq, "--keys", pk, "--tau", "0.1,abc", NULL };
    expect_fail(c5, 2);
    const char *c6[] = { "head", "--queries", pq, "--keys", pk, "--eps", "1.5", NULL };
    expect_fail(c6, 2);
    const char *c7[] = { "head", "--queries", pq, "--keys", pk, "--beta", "-1", NULL };
    expect_fail(c7, 2);
    const char *c8[] = { "head", "--queries", pq, "--keys", pk, "--multiplicities", pw, NULL };
    expect_fail(c8, 2);
    const char *c9[] = { "head", "--queries", pq, NULL };                               /* no keys */
    expect_fail(c9, 2);
    const char *c10[] = { "head", "--queries", pq, "--keys", pk, "--wq", pq, NULL };     /* mixed modes */
    expect_fail(c10, 2);
    const char *c11[] = { "head", "--wq", pq, "--wk", pk2, "--radius", "1", NULL };      /* shapes differ */
    expect_fail(c11, 2);
    const char *c12[] = { "head", "--wq", pq, "--wk", pk, "--radius", "-2", NULL };
    expect_fail(c12, 2);
    const char *c13[] = { "head", "--wq", pq, "--wk", pk, NULL };                        /* no radius */
    expect_fail(c13, 2);
    const char *c14[] = { "head", "--wq", pq, "--wk", pk, "--radius", "1", "--eps", "0.1", NULL };
    expect_fail(c14, 2);
    const char *c15[] = { "head", "--queries", "/nonexistent/q.npy", "--keys", pk, NULL };
    run_t r;
    run(&r, c15);
    ck_assert(r.status == 1 || r.status == 2);
    ck_assert(r.out[0] == '\0');
    const char *c16[] = { "head", "--queries", pq, "--keys", pk, "--format", "tsv", NULL };
    expect_fail(c16, 2);
    const char *c17[] = { "head", NULL };
    expect_fail(c17, 2);
}
END_TEST

/* Lists are parsed strictly: an empty item is refused, not skipped (issue 14
 * item 10: "--tau 0.1,,0.2" used to be read as two values); numbers that
 * underflow or are subnormal say so (item 11: they used to be "not a finite
 * number").  Every instance here is valid, so the old parser ran them. */
START_TEST(test_strict_lists_and_wording)
{
    double Q[6] = { 1, 2, 3, 4, 5, 6 }, K[6] = { 1, 0, 0, 1, 1, 1 };
    const char *pq = save("q.npy", Q, 2, 3), *pk = save("k.npy", K, 2, 3);
    const char *lists[] = { "0.1,,0.2", ",0.1", "0.1,", ",", "" };
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        cli_expect_refused(tmpdir, (const char *[]){ "head", "--queries", pq, "--keys", pk, "--tau", lists[i], NULL },
                           2, "--tau: empty item", 60);
    run_t r;
    run(&r, (const char *[]){ "head", "--queries", pq, "--keys", pk, "--tau", "0.1,0.2", NULL });
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    cli_expect_refused(tmpdir, (const char *[]){ "head", "--queries", pq, "--keys", pk, "--tau", "1e-400", NULL }, 2,
                       "--tau: '1e-400' is below the smallest positive double", 60);
    cli_expect_refused(tmpdir, (const char *[]){ "head", "--queries", pq, "--keys", pk, "--tau", "0.1,1e-400", NULL },
                       2, "below the smallest positive double", 60);
    cli_expect_refused(tmpdir, (const char *[]){ "head", "--wq", pq, "--wk", pk, "--radius", "1e-320", NULL }, 2,
                       "--radius: '1e-320' is subnormal", 60);
    cli_expect_refused(tmpdir, (const char *[]){ "head", "--queries", pq, "--keys", pk, "--beta", "1e400", NULL }, 2,
                       "--beta: '1e400' is beyond the largest double", 60);
    cli_expect_refused(tmpdir, (const char *[]){ "head", "--queries", pq, "--keys", pk, "--beta", "nan", NULL }, 2,
                       "not a finite number", 60);
}
END_TEST

Suite *suite_cli_head(void)
{
    Suite *s = suite_create("cli_head");
    TEST_TCASE(tc, "core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_instance_json);
    tcase_add_test(tc, test_weights_json);
    tcase_add_test(tc, test_bad_input);
    tcase_add_test(tc, test_strict_lists_and_wording);
    suite_add_tcase(s, tc);
    return s;
}
