/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_merge.c -- sharded sweeps end to end (issue 17): `attnrank verify
 * --shard K/N` and `scale --shard K/N` merged by `attnrank merge` give the
 * one-process run's output, every number but the times identical (shards
 * run with other BLAS and FLINT thread counts than the one-process run);
 * every defect of a shard set is refused with one line naming the file and
 * nothing on stdout (a merge over incomplete shards never prints a pass);
 * a complete shard is skipped and an interrupted one resumed; a merged
 * asserted row that does not pass gives exit status 3. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "testutil.h"
#include "cli/cliutil.h"
#include "cli/shardutil.h"

static char dir[256];

static void setup(void)
{
    cli_tmpdir_make(dir, sizeof dir, "merge");
}

static void teardown(void)
{
    cli_tmpdir_remove(dir);
}

static cli_run_t *run(const char *const *args)
{
    static cli_run_t r;
    cli_run_ex(&r, dir, args, 0, 600);
    return &r;
}

/* path of name in dir (static, two alternating buffers) */
static const char *P(const char *name)
{
    static char b[4][400];
    static int k;
    k = (k + 1) % 4;
    snprintf(b[k], sizeof b[k], "%s/%s", dir, name);
    return b[k];
}

/* Every "seconds":NUMBER becomes "seconds":0 (times are the one thing allowed to differ). */
static void strip_seconds(char *s)
{
    char *p = s;
    while ((p = strstr(p, "\"seconds\":"))) {
        p += 10;
        char *e = p;
        while (*e && strchr("0123456789.eE+-", *e))
            e++;
        *p = '0';
        memmove(p + 1, e, strlen(e) + 1);
    }
}

/* Cut every markdown table row "| ... | x |" before its last cell. */
static void strip_md_last(char *s)
{
    char *line = s;
    while (*line) {
        char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        if (len > 2 && line[0] == '|' && line[len - 1] == '|') {
            char *q = line + len - 2;
            while (q > line && *q != '|')
                q--;
            memmove(q + 1, line + len, strlen(line + len) + 1);
            len = (size_t)(q + 1 - line);
        }
        line += len;
        if (*line == '\n')
            line++;
    }
}

static void ok_run(const char *const *args, char *out, size_t cap)
{
    cli_run_t *r = run(args);
    ck_assert_msg(r->status == 0, "%s %s: exit %d: %s", args[0], args[1], r->status, r->err);
    if (out) {
        snprintf(out, cap, "%s", r->out);
        strip_seconds(out);
    }
}

static void refused(const char *const *args, const char *needle, const char *file)
{
    cli_expect_refused(dir, args, 2, needle, 120);
    if (file) {
        cli_run_t *r = run(args);
        ck_assert_msg(strstr(r->err, file) != NULL, "[%s] does not name %s", r->err, file);
    }
}

static char one[1 << 17], merged[1 << 17];

START_TEST(test_verify_merge_identical)
{
    /* claim S d = 3: two exponent rows and the saturation row (its packing apart) in 3 shards */
    ok_run((const char *[]){ "verify", "--claim", "S", "--d", "3", "--format", "json", NULL }, one, sizeof one);
    for (int k = 0; k < 3; k++) {
        char sh[8], out[16];
        snprintf(sh, sizeof sh, "%d/3", k);
        snprintf(out, sizeof out, "s%d.jsonl", k);
        if (k == 1) {   /* other thread counts than the one-process run */
            setenv("OPENBLAS_NUM_THREADS", "1", 1);
            setenv("ATTNRANK_FLINT_THREADS", "2", 1);
        }
        ok_run((const char *[]){ "verify", "--claim", "S", "--d", "3", "--shard", sh, "--out", P(out), NULL }, NULL, 0);
        unsetenv("OPENBLAS_NUM_THREADS");
        unsetenv("ATTNRANK_FLINT_THREADS");
    }
    ok_run((const char *[]){ "merge", "--format", "json", P("s2.jsonl"), P("s0.jsonl"), P("s1.jsonl"), NULL }, merged,
           sizeof merged);
    ck_assert_msg(strstr(one, "\"kind\":\"saturation\"") && strstr(one, "\"verdict\":\"pass\""), "%s", one);
    ck_assert_msg(strcmp(one, merged) == 0, "merged differs from the one-process run:\n%.3000s\n---\n%.3000s", one, merged);
    cli_run_t *r = run((const char *[]){ "merge", P("s0.jsonl"), P("s1.jsonl"), P("s2.jsonl"), NULL });
    ck_assert_msg(r->status == 0 && strstr(r->out, "saturation in n") && strstr(r->out, "pass"), "%d %s", r->status,
                  r->out);
    /* claim T's cases in 2 shards */
    ok_run((const char *[]){ "verify", "--claim", "T", "--format", "json", NULL }, one, sizeof one);
    for (int k = 0; k < 2; k++) {
        char sh[8], out[16];
        snprintf(sh, sizeof sh, "%d/2", k);
        snprintf(out, sizeof out, "t%d.jsonl", k);
        if (k == 1)     /* another BLAS thread count (claim T's eta's at rounding level must not move) */
            setenv("OPENBLAS_NUM_THREADS", "1", 1);
        else
            setenv("OPENBLAS_NUM_THREADS", "2", 1);
        ok_run((const char *[]){ "verify", "--claim", "T", "--shard", sh, "--out", P(out), NULL }, NULL, 0);
        unsetenv("OPENBLAS_NUM_THREADS");
    }
    ok_run((const char *[]){ "merge", "--format=json", P("t0.jsonl"), P("t1.jsonl"), NULL }, merged, sizeof merged);
    ck_assert_msg(strstr(one, "\"claim\":\"T\",\"kind\":\"instance\""), "%s", one);
    ck_assert_msg(strcmp(one, merged) == 0, "claim T merged differs:\n%.3000s\n---\n%.3000s", one, merged);
}
END_TEST

START_TEST(test_scale_merge_identical)
{
    const char *s[] = { "scale", "--claim", "S", "--d", "3", "--beta", "20:60:3", "--eps", "0.1", "--engine", "dense" };
    const char *b[] = { "scale", "--claim", "B", "--d", "2", "--beta", "50:400:4", "--eps", "0.1", "--rho0", "0" };
    const char *const *sw[2] = { s, b };
    for (int q = 0; q < 2; q++) {
        const char *a[20];
        for (int i = 0; i < 11; i++)
            a[i] = sw[q][i];
        for (int f = 0; f < 2; f++) {
            const char *fmt = f ? "json" : "md";
            a[11] = "--format";
            a[12] = fmt;
            a[13] = NULL;
            ok_run(a, one, sizeof one);
            if (f == 0) {
                for (int k = 0; k < 2; k++) {
                    char sh[8], out[16];
                    snprintf(sh, sizeof sh, "%d/2", k);
                    snprintf(out, sizeof out, "c%d.jsonl", k);
                    a[11] = "--shard";
                    a[12] = sh;
                    a[13] = "--out";
                    a[14] = P(out);
                    a[15] = NULL;
                    ok_run(a, NULL, 0);
                }
            }
            ok_run((const char *[]){ "merge", "--format", f ? "json" : "text", P("c0.jsonl"), P("c1.jsonl"), NULL },
                   merged, sizeof merged);
            if (f == 0) {   /* the markdown table's last column is the time */
                strip_md_last(one);
                strip_md_last(merged);
            }
            ck_assert_msg(strcmp(one, merged) == 0, "scale %s merged differs:\n%s\n---\n%s", sw[q][2], one, merged);
        }
        ok_run((const char *[]){ "merge", "--format", "tsv", P("c0.jsonl"), P("c1.jsonl"), NULL }, merged,
               sizeof merged);
        ck_assert_msg(strstr(merged, "# attnrank scale --claim ") && strstr(merged, "commit"), "%s", merged);
        remove(P("c0.jsonl"));
        remove(P("c1.jsonl"));
    }
}
END_TEST

START_TEST(test_merge_refusals)
{
    for (int k = 0; k < 3; k++) {
        char sh[8], out[16];
        snprintf(sh, sizeof sh, "%d/3", k);
        snprintf(out, sizeof out, "r%d.jsonl", k);
        ok_run((const char *[]){ "verify", "--claim", "R", "--d", "1", "--shard", sh, "--out", P(out), NULL }, NULL, 0);
    }
    const char *r0 = P("r0.jsonl"), *r1 = P("r1.jsonl"), *r2 = P("r2.jsonl");
    char a0[400], a1[400], a2[400], bad[400];
    snprintf(a0, sizeof a0, "%s", r0);
    snprintf(a1, sizeof a1, "%s", r1);
    snprintf(a2, sizeof a2, "%s", r2);
    snprintf(bad, sizeof bad, "%s", P("bad.jsonl"));
    ok_run((const char *[]){ "merge", a0, a1, a2, NULL }, NULL, 0);
    /* a missing shard, a shard twice */
    refused((const char *[]){ "merge", a0, a2, NULL }, "shard 1/3 missing", NULL);
    refused((const char *[]){ "merge", a0, a1, a2, a1, NULL }, "given twice", a1);
    /* shards of other parameters, another version, another precision */
    ok_run((const char *[]){ "verify", "--claim", "R", "--d", "2", "--shard", "1/3", "--out", bad, NULL }, NULL, 0);
    refused((const char *[]){ "merge", a0, bad, a2, NULL }, "other parameters", bad);
    char *t = su_unsealed(a1);
    size_t cap = 2 * strlen(t) + 8192;
    char *m = malloc(cap);
    snprintf(m, cap, "%s", t);
    char *c = strstr(m, "\"commit\":\"");
    ck_assert(c != NULL);
    c[10] = c[10] == 'f' ? 'e' : 'f';
    su_reseal(bad, m);
    refused((const char *[]){ "merge", a0, bad, a2, NULL }, "another version: commit", bad);
    snprintf(m, cap, "%s", t);
    su_replace(m, cap, "\"arb_prec_bits\":96", "\"arb_prec_bits\":128");
    su_reseal(bad, m);
    refused((const char *[]){ "merge", a0, bad, a2, NULL }, "another precision", bad);
    /* a point present twice (in its own shard), a point of another shard */
    snprintf(m, cap, "%s", t);
    char *l2 = strchr(m, '\n') + 1, *l3 = strchr(l2, '\n') + 1;
    char line[2048];
    snprintf(line, sizeof line, "%.*s", (int)(l3 - l2), l2);
    strncat(m, line, cap - strlen(m) - 1);
    su_reseal(bad, m);
    refused((const char *[]){ "merge", a0, bad, a2, NULL }, "present twice", bad);
    char *u0 = su_unsealed(a0);
    const char *rec0 = strchr(u0, '\n') + 1;
    snprintf(m, cap, "%s", t);
    snprintf(line, sizeof line, "%.*s", (int)(strchr(rec0, '\n') + 1 - rec0), rec0);
    strncat(m, line, cap - strlen(m) - 1);
    su_reseal(bad, m);
    refused((const char *[]){ "merge", a0, bad, a2, NULL }, "present twice", bad);
    char bad0[400], *m0 = malloc(cap);
    snprintf(bad0, sizeof bad0, "%s", P("bad0.jsonl"));
    snprintf(m0, cap, "%.*s%s", (int)(rec0 - u0), u0, strchr(rec0, '\n') + 1);
    su_reseal(bad0, m0);
    free(m0);
    refused((const char *[]){ "merge", bad0, bad, a2, NULL }, "belongs to shard 0/3", bad);
    /* a point missing from its shard (consistent end record) */
    snprintf(m, cap, "%.*s", (int)(l2 - m), t);
    su_reseal(bad, m);
    refused((const char *[]){ "merge", a0, bad, a2, NULL }, "incomplete", bad);
    /* truncated, corrupted, not JSON, not a shard file, a directory */
    size_t n;
    char *full = su_file_text(a1, &n);
    FILE *f = fopen(bad, "wb");
    fwrite(full, 1, n - 5, f);
    fclose(f);
    refused((const char *[]){ "merge", a0, bad, a2, NULL }, "truncated", bad);
    f = fopen(bad, "wb");
    fwrite(full, 1, (size_t)(strstr(full, "{\"end\"") - full), f);
    fclose(f);
    refused((const char *[]){ "merge", a0, bad, a2, NULL }, "truncated: no end record", bad);
    char *digit = strstr(full, "\"lower\":");
    ck_assert(digit != NULL);
    digit[8] = digit[8] == '9' ? '8' : '9';
    f = fopen(bad, "wb");
    fwrite(full, 1, n, f);
    fclose(f);
    refused((const char *[]){ "merge", a0, bad, a2, NULL }, "corrupted", bad);
    f = fopen(bad, "wb");
    fputs("{\"attnrank_shard\":1,\n", f);
    fclose(f);
    refused((const char *[]){ "merge", a0, bad, a2, NULL }, "invalid JSON", bad);
    f = fopen(bad, "wb");
    fputs("claim\tbeta\n", f);
    fclose(f);
    refused((const char *[]){ "merge", bad, NULL }, "invalid JSON", bad);
    refused((const char *[]){ "merge", dir, NULL }, "directory", dir);
    cli_expect_refused(dir, (const char *[]){ "merge", P("absent.jsonl"), NULL }, 1, "absent.jsonl", 60);
    /* a record whose beta is not the plan's (consistent end record) */
    snprintf(m, cap, "%s", t);
    char *beta = strstr(m, "\"beta\":");
    ck_assert(beta != NULL);
    beta[7] = beta[7] == '9' ? '8' : '9';
    su_reseal(bad, m);
    refused((const char *[]){ "merge", a0, bad, a2, NULL }, "not the plan's", bad);
    /* usage */
    refused((const char *[]){ "merge", NULL }, "no shard files", NULL);
    refused((const char *[]){ "merge", "--format", "xml", a0, NULL }, "--format", NULL);
    refused((const char *[]){ "merge", "--frobnicate", a0, NULL }, "unknown option", NULL);
    refused((const char *[]){ "merge", "--format", "tsv", a0, a1, a2, NULL }, "tsv", NULL);
    const char *shards[] = { "3/3", "1/0", "a/2", "1/2x", "-1/2", "1", "" };
    for (size_t i = 0; i < sizeof shards / sizeof shards[0]; i++)
        refused((const char *[]){ "verify", "--claim", "R", "--shard", shards[i], "--out", bad, NULL }, "--shard", NULL);
    refused((const char *[]){ "verify", "--claim", "R", "--shard", "0/2", NULL }, "go together", NULL);
    refused((const char *[]){ "verify", "--claim", "R", "--out", bad, NULL }, "go together", NULL);
    refused((const char *[]){ "scale", "--claim", "S", "--d", "3", "--beta", "20:60:3", "--eps", "0.1", "--shard",
                              "0/2", NULL }, "go together", NULL);
    refused((const char *[]){ "verify", "--tier", "some", NULL }, "--tier", NULL);
    /* a merged asserted row that does not pass: exit 3, the verdict printed */
    snprintf(m, cap, "%s", u0);
    su_replace(m, cap, "\"lower\":103,", "\"lower\":2,");
    su_reseal(bad, m);
    cli_run_t *r = run((const char *[]){ "merge", bad, a1, a2, NULL });
    ck_assert_msg(r->status == 3 && strstr(r->out, " fail "), "exit %d: %s %s", r->status, r->out, r->err);
    free(full);
    free(u0);
    free(m);
    free(t);
}
END_TEST

START_TEST(test_resume)
{
    const char *out = P("s.jsonl");
    char path[400], partial[420];
    snprintf(path, sizeof path, "%s", out);
    snprintf(partial, sizeof partial, "%s.partial", path);
    const char *args[] = { "verify", "--claim", "R", "--d", "2", "--shard", "0/2", "--out", path, NULL };
    ok_run(args, NULL, 0);
    size_t n1, n2;
    char *first = su_file_text(path, &n1);
    cli_run_t *r = run(args);
    ck_assert_msg(r->status == 0 && strstr(r->err, "skipped"), "%d %s", r->status, r->err);
    /* an interrupted run: the header and one record in PATH.partial */
    char *keep = strchr(strchr(first, '\n') + 1, '\n') + 1;
    FILE *f = fopen(partial, "wb");
    fwrite(first, 1, (size_t)(keep - first), f);
    fputs("{\"point\":\"R.d2.expo", f);   /* a torn last line */
    fclose(f);
    remove(path);
    r = run(args);
    ck_assert_msg(r->status == 0 && strstr(r->err, "1 of ") && strstr(r->err, "kept"), "%d %s", r->status, r->err);
    char *second = su_file_text(path, &n2);
    *strstr(first, "{\"end\"") = '\0';
    *strstr(second, "{\"end\"") = '\0';
    strip_seconds(first);
    strip_seconds(second);
    ck_assert_msg(strcmp(first, second) == 0, "resumed shard differs:\n%s\n---\n%s", first, second);
    /* another run's file is not taken for this shard's */
    const char *args1[] = { "verify", "--claim", "R", "--d", "2", "--shard", "1/2", "--out", path, NULL };
    r = run(args1);
    ck_assert_msg(r->status == 0 && strstr(r->err, "computing it again"), "%d %s", r->status, r->err);
    free(first);
    free(second);
}
END_TEST

Suite *suite_merge(void)
{
    Suite *s = suite_create("merge");
    TEST_TCASE(tc, "merge");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_verify_merge_identical);
    tcase_add_test(tc, test_scale_merge_identical);
    tcase_add_test(tc, test_merge_refusals);
    tcase_add_test(tc, test_resume);
    suite_add_tcase(s, tc);
    return s;
}
