/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_merge_forged.c -- shard files are untrusted input (issue 21).  Every
 * forged set is made by the test from real shards computed here, edited and
 * sealed again with a fresh, consistent end record (as anyone who can write
 * a shared directory can), so the tests keep working when the format or
 * the commit changes.  Each reproduction of the audit is refused with one
 * line naming the file, exit 2, nothing on stdout, nothing written:
 *   - header spec members that would make a merge run a shard and write a
 *     file, print help, choose its format or key, or that are unknown
 *     (sweeps/sweep_spec.h), and a header of the format before the specs
 *     (command-line options), refused with one line naming its version;
 *   - strings a record may not hold (control characters, tabs, newlines,
 *     '|', JSON quotes), a model name that would inject JSON;
 *   - null where a number is required (a claim-T eta, a certified upper
 *     end's error), and the judge itself refusing NaN;
 *   - impossible records: lower > upper on one instance, a rank above the
 *     instance size, an error above eps, another eps or d than the plan's,
 *     lower 0, a calib input whose token count is not the header's;
 *   - a calib header of 1024 layers x 4096 heads, refused at once;
 * and the writer never follows a planted FILE.partial symbolic link, an
 * --out that can never be renamed to is refused before anything is
 * computed, write errors on stdout exit 1, and a keyed merge refuses files
 * that were not written under its key. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "testutil.h"
#include "cli/cliutil.h"
#include "cli/shardutil.h"
#include "theory/claims/claim_t.h"

static char dir[256];

static void setup(void)
{
    cli_tmpdir_make(dir, sizeof dir, "forged");
}

static void teardown(void)
{
    cli_tmpdir_remove(dir);
}

/* path of name in dir (static, rotating buffers) */
static const char *P(const char *name)
{
    static char b[8][400];
    static int k;
    k = (k + 1) % 8;
    snprintf(b[k], sizeof b[k], "%s/%s", dir, name);
    return b[k];
}

static cli_run_t *run(const char *const *args)
{
    static cli_run_t r;
    cli_run_ex(&r, dir, args, 0, 300);
    return &r;
}

static void ok_run(const char *const *args)
{
    cli_run_t *r = run(args);
    ck_assert_msg(r->status == 0, "%s %s: exit %d: %s", args[0], args[1], r->status, r->err);
}

static int exists(const char *path)
{
    struct stat sb;
    return lstat(path, &sb) == 0;
}

/* src's text with a replaced by b, sealed again into dst (a path in dir). */
static void forge(const char *src, const char *dst, const char *a, const char *b)
{
    char *t = su_unsealed(src);
    size_t cap = strlen(t) + strlen(b) + 1;
    char *m = malloc(cap);
    ck_assert(m != NULL);
    snprintf(m, cap, "%s", t);
    su_replace(m, cap, a, b);
    su_reseal(dst, m);
    free(m);
    free(t);
}

/* merge of the files must be refused (exit 2, one line naming `name` and
 * mentioning needle, nothing on stdout) */
static void merge_refused(const char *const *files, const char *needle, const char *name)
{
    const char *args[16] = { "merge" };
    size_t k = 1;
    for (size_t i = 0; files[i] && k < 15; i++)
        args[k++] = files[i];
    args[k] = NULL;
    cli_expect_refused(dir, args, 2, needle, 120);
    cli_run_t *r = run(args);
    ck_assert_msg(strstr(r->err, name) != NULL, "[%s] does not name %s", r->err, name);
    args[k] = NULL;
    /* the JSON format refuses it the same way (it never prints a bare control character or nan) */
    const char *aj[18] = { "merge", "--format", "json" };
    for (size_t i = 1; i < k; i++)
        aj[i + 2] = args[i];
    aj[k + 2] = NULL;
    cli_expect_refused(dir, aj, 2, needle, 120);
}

/* A scale sweep of claim S in d = 3 with the lower end on the instance (dense, 300 points): s.jsonl. */
static const char *scale_shard(void)
{
    const char *out = P("s.jsonl");
    static char path[400];
    snprintf(path, sizeof path, "%s", out);
    ok_run((const char *[]){ "scale", "--claim", "S", "--d", "3", "--beta", "20:30:2", "--eps", "0.1", "--engine",
                             "dense", "--n", "300", "--no-packing", "--shard", "0/1", "--out", path, NULL });
    return path;
}

START_TEST(test_merge_runs_nothing)
{
    const char *s = scale_shard();
    const char *victim = P("victim.txt");
    char vpath[400], opts[1200];
    snprintf(vpath, sizeof vpath, "%s", victim);
    ck_assert_int_eq(test_write_file(dir, "victim.txt", "precious\n", 9), 0);
    const char *base = "\"engine\":\"dense\"}";
    /* 1. --shard and --out in the header: the old merge recomputed the sweep into --out */
    snprintf(opts, sizeof opts, "\"engine\":\"dense\",\"shard\":\"0/1\",\"out\":\"%s\"}", vpath);
    forge(s, P("f.jsonl"), base, opts);
    merge_refused((const char *[]){ P("f.jsonl"), NULL }, "'shard'", "f.jsonl");
    size_t n;
    char *v = su_file_text(vpath, &n);
    ck_assert_str_eq(v, "precious\n");
    free(v);
    ck_assert(!exists(P("victim.txt.partial")));
    snprintf(opts, sizeof opts, "\"engine\":\"dense\",\"out\":\"%s\"}", P("new.jsonl"));
    forge(s, P("f.jsonl"), base, opts);
    merge_refused((const char *[]){ P("f.jsonl"), NULL }, "'out'", "f.jsonl");
    ck_assert(!exists(P("new.jsonl")) && !exists(P("new.jsonl.partial")));
    /* 10. help, and the other options a merge never takes from a file */
    const char *bad[] = { "\"engine\":\"dense\",\"help\":true}", "\"engine\":\"dense\",\"format\":\"json\"}",
                          "\"engine\":\"dense\",\"key\":\"/etc/passwd\"}", "\"engine\":\"dense\",\"frobnicate\":\"1\"}",
                          "\"engine\":true}", "\"engine\":\"dense\",\"no-instance\":\"yes\"}" };
    const char *needle[] = { "'help'", "'format'", "'key'", "'frobnicate'", "'engine'", "'no-instance'" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        forge(s, P("f.jsonl"), base, bad[i]);
        merge_refused((const char *[]){ P("f.jsonl"), NULL }, needle[i], "f.jsonl");
    }
    /* the spec's claim must be the sweep's */
    forge(s, P("f.jsonl"), "\"spec\":{\"claim\":\"S\"", "\"spec\":{\"claim\":\"B\"");
    merge_refused((const char *[]){ P("f.jsonl"), NULL }, "claim", "f.jsonl");
    /* a header of the format before the typed specs (its params recorded the command line) */
    forge(s, P("f.jsonl"), "\"spec\":{", "\"options\":{");
    merge_refused((const char *[]){ P("f.jsonl"), NULL }, "older format", "f.jsonl");
    cli_run_t *r = run((const char *[]){ "merge", P("f.jsonl"), NULL });
    ck_assert_msg(strstr(r->err, "attnrank 0.") != NULL, "[%s] does not name the version", r->err);
    /* the real file still merges */
    ok_run((const char *[]){ "merge", s, NULL });
}
END_TEST

START_TEST(test_strings_are_data)
{
    const char *s = scale_shard();
    /* 2. an OSC title sequence, a tab (a fake TSV column), a newline (a fake line), a markdown '|' */
    const char *m[] = { "\"lower_method\":\"fibonacci/\\u001b]0;pwned\\u0007invnorm\"",
                        "\"lower_method\":\"fibonacci/\\tinvnorm\"",
                        "\"lower_method\":\"x\\nattnrank: all rows pass\"", "\"lower_method\":\"a|b\"",
                        "\"lower_method\":\"a\\\"b\"", "\"lower_method\":\"\\u00e9t\\u00e9\"" };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        forge(s, P("f.jsonl"), "\"lower_method\":\"fibonacci/diagdom\"", m[i]);
        merge_refused((const char *[]){ P("f.jsonl"), NULL }, "never writes", "f.jsonl");
    }
    forge(s, P("f.jsonl"), "\"upper_method\":\"fibonacci/polynomial\"", "\"upper_method\":\"\\u001b[2J\"");
    merge_refused((const char *[]){ P("f.jsonl"), NULL }, "upper_method", "f.jsonl");
    forge(s, P("f.jsonl"), "\"continuum_method\":\"\"", "\"continuum_method\":\"\\r| fake | row |\"");
    merge_refused((const char *[]){ P("f.jsonl"), NULL }, "continuum_method", "f.jsonl");
    forge(s, P("f.jsonl"), "\"note\":\"\"", "\"note\":\"line\\n| 3 | 20 | fake |\"");
    merge_refused((const char *[]){ P("f.jsonl"), NULL }, "note", "f.jsonl");
    /* the provenance is printed with the results: names only */
    forge(s, P("f.jsonl"), "\"provenance\":{", "\"provenance\":{\"x\":\"\\u001b]8;;http://e/\\u0007\",");
    merge_refused((const char *[]){ P("f.jsonl"), NULL }, "provenance", "f.jsonl");
    /* claim T's chain method */
    const char *t = P("t.jsonl");
    char tp[400];
    snprintf(tp, sizeof tp, "%s", t);
    ok_run((const char *[]){ "verify", "--claim", "T", "--shard", "0/1", "--out", tp, NULL });
    forge(tp, P("f.jsonl"), "\"chain_method\":[\"", "\"chain_method\":[\"\\t");
    merge_refused((const char *[]){ P("f.jsonl"), NULL }, "chain_method", "f.jsonl");
    /* the --out path in the 'skipped' line is escaped */
    char esc[400];
    snprintf(esc, sizeof esc, "%s/a\033]0;x\007b.jsonl", dir);
    const char *a[] = { "scale", "--claim", "S", "--d", "3", "--beta", "20:30:2", "--eps", "0.1", "--engine", "dense",
                        "--n", "300", "--no-packing", "--shard", "0/1", "--out", esc, NULL };
    ok_run(a);
    cli_run_t *r = run(a);
    ck_assert_msg(r->status == 0 && strstr(r->err, "skipped") && strstr(r->err, "\\x1b") && !strchr(r->err, '\033') &&
                      !strchr(r->err, '\007'), "%d [%s]", r->status, r->err);
}
END_TEST

START_TEST(test_numbers_are_checked)
{
    const char *s = scale_shard();
    char *t0 = su_unsealed(s);
    ck_assert(strstr(t0, "\"lower\":66,") && strstr(t0, "\"upper\":144,") && strstr(t0, "\"n\":300,"));
    free(t0);
    /* 3. null where a number is required */
    char *full = su_unsealed(s);
    char *ue = strstr(full, "\"upper_err\":");
    ck_assert(ue != NULL);
    char num[64];
    size_t k = 0;
    for (const char *q = ue + 12; *q != ',' && k < sizeof num - 1; q++)
        num[k++] = *q;
    num[k] = '\0';
    char a[96], b[96];
    snprintf(a, sizeof a, "\"upper_err\":%s", num);
    forge(s, P("f.jsonl"), a, "\"upper_err\":null");
    merge_refused((const char *[]){ P("f.jsonl"), NULL }, "upper_err", "f.jsonl");
    /* 4. impossible records */
    forge(s, P("f.jsonl"), "\"lower\":66,", "\"lower\":150,");   /* lower > upper, same instance */
    merge_refused((const char *[]){ P("f.jsonl"), NULL }, "bracket one instance", "f.jsonl");
    forge(s, P("f.jsonl"), "\"upper\":144,", "\"upper\":400,");  /* upper > n */
    merge_refused((const char *[]){ P("f.jsonl"), NULL }, "above the instance", "f.jsonl");
    forge(s, P("f.jsonl"), "\"lower\":66,", "\"lower\":0,");     /* 15. lower 0: named, not a fit error */
    merge_refused((const char *[]){ P("f.jsonl"), NULL }, "lower end 0", "f.jsonl");
    snprintf(b, sizeof b, "\"upper_err\":0.5");
    forge(s, P("f.jsonl"), a, b);                                  /* error above eps */
    merge_refused((const char *[]){ P("f.jsonl"), NULL }, "not in [0, eps", "f.jsonl");
    /* a record's eps (the header's spec holds the sweep's eps too: that one would change the plan) */
    forge(s, P("f.jsonl"), "\"beta\":20.0,\"eps\":0.10000000000000001", "\"beta\":20.0,\"eps\":0.90000000000000002");
    merge_refused((const char *[]){ P("f.jsonl"), NULL }, "not the plan's", "f.jsonl");
    forge(s, P("f.jsonl"), "\"d\":3,\"beta\"", "\"d\":7,\"beta\"");
    merge_refused((const char *[]){ P("f.jsonl"), NULL }, "not the plan's", "f.jsonl");
    free(full);
    /* claim T: a null eta_noise used to make every comparison false and print pass */
    const char *t = P("t.jsonl");
    char tp[400];
    snprintf(tp, sizeof tp, "%s", t);
    ok_run((const char *[]){ "verify", "--claim", "T", "--shard", "0/1", "--out", tp, NULL });
    char *tt = su_unsealed(tp);
    char *en = strstr(tt, "\"eta_noise\":");
    ck_assert(en != NULL);
    k = 0;
    for (const char *q = en + 12; *q != ',' && k < sizeof num - 1; q++)
        num[k++] = *q;
    num[k] = '\0';
    snprintf(a, sizeof a, "\"eta_noise\":%s", num);
    free(tt);
    forge(tp, P("f.jsonl"), a, "\"eta_noise\":null");
    merge_refused((const char *[]){ P("f.jsonl"), NULL }, "eta_noise", "f.jsonl");
    forge(tp, P("f.jsonl"), "\"eps\":0.10000000000000001", "\"eps\":0.20000000000000001");
    merge_refused((const char *[]){ P("f.jsonl"), NULL }, "case", "f.jsonl");
}
END_TEST

/* The judge itself: NaN never passes. */
START_TEST(test_claim_t_judge_nan)
{
    claim_t_record_t t;
    memset(&t, 0, sizeof t);
    t.r0 = 2;
    t.dh = 16;
    t.twin_same = 1;
    t.r = 5;
    t.eta_noise = 0.01;
    t.eta_below = 1.0;
    t.ntau = 1;
    t.tau[0] = 0.05;   /* >= 2 eta_noise and < eta_below: r(tau) must be r0 */
    t.rt[0] = 1;
    t.status = AR_CERT_CERTIFIED;
    char reason[256];
    ck_assert_int_eq(claim_t_judge(&t, reason, sizeof reason), 0);
    t.eta_noise = NAN;
    ck_assert_int_eq(claim_t_judge(&t, reason, sizeof reason), 0);
    ck_assert_ptr_nonnull(strstr(reason, "finite"));
    t.eta_noise = 0.01;
    t.eta_below = NAN;
    ck_assert_int_eq(claim_t_judge(&t, reason, sizeof reason), 0);
    t.eta_below = 1.0;
    t.tau[0] = NAN;
    ck_assert_int_eq(claim_t_judge(&t, reason, sizeof reason), 0);
}
END_TEST

START_TEST(test_calib_forged)
{
    su_write_model(dir, "m", 0);
    char man[400], cs[400];
    snprintf(man, sizeof man, "%s/m/manifest.json", dir);
    snprintf(cs, sizeof cs, "%s", P("c.jsonl"));
    ok_run((const char *[]){ "calib", "--manifest", man, "--scales", "1", "--perms", "50", "--boot", "20", "--shard",
                             "0/1", "--out", cs, NULL });
    ok_run((const char *[]){ "merge", cs, NULL });
    /* a model name that would inject JSON members or lines */
    forge(cs, P("f.jsonl"), "\"name\":\"synth\"", "\"name\":\"synth\\\",\\\"spearman\\\":-1,\\\"x\\\":\\\"\"");
    merge_refused((const char *[]){ P("f.jsonl"), NULL }, "name", "f.jsonl");
    forge(cs, P("f.jsonl"), "\"name\":\"synth\"", "\"name\":\"syn\\nth\"");
    merge_refused((const char *[]){ P("f.jsonl"), NULL }, "name", "f.jsonl");
    /* options a merge never reads */
    forge(cs, P("f.jsonl"), "\"spec\":{", "\"spec\":{\"shard\":\"0/1\",");
    merge_refused((const char *[]){ P("f.jsonl"), NULL }, "'shard'", "f.jsonl");
    forge(cs, P("f.jsonl"), "\"spec\":{", "\"spec\":{\"help\":true,");
    merge_refused((const char *[]){ P("f.jsonl"), NULL }, "'help'", "f.jsonl");
    /* a token count that is not the header's (the record alone is consistent) */
    char *t = su_unsealed(cs);
    ck_assert_ptr_nonnull(strstr(t, "\"ntok\":[6,9,240]"));
    free(t);
    forge(cs, P("f.jsonl"), "\"ntok\":[6,9,240]", "\"ntok\":[6,9,239]");
    merge_refused((const char *[]){ P("f.jsonl"), NULL }, "positions", "f.jsonl");
    /* 11. a header of 1024 layers x 4096 heads: refused at once, before the plan is built */
    size_t cap = 1024 * 40 + 64;
    char *lay = malloc(cap);
    ck_assert(lay != NULL);
    size_t o = (size_t)snprintf(lay, cap, "\"layers\":[");
    for (int l = 0; l < 1024; l++)
        o += (size_t)snprintf(lay + o, cap - o, "%s{\"heads\":4096,\"dh\":4,\"scale\":1.5}", l ? "," : "");
    snprintf(lay + o, cap - o, "]");
    char *u = su_unsealed(cs);
    char *L = strstr(u, "\"layers\":[");
    ck_assert(L != NULL);
    char *e = strchr(L, ']');
    size_t tl = strlen(u) + cap;
    char *m = malloc(tl);
    ck_assert(m != NULL);
    snprintf(m, tl, "%.*s%s%s", (int)(L - u), u, lay, e + 1);
    su_reseal(P("big.jsonl"), m);
    double t0 = (double)clock() / CLOCKS_PER_SEC;
    time_t w0 = time(NULL);
    merge_refused((const char *[]){ P("big.jsonl"), NULL }, "more than", "big.jsonl");
    ck_assert_msg(time(NULL) - w0 <= 6, "the refusal took %ld s", (long)(time(NULL) - w0));
    (void)t0;
    free(m);
    free(u);
    free(lay);
}
END_TEST

START_TEST(test_output_files)
{
    const char *s = scale_shard();
    (void)s;
    /* 5. a planted FILE.partial symbolic link is not followed */
    ck_assert_int_eq(test_write_file(dir, "victim.txt", "precious\n", 9), 0);
    char victim[400], out[400], partial[420];
    snprintf(victim, sizeof victim, "%s", P("victim.txt"));
    snprintf(out, sizeof out, "%s", P("o.jsonl"));
    snprintf(partial, sizeof partial, "%s.partial", out);
    ck_assert_int_eq(symlink(victim, partial), 0);
    const char *a[] = { "scale", "--claim", "S", "--d", "3", "--beta", "20:30:2", "--eps", "0.1", "--engine", "dense",
                        "--n", "300", "--no-packing", "--shard", "0/1", "--out", out, NULL };
    ok_run(a);
    size_t n;
    char *v = su_file_text(victim, &n);
    ck_assert_str_eq(v, "precious\n");
    free(v);
    struct stat sb;
    ck_assert(lstat(out, &sb) == 0 && S_ISREG(sb.st_mode) && !exists(partial));
    ok_run((const char *[]){ "merge", out, NULL });
    /* an --out that is a symbolic link, a directory, "" or in a missing directory: refused before computing */
    char lnk[400], sub[400], missing[400];
    snprintf(lnk, sizeof lnk, "%s", P("l.jsonl"));
    ck_assert_int_eq(symlink(victim, lnk), 0);
    snprintf(sub, sizeof sub, "%s", P("d.jsonl"));
    ck_assert_int_eq(mkdir(sub, 0700), 0);
    snprintf(missing, sizeof missing, "%s", P("nodir/x.jsonl"));
    const char *outs[] = { lnk, sub, "", missing };
    const char *why[] = { "symbolic link", "directory", "not a file name", "directory" };
    for (size_t i = 0; i < 4; i++) {
        /* 13. a shard whose point would take long (claim S d = 5 at beta 200) must not start */
        const char *b[] = { "verify", "--claim", "S", "--d", "5", "--shard", "0/1", "--out", outs[i], NULL };
        time_t w0 = time(NULL);
        cli_expect_refused(dir, b, 2, why[i], 60);
        ck_assert_msg(time(NULL) - w0 <= 5, "refused only after %ld s", (long)(time(NULL) - w0));
    }
    ck_assert(!exists(P("d.jsonl.partial")) && !exists(P(".partial")));
    v = su_file_text(victim, &n);
    ck_assert_str_eq(v, "precious\n");
    free(v);
}
END_TEST

/* Run the binary with args, stdout redirected to /dev/full (full = 1) or
 * closed (full = 0); its exit status, stderr in err. */
static int run_bad_stdout(const char *const *args, int full, char *err, size_t cap)
{
    char pe[450];
    snprintf(pe, sizeof pe, "%s/err.txt", dir);
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        int fe = open(pe, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(fe, 2);
        if (full) {
            int fo = open("/dev/full", O_WRONLY);
            dup2(fo, 1);
        } else
            close(1);
        const char *argv[32];
        int k = 0;
        argv[k++] = cli_bin();
        for (int i = 0; args[i] && k < 31; i++)
            argv[k++] = args[i];
        argv[k] = NULL;
        execv(cli_bin(), (char *const *)argv);
        _exit(127);
    }
    int ws;
    ck_assert(waitpid(pid, &ws, 0) == pid);
    cli_slurp(pe, err, cap);
    return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}

START_TEST(test_write_errors)
{
    const char *s = scale_shard();
    char err[4096];
    /* 9. merge > /dev/full, --version > /dev/full, bracket >&- */
    const char *m[] = { "merge", s, NULL };
    ck_assert_int_eq(run_bad_stdout(m, 1, err, sizeof err), 1);
    ck_assert_msg(strstr(err, "write error") != NULL, "[%s]", err);
    const char *v[] = { "--version", NULL };
    ck_assert_int_eq(run_bad_stdout(v, 1, err, sizeof err), 1);
    ck_assert_msg(strstr(err, "write error") != NULL, "[%s]", err);
    const char *b[] = { "bracket", "--geometry", "sphere", "--family", "fibonacci", "--d", "3", "--n", "50", "--beta",
                        "5", "--eps", "0.1", NULL };
    ck_assert_int_eq(run_bad_stdout(b, 0, err, sizeof err), 1);
    ck_assert_msg(strstr(err, "write error") != NULL, "[%s]", err);
    const char *sc[] = { "scale", "--claim", "S", "--d", "3", "--beta", "20:30:2", "--eps", "0.1", "--engine", "dense",
                         "--n", "300", "--no-packing", NULL };
    ck_assert_int_eq(run_bad_stdout(sc, 1, err, sizeof err), 1);
}
END_TEST

START_TEST(test_shard_key)
{
    char key[400], key2[400], shortk[400], ks[400], plain[400];
    snprintf(key, sizeof key, "%s", P("key"));
    snprintf(key2, sizeof key2, "%s", P("key2"));
    snprintf(shortk, sizeof shortk, "%s", P("short"));
    ck_assert_int_eq(test_write_file(dir, "key", "0123456789abcdef0123456789abcdef", 32), 0);
    ck_assert_int_eq(test_write_file(dir, "key2", "fedcba9876543210fedcba9876543210", 32), 0);
    ck_assert_int_eq(test_write_file(dir, "short", "12345678", 8), 0);
    snprintf(ks, sizeof ks, "%s", P("k.jsonl"));
    const char *a[] = { "scale", "--claim", "S", "--d", "3", "--beta", "20:30:2", "--eps", "0.1", "--engine", "dense",
                        "--n", "300", "--no-packing", "--shard", "0/1", "--out", ks, "--key", key, NULL };
    ok_run(a);
    snprintf(plain, sizeof plain, "%s", scale_shard());
    ok_run((const char *[]){ "merge", "--key", key, ks, NULL });
    ok_run((const char *[]){ "merge", ks, NULL });   /* without a key: its HMAC cannot be checked, the rest is */
    cli_expect_refused(dir, (const char *[]){ "merge", "--key", key2, ks, NULL }, 2, "not the shard key's", 60);
    cli_expect_refused(dir, (const char *[]){ "merge", "--key", key, plain, NULL }, 2, "no HMAC", 60);
    /* a forged file with a consistent SHA-256 but the old HMAC, or an HMAC under another key */
    char *t = su_unsealed(ks);
    size_t cap = strlen(t) + 8;
    char *m = malloc(cap);
    ck_assert(m != NULL);
    snprintf(m, cap, "%s", t);
    su_replace(m, cap, "\"lower\":66,", "\"lower\":67,");
    su_reseal_key(P("f.jsonl"), m, "fedcba9876543210fedcba9876543210", 32);
    cli_expect_refused(dir, (const char *[]){ "merge", "--key", key, P("f.jsonl"), NULL }, 2, "not the shard key's", 60);
    su_reseal_key(P("f.jsonl"), m, "0123456789abcdef0123456789abcdef", 32);
    ok_run((const char *[]){ "merge", "--key", key, P("f.jsonl"), NULL });   /* the key holder can write one */
    free(m);
    free(t);
    /* the environment variable, checked at start-up */
    setenv("ATTNRANK_SHARD_KEY", key2, 1);
    cli_expect_refused(dir, (const char *[]){ "merge", ks, NULL }, 2, "not the shard key's", 60);
    setenv("ATTNRANK_SHARD_KEY", shortk, 1);
    cli_expect_refused(dir, (const char *[]){ "--version", NULL }, 2, "ATTNRANK_SHARD_KEY", 60);
    setenv("ATTNRANK_SHARD_KEY", P("absent"), 1);
    cli_expect_refused(dir, (const char *[]){ "--version", NULL }, 1, "ATTNRANK_SHARD_KEY", 60);
    unsetenv("ATTNRANK_SHARD_KEY");
    cli_expect_refused(dir, (const char *[]){ "merge", "--key", shortk, ks, NULL }, 2, "16 to 4096 bytes", 60);
    /* under a key a partial file is not resumed (its records have no HMAC yet) */
    char partial[420];
    snprintf(partial, sizeof partial, "%s.partial", ks);
    char *u = su_unsealed(ks);
    ck_assert_int_eq(test_write_file(dir, "k.jsonl.partial", u, strlen(u)), 0);
    free(u);
    remove(ks);
    cli_run_t *r = run(a);
    ck_assert_msg(r->status == 0 && strstr(r->err, "not resumed"), "%d [%s]", r->status, r->err);
    ok_run((const char *[]){ "merge", "--key", key, ks, NULL });
}
END_TEST

Suite *suite_merge_forged(void)
{
    Suite *s = suite_create("merge_forged");
    TEST_TCASE(tc, "merge_forged");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_merge_runs_nothing);
    tcase_add_test(tc, test_strings_are_data);
    tcase_add_test(tc, test_numbers_are_checked);
    tcase_add_test(tc, test_claim_t_judge_nan);
    tcase_add_test(tc, test_calib_forged);
    tcase_add_test(tc, test_output_files);
    tcase_add_test(tc, test_write_errors);
    tcase_add_test(tc, test_shard_key);
    suite_add_tcase(s, tc);
    return s;
}
