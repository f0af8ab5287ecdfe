/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_calib_shard.c -- `attnrank calib --shard K/N --out FILE` and `attnrank
 * merge` of its files (sweeps/calib_shard.h, issue 17) on a synthetic model
 * given through a manifest (no cached data needed): the merge of 3 shards,
 * computed with 2, 1 and 2 BLAS threads, prints exactly the one-process JSON (per-sentence lines, settings,
 * associations, p-values, bootstrap intervals) but for the times; a
 * rerun shard is skipped; a missing shard, a shard given twice, a
 * truncated file, shards computed with other options and shards computed
 * on other model data are each refused with one line naming the file. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "testutil.h"
#include "cli/cliutil.h"
#include "cli/shardutil.h"

static char cdir[256];

static void setup(void)
{
    cli_tmpdir_make(cdir, sizeof cdir, "calibshard");
}

static void teardown(void)
{
    cli_tmpdir_remove(cdir);
}

/* Remove every ,"seconds":NUMBER (the only numbers allowed to differ). */
static void strip_seconds(char *s)
{
    const char *key = ",\"seconds\":";
    char *p;
    while ((p = strstr(s, key))) {
        char *q = p + strlen(key);
        while (*q && *q != ',' && *q != '}')
            q++;
        memmove(p, q, strlen(q) + 1);
    }
}

static void run_ok(cli_run_t *r, const char *const *a)
{
    cli_run_ex(r, cdir, a, 0, 0);
    ck_assert_msg(r->status == 0, "%s %s: exit %d: %s", a[0], a[1], r->status, r->err);
}

START_TEST(calib_shards_merge)
{
    su_write_model(cdir, "m", 0);
    su_write_model(cdir, "m2", 7);
    char man[400], man2[400], s[3][400], trunc[400], other[400], alien[400];
    snprintf(man, sizeof man, "%s/m/manifest.json", cdir);
    snprintf(man2, sizeof man2, "%s/m2/manifest.json", cdir);
    for (int k = 0; k < 3; k++)
        snprintf(s[k], sizeof s[k], "%s/shard-%d.jsonl", cdir, k);
    snprintf(trunc, sizeof trunc, "%s/trunc.jsonl", cdir);
    snprintf(other, sizeof other, "%s/other.jsonl", cdir);
    snprintf(alien, sizeof alien, "%s/alien.jsonl", cdir);
    cli_run_t *r = malloc(sizeof *r);
    char *one = malloc(sizeof r->out);
    ck_assert(r && one);

    const char *a1[] = { "calib", "--manifest", man, "--scales", "0.5,1", "--perms", "200", "--boot", "100",
                         "--format", "json", "--per-sentence", NULL };
    run_ok(r, a1);
    strcpy(one, r->out);
    ck_assert_ptr_nonnull(strstr(one, "\"summary\":\"association\""));

    char shard[3][8];
    for (int k = 0; k < 3; k++) {
        snprintf(shard[k], sizeof shard[k], "%d/3", k);
        const char *a[] = { "calib", "--manifest", man, "--scales", "0.5,1", "--perms", "200", "--boot", "100",
                            "--shard", shard[k], "--out", s[k], NULL };
        setenv("OPENBLAS_NUM_THREADS", k == 1 ? "1" : "2", 1);   /* other BLAS thread counts per shard */
        run_ok(r, a);
        unsetenv("OPENBLAS_NUM_THREADS");
        ck_assert_str_eq(r->out, "");
    }
    const char *mg[] = { "merge", "--format", "json", "--per-sentence", s[2], s[0], s[1], NULL };
    run_ok(r, mg);
    strip_seconds(one);
    strip_seconds(r->out);
    ck_assert_msg(strcmp(one, r->out) == 0, "merged output differs from the one-process run:\n%.3000s\n----\n%.3000s", one,
                  r->out);

    /* a complete shard is not computed again */
    const char *again[] = { "calib", "--manifest", man, "--scales", "0.5,1", "--perms", "200", "--boot", "100",
                            "--shard", "1/3", "--out", s[1], NULL };
    run_ok(r, again);
    ck_assert_msg(strstr(r->err, "skipped") != NULL, "stderr: %s", r->err);

    /* refusals, each one line naming the problem */
    const char *miss[] = { "merge", s[0], s[1], NULL };
    cli_expect_refused(cdir, miss, 2, "missing", 0);
    const char *twice[] = { "merge", s[0], s[1], s[1], s[2], NULL };
    cli_expect_refused(cdir, twice, 2, "shard-1.jsonl", 0);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "head -n -1 '%s' > '%s'", s[2], trunc);
    ck_assert_int_eq(system(cmd), 0);
    const char *tr[] = { "merge", s[0], s[1], trunc, NULL };
    cli_expect_refused(cdir, tr, 2, "trunc.jsonl", 0);
    /* other options: another point list and parameters */
    const char *ao[] = { "calib", "--manifest", man, "--scales", "0.5,2", "--perms", "200", "--boot", "100",
                         "--shard", "2/3", "--out", other, NULL };
    run_ok(r, ao);
    const char *mo[] = { "merge", s[0], s[1], other, NULL };
    cli_expect_refused(cdir, mo, 2, "other.jsonl", 0);
    /* the same manifest layout on other data: the model digest differs */
    const char *ad[] = { "calib", "--manifest", man2, "--scales", "0.5,1", "--perms", "200", "--boot", "100",
                         "--shard", "2/3", "--out", alien, NULL };
    run_ok(r, ad);
    const char *md[] = { "merge", s[0], s[1], alien, NULL };
    cli_expect_refused(cdir, md, 2, "alien.jsonl", 0);
    /* --shard without --out, and a bad K/N */
    const char *b1[] = { "calib", "--manifest", man, "--shard", "0/2", NULL };
    cli_expect_refused(cdir, b1, 2, "--out", 0);
    const char *b2[] = { "calib", "--manifest", man, "--shard", "2/2", "--out", other, NULL };
    cli_expect_refused(cdir, b2, 2, "shard", 0);
    free(one);
    free(r);
}
END_TEST

Suite *suite_calib_shard(void)
{
    Suite *s = suite_create("calib_shard");
    TEST_TCASE(tc, "calib_shard");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, calib_shards_merge);
    suite_add_tcase(s, tc);
    return s;
}
