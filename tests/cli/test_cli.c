/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_cli.c -- the attnrank binary end to end: bad input gives exactly one
 * line on stderr, nothing on stdout and a non-zero exit (never a crash);
 * good input gives the documented output.  The binary is $ATTNRANK_BIN
 * (set by `make check`), default bin/attnrank. */
#include <check.h>
#include <fcntl.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include "testutil.h"
#include "cli/cliutil.h"

typedef cli_run_t run_t;

static char tmpdir[256];

/* Run the binary (see cli_run_ex) with its output captured in tmpdir. */
static void __attribute__((unused)) run_ex(run_t *r, const char *const *args, unsigned long long as_bytes,
                                          double timeout_s)
{
    cli_run_ex(r, tmpdir, args, as_bytes, timeout_s);
}

static void run(run_t *r, const char *const *args)
{
    cli_run_ex(r, tmpdir, args, 0, 0);
}

static void write_bytes(const char *name, const void *data, size_t len, char *path, size_t cap)
{
    snprintf(path, cap, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    ck_assert(f != NULL);
    if (len)
        fwrite(data, 1, len, f);
    fclose(f);
}

/* A v1.0 .npy with the given header dict and payload. */
static void write_npy(const char *name, const char *dict, const void *payload, size_t plen, char *path, size_t cap)
{
    char buf[8192];
    size_t hl = strlen(dict);
    size_t total = 10 + hl + 1;
    size_t pad = (64 - total % 64) % 64;
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    unsigned short h = (unsigned short)(hl + pad + 1);
    buf[8] = (char)(h & 0xff);
    buf[9] = (char)(h >> 8);
    memcpy(buf + 10, dict, hl);
    memset(buf + 10 + hl, ' ', pad);
    buf[10 + hl + pad] = '\n';
    size_t off = 10 + hl + pad + 1;
    memcpy(buf + off, payload, plen);
    write_bytes(name, buf, off + plen, path, cap);
}

/* Bad input: one line on stderr starting "attnrank: ", empty stdout, exit in {1,2}. */
static void expect_clean_error(const char *const *args, const char *needle)
{
    run_t r;
    run(&r, args);
    char cmd[512] = "";
    for (int i = 0; args[i]; i++) {
        strncat(cmd, args[i], sizeof cmd - strlen(cmd) - 2);
        strncat(cmd, " ", sizeof cmd - strlen(cmd) - 1);
    }
    ck_assert_msg(r.status == 1 || r.status == 2, "'%s': exit status %d (stderr: %s)", cmd, r.status, r.err);
    ck_assert_msg(r.out[0] == '\0', "'%s': stdout not empty: %s", cmd, r.out);
    size_t len = strlen(r.err);
    ck_assert_msg(len > 11 && strncmp(r.err, "attnrank: ", 10) == 0 && r.err[len - 1] == '\n' &&
                      strchr(r.err, '\n') == r.err + len - 1,
                  "'%s': stderr is not exactly one 'attnrank: ...' line: [%s]", cmd, r.err);
    if (needle)
        ck_assert_msg(strstr(r.err, needle) != NULL, "'%s': message [%s] does not mention '%s'", cmd, r.err, needle);
}

static void setup(void)
{
    cli_tmpdir_make(tmpdir, sizeof tmpdir, "cli");
}

static void teardown(void)
{
    cli_tmpdir_remove(tmpdir);
}

START_TEST(test_bad_numbers)
{
    const char *base[] = { "bracket", "--geometry", "sphere", "--family", "polygon", "--d", "2", "--n", "8" };
#define B9 base[0], base[1], base[2], base[3], base[4], base[5], base[6], base[7], base[8]
    expect_clean_error((const char *[]){ B9, "--beta", "3", "--eps", "0", NULL }, "eps");
    expect_clean_error((const char *[]){ B9, "--beta", "3", "--eps", "1", NULL }, "eps");
    expect_clean_error((const char *[]){ B9, "--beta", "3", "--eps", "-0.1", NULL }, "eps");
    expect_clean_error((const char *[]){ B9, "--beta", "3", "--eps", "nan", NULL }, "eps");
    expect_clean_error((const char *[]){ B9, "--beta", "3", "--eps", "0.1x", NULL }, "eps");
    expect_clean_error((const char *[]){ B9, "--beta", "3", NULL }, "eps");
    expect_clean_error((const char *[]){ B9, "--beta", "-1", "--eps", "0.1", NULL }, "beta");
    expect_clean_error((const char *[]){ B9, "--beta", "nan", "--eps", "0.1", NULL }, "beta");
    expect_clean_error((const char *[]){ B9, "--beta", "inf", "--eps", "0.1", NULL }, "beta");
    expect_clean_error((const char *[]){ B9, "--beta", "", "--eps", "0.1", NULL }, "beta");
    expect_clean_error((const char *[]){ B9, "--eps", "0.1", NULL }, "beta");
    expect_clean_error((const char *[]){ B9, "--beta", "1", "--eps", "0.1", "--format", "xml", NULL }, "format");
    expect_clean_error((const char *[]){ B9, "--beta", "1", "--eps", "0.1", "--bogus", "3", NULL }, "bogus");
    expect_clean_error((const char *[]){ B9, "--beta", "1", "--beta", "2", "--eps", "0.1", NULL }, "twice");
    expect_clean_error((const char *[]){ B9, "--beta", "1", "--eps", NULL }, "value");
#undef B9
}
END_TEST

START_TEST(test_bad_geometry)
{
    expect_clean_error((const char *[]){ "bracket", "--geometry", "sphere", "--family", "polygon", "--d", "3",
                                         "--n", "8", "--beta", "1", "--eps", "0.1", NULL }, "d");
    expect_clean_error((const char *[]){ "bracket", "--geometry", "sphere", "--family", "cube", "--d", "3",
                                         "--n", "8", "--beta", "1", "--eps", "0.1", NULL }, "family");
    expect_clean_error((const char *[]){ "bracket", "--geometry", "sphere", "--family", "uniform", "--d", "3",
                                         "--n", "0", "--beta", "1", "--eps", "0.1", NULL }, "n");
    expect_clean_error((const char *[]){ "bracket", "--geometry", "sphere", "--family", "uniform", "--d", "3",
                                         "--n", "-5", "--beta", "1", "--eps", "0.1", NULL }, "n");
    expect_clean_error((const char *[]){ "bracket", "--geometry", "cube", "--family", "uniform", "--d", "3",
                                         "--n", "5", "--beta", "1", "--eps", "0.1", NULL }, "geometry");
    /* --n and its deprecated ball spelling --npoints together: which one is meant is unclear */
    expect_clean_error((const char *[]){ "bracket", "--geometry", "ball", "--family", "uniform", "--d", "3",
                                         "--n", "5", "--npoints", "6", "--beta", "1", "--eps", "0.1", NULL }, "npoints");
    expect_clean_error((const char *[]){ "bracket", "--beta", "1", "--eps", "0.1", NULL }, "instance");
    /* sizes beyond memory: refused up front, not by the OOM killer */
    expect_clean_error((const char *[]){ "bracket", "--geometry", "sphere", "--family", "uniform", "--d", "3",
                                         "--n", "300000", "--beta", "1", "--eps", "0.1", "--engine", "dense", NULL },
                       "limit");
    expect_clean_error((const char *[]){ "bracket", "--geometry", "sphere", "--family", "uniform", "--d", "3",
                                         "--n", "300000", "--beta", "1", "--eps", "0.1", NULL }, "ATTNRANK_MAX_SCALE_N");
    expect_clean_error((const char *[]){ "frobnicate", NULL }, "unknown command");
}
END_TEST

START_TEST(test_bad_files)
{
    char p[300], q[300], w[300];
    double good[6] = { 1, 0, 0, 1, -1, 0 };
    double bad[6] = { 1, 0, 0, 1, -1, 0 };
    expect_clean_error((const char *[]){ "bracket", "--points", "/nonexistent/x.npy", "--beta", "1", "--eps",
                                         "0.1", NULL }, "nonexistent");
    write_bytes("empty.npy", "", 0, p, sizeof p);
    expect_clean_error((const char *[]){ "bracket", "--points", p, "--beta", "1", "--eps", "0.1", NULL }, "empty.npy");
    write_bytes("junk.npy", "hello world, not numpy at all", 29, p, sizeof p);
    expect_clean_error((const char *[]){ "bracket", "--points", p, "--beta", "1", "--eps", "0.1", NULL }, "junk.npy");
    write_npy("trunc.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }", good, 40, p, sizeof p);
    expect_clean_error((const char *[]){ "bracket", "--points", p, "--beta", "1", "--eps", "0.1", NULL }, "trunc.npy");
    /* integers are read as doubles when they are exact ones (as Python takes them); 2^53 + 1 is none */
    int64_t iv[6] = { 1, 0, 0, 1, (INT64_C(1) << 53) + 1, 0 };
    write_npy("int.npy", "{'descr': '<i8', 'fortran_order': False, 'shape': (3, 2), }", iv, 48, p, sizeof p);
    expect_clean_error((const char *[]){ "bracket", "--points", p, "--beta", "1", "--eps", "0.1", NULL },
                       "not an exact double");
    iv[4] = -1;
    write_npy("int.npy", "{'descr': '<i8', 'fortran_order': False, 'shape': (3, 2), }", iv, 48, p, sizeof p);
    run_t ri;
    run_ex(&ri, (const char *[]){ "bracket", "--points", p, "--beta", "1", "--eps", "0.1", NULL }, 0, 60);
    ck_assert_msg(ri.status == 0, "an exact int64 file: exit %d: %s", ri.status, ri.err);
    bad[3] = 0.0 / 0.0;
    write_npy("nan.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }", bad, 48, p, sizeof p);
    expect_clean_error((const char *[]){ "bracket", "--points", p, "--beta", "1", "--eps", "0.1", NULL }, "nan.npy");
    bad[3] = 1.0 / 0.0;
    write_npy("inf.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }", bad, 48, p, sizeof p);
    expect_clean_error((const char *[]){ "bracket", "--points", p, "--beta", "1", "--eps", "0.1", NULL }, "inf.npy");
    write_npy("zero.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (0, 2), }", good, 0, p, sizeof p);
    expect_clean_error((const char *[]){ "bracket", "--points", p, "--beta", "1", "--eps", "0.1", NULL }, "zero.npy");
    write_npy("huge.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (4000000000, 3), }", good, 48, p, sizeof p);
    expect_clean_error((const char *[]){ "bracket", "--points", p, "--beta", "1", "--eps", "0.1", NULL }, "huge.npy");
    /* shape mismatch between queries (3 x 2) and keys (2 x 3) */
    write_npy("q.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }", good, 48, q, sizeof q);
    write_npy("k.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }", good, 48, p, sizeof p);
    expect_clean_error((const char *[]){ "bracket", "--queries", q, "--keys", p, "--beta", "1", "--eps", "0.1", NULL },
                       "mismatch");
    expect_clean_error((const char *[]){ "bracket", "--queries", q, "--beta", "1", "--eps", "0.1", NULL }, "keys");
    /* multiplicities: wrong count, zero, negative, garbage */
    write_bytes("w2.txt", "1\n2\n", 4, w, sizeof w);
    expect_clean_error((const char *[]){ "bracket", "--points", q, "--multiplicities", w, "--beta", "1", "--eps",
                                         "0.1", NULL }, NULL);
    write_bytes("w0.txt", "1\n0\n3\n", 6, w, sizeof w);
    expect_clean_error((const char *[]){ "bracket", "--points", q, "--multiplicities", w, "--beta", "1", "--eps",
                                         "0.1", NULL }, NULL);
    write_bytes("wneg.txt", "1\n-2\n3\n", 7, w, sizeof w);
    expect_clean_error((const char *[]){ "bracket", "--points", q, "--multiplicities", w, "--beta", "1", "--eps",
                                         "0.1", NULL }, NULL);
    write_bytes("wjunk.txt", "1\n2e5\n3\n", 8, w, sizeof w);
    expect_clean_error((const char *[]){ "bracket", "--points", q, "--multiplicities", w, "--beta", "1", "--eps",
                                         "0.1", NULL }, NULL);
}
END_TEST

/* The exit statuses as documented (doc/cli.md "Exit status"): 2 for bad input (an unknown option, a
 * value out of range, a malformed file), 1 for a failure that is not the input's (a file that cannot
 * be opened, memory beyond the limit), 0 for success; 3 (verify --strict, a merge of an asserted row
 * that does not pass) is tested in test_merge.c. */
START_TEST(test_exit_codes)
{
    char p[300];
    double good[6] = { 1, 0, 0, 1, -1, 0 };
    struct { const char *const *args; int status; } cases[] = {
        { (const char *[]){ "bracket", "--bogus", NULL }, 2 },
        { (const char *[]){ "bracket", "--geometry", "sphere", "--family", "uniform", "--d", "3", "--n", "20", "--beta",
                            "1", "--eps", "2", NULL }, 2 },
        { (const char *[]){ "bracket", "--points", "/nonexistent/x.npy", "--beta", "1", "--eps", "0.1", NULL }, 1 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        run_t r;
        run(&r, cases[k].args);
        ck_assert_msg(r.status == cases[k].status, "%s %s: exit %d, want %d (%s)", cases[k].args[0],
                      cases[k].args[1], r.status, cases[k].status, r.err);
    }
    write_bytes("junk.npy", "hello world, not numpy at all", 29, p, sizeof p);
    run_t r;
    run(&r, (const char *[]){ "bracket", "--points", p, "--beta", "1", "--eps", "0.1", NULL });
    ck_assert_msg(r.status == 2, "malformed file: exit %d (%s)", r.status, r.err);
    write_npy("ok.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }", good, 48, p, sizeof p);
    run(&r, (const char *[]){ "bracket", "--points", p, "--beta", "1", "--eps", "0.1", NULL });
    ck_assert_msg(r.status == 0, "exit %d (%s)", r.status, r.err);
    setenv("ATTNRANK_MAX_ALLOC_GB", "0.000001", 1);            /* 1 KiB: no 3 x 3 image beyond it, but its scratch */
    run(&r, (const char *[]){ "bracket", "--geometry", "sphere", "--family", "uniform", "--d", "3", "--n", "200",
                              "--beta", "1", "--eps", "0.1", NULL });
    unsetenv("ATTNRANK_MAX_ALLOC_GB");
    ck_assert_msg(r.status == 1 && strstr(r.err, "allocation limit"), "memory beyond the limit: exit %d (%s)",
                  r.status, r.err);
}
END_TEST

START_TEST(test_good_runs)
{
    run_t r;
    run(&r, (const char *[]){ "--help", NULL });
    ck_assert_int_eq(r.status, 0);
    ck_assert(strstr(r.out, "bracket") != NULL);
    run(&r, (const char *[]){ "--version", NULL });
    ck_assert_int_eq(r.status, 0);
    ck_assert(strstr(r.out, "attnrank") && strstr(r.out, "Arb"));
    run(&r, (const char *[]){ "bracket", "--help", NULL });
    ck_assert_int_eq(r.status, 0);

    /* generated instance vs the same points read back from .npy: identical bracket */
    char p[300];
    snprintf(p, sizeof p, "%s/fib.npy", tmpdir);
    run(&r, (const char *[]){ "generate", "--geometry", "sphere", "--family", "fibonacci", "--d", "3", "--n",
                              "300", "--out", p, NULL });
    ck_assert_msg(r.status == 0, "generate failed: %s", r.err);
    run_t a, b;
    run(&a, (const char *[]){ "bracket", "--geometry", "sphere", "--family", "fibonacci", "--d", "3", "--n", "300",
                              "--beta", "10", "--eps", "0.1", "--format", "tsv", NULL });
    run(&b, (const char *[]){ "bracket", "--points", p, "--beta", "10", "--eps", "0.1", "--format", "tsv", NULL });
    ck_assert_msg(a.status == 0 && b.status == 0, "bracket failed: %s / %s", a.err, b.err);
    unsigned la, ua, lb, ub;
    const char *ra = strchr(a.out, '\n'), *rb = strchr(b.out, '\n');
    ck_assert(ra && rb);
    ck_assert_int_eq(sscanf(ra + 1, "%u\t%u", &la, &ua), 2);
    ck_assert_int_eq(sscanf(rb + 1, "%u\t%u", &lb, &ub), 2);
    ck_assert_msg(la == lb && ua == ub, "generated [%u,%u] vs npy [%u,%u]", la, ua, lb, ub);
    ck_assert_msg(1 <= la && la <= ua && ua <= 300, "bracket [%u, %u]", la, ua);

    /* JSON carries the documented fields */
    run(&r, (const char *[]){ "bracket", "--geometry", "sphere", "--family", "polygon", "--d", "2", "--n", "64",
                              "--beta", "30", "--eps", "0.1", "--format", "json", NULL });
    ck_assert_msg(r.status == 0, "json bracket failed: %s", r.err);
    const char *fields[] = { "\"lower\":", "\"upper\":", "\"status\":\"certified\"", "\"n\":64", "\"log10_n\":",
                             "\"d\":2", "\"beta\":30", "\"eps\":0.1", "\"seconds\":", "\"lower_certificate\":",
                             "\"upper_certificate\":", "\"prec\":", "\"arb\":", "\"mpfr\":", "\"flint\":" };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        ck_assert_msg(strstr(r.out, fields[i]) != NULL, "json output lacks %s: %s", fields[i], r.out);
    ck_assert_msg(strchr(r.out, '\n') == r.out + strlen(r.out) - 1, "json output is not one line: %s", r.out);

    /* huge multiplicities: n is printed exactly, as a string */
    char q[300], w[300];
    double pts[4] = { 1, 0, 0, 1 };
    write_npy("two.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }", pts, 32, q, sizeof q);
    const char *big = "1000000000000000000000000000000000000000000000000000000000000\n1\n";
    write_bytes("wbig.txt", big, strlen(big), w, sizeof w);
    run(&r, (const char *[]){ "bracket", "--points", q, "--multiplicities", w, "--beta", "5", "--eps", "0.1",
                              "--format", "json", NULL });
    ck_assert_msg(r.status == 0, "weighted bracket failed: %s", r.err);
    ck_assert_msg(strstr(r.out, "\"n\":\"1000000000000000000000000000000000000000000000000000000000001\"") != NULL,
                  "exact n missing: %s", r.out);
}
END_TEST

START_TEST(test_scale_and_plot)
{
    expect_clean_error((const char *[]){ "scale", "--claim", "S", "--d", "2", "--beta", "100:10:3", "--eps", "0.1", NULL },
                       "beta");
    expect_clean_error((const char *[]){ "scale", "--claim", "S", "--d", "2", "--beta", "0:10:3", "--eps", "0.1", NULL },
                       "beta");
    expect_clean_error((const char *[]){ "scale", "--claim", "S", "--d", "2", "--beta", "10:100", "--eps", "0.1", NULL },
                       "beta");
    expect_clean_error((const char *[]){ "scale", "--claim", "R", "--d", "2", "--beta", "10:100:2", "--eps", "0.1", NULL },
                       "claim");
    expect_clean_error((const char *[]){ "scale", "--claim", "S", "--d", "1", "--beta", "10:100:2", "--eps", "0.1", NULL },
                       "d");
    expect_clean_error((const char *[]){ "scale", "--claim", "S", "--d", "3", "--beta", "10:100:2", "--eps", "1.5", NULL },
                       "eps");
    expect_clean_error((const char *[]){ "scale", "--claim", "S", "--d", "3", "--family", "polygon", "--beta", "10:100:2",
                                         "--eps", "0.1", NULL }, "polygon");
    expect_clean_error((const char *[]){ "verify", "--claim", "Q", NULL }, "claim");
    expect_clean_error((const char *[]){ "bracket", "--queries", "/nonexistent/q.npy", "--keys", "/nonexistent/k.npy",
                                         "--beta", "1", "--eps", "0.1", "--engine", "scale", NULL }, NULL);
    char p[300], t[300], pre[300], f[400];
    snprintf(t, sizeof t, "%s/s2.tsv", tmpdir);
    run_t r;
    run(&r, (const char *[]){ "scale", "--claim", "S", "--d", "2", "--beta", "20:200:3", "--eps", "0.1", "--engine",
                              "dense", "--format", "tsv", NULL });
    ck_assert_msg(r.status == 0, "scale failed: %s", r.err);
    ck_assert_msg(strstr(r.out, "fitted exponent") != NULL, "no fit line: %s", r.out);
    size_t rows = 0;
    for (const char *q = r.out; (q = strchr(q, '\n')); q++)
        rows++;
    ck_assert_msg(rows == 6, "scale tsv: %zu lines, expected 6 (comment, header, 3 rows, fit)", rows);
    write_bytes("s2.tsv", r.out, strlen(r.out), p, sizeof p);
    (void)t;
    snprintf(pre, sizeof pre, "%s/plot", tmpdir);
    run(&r, (const char *[]){ "plot", "--input", p, "--out", pre, NULL });
    if (system("command -v gnuplot >/dev/null 2>&1") == 0) {
        ck_assert_msg(r.status == 0, "plot failed: %s", r.err);
        const char *ext[] = { ".svg", ".png", ".dat", ".gp" };
        for (int i = 0; i < 4; i++) {
            snprintf(f, sizeof f, "%s%s", pre, ext[i]);
            FILE *fp = fopen(f, "rb");
            ck_assert_msg(fp != NULL, "plot did not write %s", f);
            fseek(fp, 0, SEEK_END);
            ck_assert_msg(ftell(fp) > (i < 2 ? 1000 : 50), "%s is (nearly) empty", f);
            fclose(fp);
        }
    }
    write_bytes("bad.tsv", "d\tbeta\n2\tx\n", 11, p, sizeof p);
    expect_clean_error((const char *[]){ "plot", "--input", p, "--out", pre, NULL }, "bad.tsv");
    expect_clean_error((const char *[]){ "plot", "--input", "/nonexistent/t.tsv", "--out", pre, NULL }, "nonexistent");
}
END_TEST

/* A valid two-row table of 'attnrank scale --format tsv' (fields as scale writes them). */
static const char good_table[] =
    "# attnrank scale --claim S --d 3 --eps 0.1\n"
    "d\tbeta\tn\tlower\tlower_points\tlower_certificate\tupper\tupper_err\tupper_certificate\tcontinuum\t"
    "continuum_certificate\tlaw\tlower_over_law\tupper_over_law\tstatus\tseconds\n"
    "3\t10\t2000\t27\t27\tpacking/diagdom\t64\t0.0857272\tfibonacci/polynomial\t64\tcontinuum/polynomial L=7\t"
    "11\t2.45455\t5.81818\tcertified\t1.150\n"
    "3\t21.544346900318839\t2000\t58\t58\tpacking/diagdom\t144\t0.0920296\tfibonacci/polynomial\t144\t"
    "continuum/polynomial L=11\t22.5443\t2.57271\t6.38741\tcertified\t1.395\n";

static int file_exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

static int have_gnuplot(void)
{
    return system("command -v gnuplot >/dev/null 2>&1") == 0;
}

/* issue 10.1: text from the user (title, output path) reaches gnuplot only as
 * data: a quote cannot end the string and run a command. */
START_TEST(test_plot_injection)
{
    if (!have_gnuplot())
        return;
    char t[300], pre[700], marker[300], f[800], title[600];
    write_bytes("t.tsv", good_table, strlen(good_table), t, sizeof t);
    snprintf(marker, sizeof marker, "%s/injected", tmpdir);
    snprintf(pre, sizeof pre, "%s/p1", tmpdir);
    const char *payloads[] = { "a'; system('touch %s'); set title 'b", "a\"; system(\"touch %s\"); set title \"b",
                               "`touch %s`", "a'.system('touch %s').'b", "@x '; system('touch %s') #" };
    for (size_t i = 0; i < sizeof payloads / sizeof payloads[0]; i++) {
        snprintf(title, sizeof title, payloads[i], marker);
        run_t r;
        run(&r, (const char *[]){ "plot", "--input", t, "--out", pre, "--title", title, NULL });
        ck_assert_msg(!file_exists(marker), "title [%s] ran a command (exit %d, stderr %s)", title, r.status, r.err);
        ck_assert_msg(r.status == 0 && r.err[0] == '\0', "title [%s]: exit %d, stderr [%s]", title, r.status, r.err);
    }
    /* an apostrophe is ordinary text and reaches the picture */
    run_t r;
    run(&r, (const char *[]){ "plot", "--input", t, "--out", pre, "--title", "it's", NULL });
    ck_assert_msg(r.status == 0 && r.err[0] == '\0', "title it's: exit %d, stderr [%s]", r.status, r.err);
    snprintf(f, sizeof f, "%s.svg", pre);
    char svg[16384];
    cli_slurp(f, svg, sizeof svg);
    ck_assert_msg(strstr(svg, "it's") || strstr(svg, "it&apos;s") || strstr(svg, "it&#39;s"),
                  "the title it's is not in %s", f);
    /* relative names that gnuplot would run as commands ('|' for output files,
     * '<' for data and script files) */
    if (cli_bin()[0] == '/') {
        char cwd[1024];
        ck_assert(getcwd(cwd, sizeof cwd) != NULL);
        ck_assert(chdir(tmpdir) == 0);
        const char *outs[] = { "|touch injected", "<touch injected", " <touch injected", "|touch injected;",
                               "q'; system('touch injected'); x='" };
        for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++) {
            run(&r, (const char *[]){ "plot", "--input", t, "--out", outs[i], NULL });
            ck_assert_msg(!file_exists(marker), "--out [%s] ran a command (exit %d, stderr %s)", outs[i], r.status,
                          r.err);
            ck_assert_msg(r.status == 0, "--out [%s]: exit %d, stderr [%s]", outs[i], r.status, r.err);
            snprintf(f, sizeof f, "%s.svg", outs[i]);
            ck_assert_msg(file_exists(f), "plot did not write %s", f);
        }
        ck_assert(chdir(cwd) == 0);
    }
    /* control characters are refused before anything is written */
    snprintf(pre, sizeof pre, "%s/p2", tmpdir);
    expect_clean_error((const char *[]){ "plot", "--input", t, "--out", pre, "--title", "a\nset output 'x'", NULL },
                       "title");
    expect_clean_error((const char *[]){ "plot", "--input", t, "--out", pre, "--title", "a\tb", NULL }, "title");
    snprintf(f, sizeof f, "%s.gp", pre);
    ck_assert_msg(!file_exists(f), "a refused title still wrote %s", f);
}
END_TEST

/* issue 10.3: a bad table row is refused like a bad .npy file: one line,
 * exit 2, nothing written. */
START_TEST(test_plot_bad_rows)
{
    char t[300], pre[300], f[400], row[1024];
    snprintf(pre, sizeof pre, "%s/p", tmpdir);
    static const char *const bad_rows[][2] = {
        { "3\t\t2000\t27\t27\tpacking/diagdom\t64\t0.08\tfib/poly\t64\tc/poly\t11\t2.4\t5.8\tcertified\t1.1\n", "beta" },
        { "3\t10\t2000\t\t27\tpacking/diagdom\t64\t0.08\tfib/poly\t64\tc/poly\t11\t2.4\t5.8\tcertified\t1.1\n", "lower" },
        { "3\t10\t2000\t27\t27\tpacking/diagdom\t\t0.08\tfib/poly\t64\tc/poly\t11\t2.4\t5.8\tcertified\t1.1\n", "upper" },
        { "3\tnan\t2000\t27\t27\tpacking/diagdom\t64\t0.08\tfib/poly\t64\tc/poly\t11\t2.4\t5.8\tcertified\t1.1\n", "beta" },
        { "3\tinf\t2000\t27\t27\tpacking/diagdom\t64\t0.08\tfib/poly\t64\tc/poly\t11\t2.4\t5.8\tcertified\t1.1\n", "beta" },
        { "3\t1e308\t2000\t27\t27\tpacking/diagdom\t64\t0.08\tfib/poly\t64\tc/poly\t11\t2.4\t5.8\tcertified\t1.1\n", "beta" },
        { "3\t10\t2000\t-27\t27\tpacking/diagdom\t64\t0.08\tfib/poly\t64\tc/poly\t11\t2.4\t5.8\tcertified\t1.1\n", "lower" },
        { "3\t10\t2000\t27\t27\tpacking/diagdom\t-64\t0.08\tfib/poly\t64\tc/poly\t11\t2.4\t5.8\tcertified\t1.1\n", "upper" },
        { "3\t10\t2000\t27\t27\tpacking/diagdom\t64\t0.08\tfib/poly\t-1\tc/poly\t11\t2.4\t5.8\tcertified\t1.1\n", "continuum" },
        { "3\t10\t2000\t0\t27\tpacking/diagdom\t64\t0.08\tfib/poly\t64\tc/poly\t11\t2.4\t5.8\tcertified\t1.1\n", "lower" },
        { "3\t10\t2000\t27.5\t27\tpacking/diagdom\t64\t0.08\tfib/poly\t64\tc/poly\t11\t2.4\t5.8\tcertified\t1.1\n", "lower" },
        { "3\t10\t2000\t27\t27\tpacking/diagdom\t64\t0.08\tfib/poly\t64\tc/poly\tinf\t2.4\t5.8\tcertified\t1.1\n", "law" },
        { "3\t10\t2000\t27\t27\tpacking/diagdom\t64\t0.08\tfib/poly\t64\tc/poly\t-11\t2.4\t5.8\tcertified\t1.1\n", "law" },
        { " 3\t10\t2000\t27\t27\tpacking/diagdom\t64\t0.08\tfib/poly\t64\tc/poly\t11\t2.4\t5.8\tcertified\t1.1\n", "d" },
        { "1\t10\t2000\t27\t27\tpacking/diagdom\t64\t0.08\tfib/poly\t64\tc/poly\t11\t2.4\t5.8\tcertified\t1.1\n", "d" },
        { "3\t10\t2000\t27\t27\tpacking/diagdom\t64\t0.08\tfib/poly\t64\tc/poly\t11\t2.4\t5.8\tcertified\t1.1\textra\n", "fields" },
        { "3\t10\t2000\t27\t27\tpacking/diagdom\t64\t0.08\tfib/poly\t64\tc/poly\t11\t2.4\n", "fields" },
    };
    for (size_t i = 0; i < sizeof bad_rows / sizeof bad_rows[0]; i++) {
        snprintf(row, sizeof row, "%s", bad_rows[i][0]);
        write_bytes("bad.tsv", row, strlen(row), t, sizeof t);
        run_t r;
        run(&r, (const char *[]){ "plot", "--input", t, "--out", pre, NULL });
        ck_assert_msg(r.status == 2, "row %zu [%s]: exit %d (expected 2), stderr [%s]", i, row, r.status, r.err);
        expect_clean_error((const char *[]){ "plot", "--input", t, "--out", pre, NULL }, bad_rows[i][1]);
        ck_assert_msg(strstr(r.err, "bad.tsv:1") != NULL, "row %zu: message [%s] does not name bad.tsv:1", i, r.err);
    }
    /* a NUL byte inside a row, and a row longer than any table line */
    write_bytes("nul.tsv", "3\t10\0\t2000\n", 11, t, sizeof t);
    expect_clean_error((const char *[]){ "plot", "--input", t, "--out", pre, NULL }, "nul.tsv");
    char big[9000];
    memset(big, '1', sizeof big - 1);
    big[sizeof big - 1] = '\n';
    write_bytes("long.tsv", big, sizeof big, t, sizeof t);
    expect_clean_error((const char *[]){ "plot", "--input", t, "--out", pre, NULL }, "long.tsv");
    /* input lists: empty names are refused */
    write_bytes("t.tsv", good_table, strlen(good_table), t, sizeof t);
    char list[700];
    expect_clean_error((const char *[]){ "plot", "--input", ",", "--out", pre, NULL }, "input");
    expect_clean_error((const char *[]){ "plot", "--input", "", "--out", pre, NULL }, "input");
    snprintf(list, sizeof list, "%s,", t);
    expect_clean_error((const char *[]){ "plot", "--input", list, "--out", pre, NULL }, "input");
    snprintf(list, sizeof list, "%s,,%s", t, t);
    expect_clean_error((const char *[]){ "plot", "--input", list, "--out", pre, NULL }, "input");
    const char *ext[] = { ".svg", ".png", ".dat", ".gp" };
    for (int i = 0; i < 4; i++) {
        snprintf(f, sizeof f, "%s%s", pre, ext[i]);
        ck_assert_msg(!file_exists(f), "a refused table still wrote %s", f);
    }
}
END_TEST

/* issue 10.4: every integer option goes through one strict parser. */
START_TEST(test_strict_integers)
{
    const char *bad[] = { "\t-1", "\t3", "\n3", " 3", "3 ", "3\n", "+3", "-3", "-0", "0x10", "3.0", "1e3", "",
                          "18446744073709551616", "99999999999999999999999", "3a", "\xd9\xa3" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *v = bad[i];
        expect_clean_error((const char *[]){ "generate", "--geometry", "sphere", "--family", "uniform", "--d", "3",
                                             "--n", "8", "--seed", v, "--out", "/nonexistent/x.npy", NULL }, "seed");
        expect_clean_error((const char *[]){ "bracket", "--geometry", "sphere", "--family", "uniform", "--d", "3",
                                             "--n", v, "--beta", "1", "--eps", "0.1", NULL }, "--n");
        expect_clean_error((const char *[]){ "bracket", "--geometry", "sphere", "--family", "uniform", "--d", v,
                                             "--n", "8", "--beta", "1", "--eps", "0.1", NULL }, "--d");
        expect_clean_error((const char *[]){ "bracket", "--geometry", "sphere", "--family", "polygon", "--d", "2",
                                             "--n", "8", "--beta", "1", "--eps", "0.1", "--threads", v, NULL },
                           "threads");
        expect_clean_error((const char *[]){ "funk-hecke", "--d", v, "--n", "30", "--beta", "1", NULL }, "--d");
    }
    /* the largest seed is still a seed */
    char p[300];
    snprintf(p, sizeof p, "%s/s.npy", tmpdir);
    run_t r;
    run(&r, (const char *[]){ "generate", "--geometry", "sphere", "--family", "uniform", "--d", "3", "--n", "8",
                              "--seed", "18446744073709551615", "--out", p, NULL });
    ck_assert_msg(r.status == 0, "seed 2^64-1 refused: %s", r.err);
}
END_TEST

/* issue 10.5: a beta far too large for --n is refused at once. */
START_TEST(test_funkhecke_huge_beta)
{
    const char *betas[] = { "1e10", "1e300" };
    for (int i = 0; i < 2; i++) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        expect_clean_error((const char *[]){ "funk-hecke", "--d", "3", "--beta", betas[i], "--n", "300", "--tau",
                                             "1e-3", NULL }, "too small");
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        ck_assert_msg(s < 1.0, "funk-hecke --beta %s took %.2f s to refuse", betas[i], s);
    }
}
END_TEST

/* issue 10.6: a directory is named as such. */
START_TEST(test_directory_input)
{
    char q[300];
    double pts[4] = { 1, 0, 0, 1 };
    write_npy("two.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }", pts, 32, q, sizeof q);
    expect_clean_error((const char *[]){ "bracket", "--points", tmpdir, "--beta", "1", "--eps", "0.1", NULL },
                       "is a directory");
    expect_clean_error((const char *[]){ "bracket", "--points", q, "--multiplicities", tmpdir, "--beta", "1", "--eps",
                                         "0.1", NULL }, "is a directory");
    expect_clean_error((const char *[]){ "plot", "--input", tmpdir, "--out", q, NULL }, "is a directory");
}
END_TEST

/* issue 10.2: under an address-space limit (ulimit -v) the program ends with
 * a one-line error and never reports a truncated multiplicity file as the
 * whole file.  The file holds 2 multiplicities for a 1-point set, so exit 0
 * is always wrong.  Not run under AddressSanitizer, which reserves terabytes
 * of address space and cannot start under RLIMIT_AS. */
START_TEST(test_memory_limit)
{
#ifdef TEST_HAVE_ASAN
    fprintf(stderr, "test_memory_limit: skipped under AddressSanitizer (RLIMIT_AS cannot be used)\n");
#else
    char q[300], w[300];
    double pt[2] = { 1, 0 };
    write_npy("one.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 2), }", pt, 16, q, sizeof q);
    size_t len = 1 + 20000000 + 3;
    char *big = malloc(len);
    ck_assert(big != NULL);
    big[0] = '1';
    memset(big + 1, ' ', 20000000);
    memcpy(big + 1 + 20000000, "\n2\n", 3);
    write_bytes("w.txt", big, len, w, sizeof w);
    free(big);
    const unsigned long long kib[] = { 80000, 90000, 100000, 150000, 200000, 205000, 210000, 215000, 220000,
                                       225000, 230000, 240000, 250000, 300000, 400000 };
    for (size_t i = 0; i < sizeof kib / sizeof kib[0]; i++) {
        run_t r;
        run_ex(&r, (const char *[]){ "bracket", "--points", q, "--multiplicities", w, "--beta", "5", "--eps", "0.1",
                                     "--format", "json", NULL }, kib[i] * 1024, 30);
        size_t el = strlen(r.err);
        ck_assert_msg(r.status != -1, "ulimit -v %llu: still running after 30 s (stdout [%.200s])", kib[i], r.out);
        if (r.status == 127 && strstr(r.err, "error while loading shared libraries"))
            continue;   /* too small for the dynamic loader: nothing of ours ran */
        ck_assert_msg(r.status == 1 || r.status == 2, "ulimit -v %llu: exit %d, stdout [%.200s], stderr [%s]",
                      kib[i], r.status, r.out, r.err);
        ck_assert_msg(r.out[0] == '\0', "ulimit -v %llu: output [%.200s]", kib[i], r.out);
        ck_assert_msg(el > 11 && strncmp(r.err, "attnrank: ", 10) == 0 && strchr(r.err, '\n') == r.err + el - 1,
                      "ulimit -v %llu: stderr is not one 'attnrank: ' line: [%s]", kib[i], r.err);
        ck_assert_msg(strstr(r.err, "out of memory") || strstr(r.err, "2 multiplicities"),
                      "ulimit -v %llu: unexpected message [%s]", kib[i], r.err);
    }
#endif
}
END_TEST

/* issue 14.9: a FIFO with no writer is refused (or read as empty) at once,
 * never a hang in open(2); 14.7: control characters in echoed names are
 * escaped, so the error stays one line that cannot drive the terminal. */
START_TEST(test_fifo_and_escapes)
{
    char q[300], fifo[300], w[300];
    double pts[4] = { 1, 0, 0, 1 };
    write_npy("two.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }", pts, 32, q, sizeof q);
    snprintf(fifo, sizeof fifo, "%s/f.npy", tmpdir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    snprintf(w, sizeof w, "%s/w.txt", tmpdir);
    ck_assert_int_eq(mkfifo(w, 0600), 0);
    const char *const cases[][12] = {
        { "head", "--queries", fifo, "--keys", q, "--eps", "0.1", NULL },
        { "bracket", "--points", fifo, "--beta", "1", "--eps", "0.1", NULL },
        { "bracket", "--points", q, "--multiplicities", w, "--beta", "1", "--eps", "0.1", NULL },
        { "plot", "--input", fifo, "--out", q, NULL },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        run_t r;
        run_ex(&r, cases[c], 0, 20.0);
        ck_assert_msg(r.status == 1 || r.status == 2, "case %zu: exit %d (-1: hang), stderr [%s]", c, r.status, r.err);
        ck_assert_msg(strchr(r.err, '\n') == r.err + strlen(r.err) - 1, "case %zu: not one line [%s]", c, r.err);
    }
    /* a file name with a newline and an escape sequence */
    char bad[300];
    snprintf(bad, sizeof bad, "%s/a\nb\033]0;pwned\007.npy", tmpdir);
    expect_clean_error((const char *[]){ "head", "--queries", bad, "--keys", q, "--eps", "0.1", NULL }, "\\x0a");
    run_t r;
    run(&r, (const char *[]){ "head", "--queries", bad, "--keys", q, "--eps", "0.1", NULL });
    ck_assert_msg(strchr(r.err, '\033') == NULL && strchr(r.err, '\007') == NULL, "raw control bytes in [%s]", r.err);
    ck_assert_msg(strstr(r.err, "\\x1b]0;pwned\\x07") != NULL, "escape not shown as text: [%s]", r.err);
    expect_clean_error((const char *[]){ "fr\033ob", NULL }, "fr\\x1bob");
}
END_TEST

/* --upper is split strictly (an empty item is refused, not skipped) and
 * `scale --claim X` names both claims that have a sweep (issue 14 items
 * 10 and 11). */
START_TEST(test_lists_and_claims)
{
    const char *base[] = { "bracket", "--geometry", "sphere", "--family", "polygon", "--d", "2", "--n", "8",
                           "--beta", "1", "--eps", "0.1" };
#define B13 base[0], base[1], base[2], base[3], base[4], base[5], base[6], base[7], base[8], base[9], base[10], \
            base[11], base[12]
    cli_expect_refused(tmpdir, (const char *[]){ B13, "--upper", "svd,,symeig", NULL }, 2, "--upper: empty item", 60);
    cli_expect_refused(tmpdir, (const char *[]){ B13, "--upper", "svd,", NULL }, 2, "--upper: empty item", 60);
    cli_expect_refused(tmpdir, (const char *[]){ B13, "--upper", "", NULL }, 2, "--upper: empty item", 60);
    run_t r;
    run(&r, (const char *[]){ B13, "--upper", "svd,symeig", NULL });
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
#undef B13
    cli_expect_refused(tmpdir, (const char *[]){ "scale", "--claim", "X", "--d", "3", "--beta", "1:2:2", "--eps", "0.1",
                                                 NULL }, 2, "--claim must be S or B", 60);
    cli_expect_refused(tmpdir, (const char *[]){ "scale", "--d", "3", "--beta", "1:2:2", "--eps", "0.1", NULL }, 2,
                       "--claim S or --claim B", 60);
}
END_TEST

/* A verify request that selects no row of the laws table is an error that
 * lists what exists (issue 14 item 5: these exited 0 with empty output, or
 * printed only T and E). */
START_TEST(test_verify_selects_rows)
{
    const char *const reqs[][6] = { { "verify", "--claim", "S", "--d", "1", NULL },
                                    { "verify", "--claim", "B", "--d", "9", NULL },
                                    { "verify", "--claim", "B", "--d", "9", "--strict" },
                                    { "verify", "--d", "9", NULL },
                                    { "verify", "--claim", "T", "--d", "3", NULL },
                                    { "verify", "--claim", "Z", NULL } };
    for (size_t i = 0; i < sizeof reqs / sizeof reqs[0]; i++) {
        const char *args[7] = { 0 };
        for (size_t k = 0; k < 6 && reqs[i][k]; k++)
            args[k] = reqs[i][k];
        cli_expect_refused(tmpdir, args, 2, "S: d = 2, 3, 4, 5", 60);
        run_t r;
        run(&r, args);
        ck_assert_msg(strstr(r.err, "B: d = 2, 3") && strstr(r.err, "R: r = 1, 2, 3") && strstr(r.err, "T: no dimension"),
                      "%s", r.err);
    }
    run_t r;
    run(&r, (const char *[]){ "verify", "--claim", "T", "--format", "json", NULL });   /* no rows, no dimension asked */
    ck_assert_msg(r.status == 0 && strstr(r.out, "\"claim\":\"T\""), "exit %d: %s", r.status, r.err);
}
END_TEST

Suite *suite_cli(void)
{
    Suite *s = suite_create("cli");
    TEST_TCASE(tc, "cli");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_bad_numbers);
    tcase_add_test(tc, test_bad_geometry);
    tcase_add_test(tc, test_bad_files);
    tcase_add_test(tc, test_exit_codes);
    tcase_add_test(tc, test_good_runs);
    tcase_add_test(tc, test_scale_and_plot);
    tcase_add_test(tc, test_plot_injection);
    tcase_add_test(tc, test_plot_bad_rows);
    tcase_add_test(tc, test_strict_integers);
    tcase_add_test(tc, test_funkhecke_huge_beta);
    tcase_add_test(tc, test_directory_input);
    tcase_add_test(tc, test_fifo_and_escapes);
    tcase_add_test(tc, test_memory_limit);
    tcase_add_test(tc, test_lists_and_claims);
    tcase_add_test(tc, test_verify_selects_rows);
    suite_add_tcase(s, tc);
    return s;
}
