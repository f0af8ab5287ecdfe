/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_heads_manifest.c -- the heads manifest of `attnrank calib
 * --manifest` (constructions/formats/heads_manifest.h): a valid manifest
 * with its .npy files loads into the model_heads layout (head h in columns
 * h*dh..), --sentences keeps a prefix of the inputs; every malformed
 * manifest (format, version, keys, counts, integers, scale, names, paths
 * that leave the manifest's directory, duplicates, missing entries) and
 * every bad .npy (missing, wrong shape) is refused with one line naming the
 * manifest or the file; so is every path through a symbolic link. */
#include <check.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/infile.h"
#include "testutil.h"
#include "constructions/formats/heads_manifest.h"
#include "constructions/formats/npy.h"

static char dir[64];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/attnrank_manifest_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* value of (layer l, head h, input i, q/k, row r, col c) */
static double val(size_t l, size_t h, size_t i, int k, size_t r, size_t c)
{
    return (double)(1000 * l + 100 * h + 10 * i + k) + 0.01 * (double)r + 0.0001 * (double)c;
}

/* Two layers (2 heads of dim 3; 1 head of dim 2), two inputs of 4 and 5
 * positions: the .npy files and the manifest text (with `extra` spliced in
 * before "files" when given). */
static void write_model(const char *manifest_name, const char *extra)
{
    size_t nh[2] = { 2, 1 }, dh[2] = { 3, 2 }, np[2] = { 4, 5 };
    char files[4096] = "", p[256];
    snprintf(p, sizeof p, "%s/sub", dir);
    mkdir(p, 0700);
    for (size_t l = 0; l < 2; l++)
        for (size_t h = 0; h < nh[l]; h++)
            for (size_t i = 0; i < 2; i++) {
                for (int k = 0; k < 2; k++) {
                    double x[5 * 3];
                    for (size_t r = 0; r < np[i]; r++)
                        for (size_t c = 0; c < dh[l]; c++)
                            x[r * dh[l] + c] = val(l, h, i, k, r, c);
                    snprintf(p, sizeof p, "%s/sub/%c%zu%zu%zu.npy", dir, k ? 'k' : 'q', l, h, i);
                    ck_assert_int_eq(npy_write(p, x, np[i], dh[l]), AR_OK);
                }
                char e[200];
                snprintf(e, sizeof e, "%s{\"layer\":%zu,\"head\":%zu,\"input\":%zu,\"q\":\"sub/q%zu%zu%zu.npy\","
                         "\"k\":\"./sub/k%zu%zu%zu.npy\"}", files[0] ? "," : "", l, h, i, l, h, i, l, h, i);
                strcat(files, e);
            }
    char m[8192];
    snprintf(m, sizeof m, "{\"format\":\"attnrank-heads\",\"version\":1,\"model\":\"tiny-2\","
             "\"layers\":[{\"heads\":2,\"head_dim\":3,\"scale\":0.5},{\"heads\":1,\"head_dim\":2,\"scale\":2}],"
             "\"inputs\":[{\"name\":\"first\",\"positions\":4},{\"name\":\"second\",\"positions\":5}],%s"
             "\"files\":[%s]}", extra ? extra : "", files);
    ck_assert_int_eq(test_write_file(dir, manifest_name, m, strlen(m)), 0);
}

START_TEST(manifest_valid)
{
    write_model("m.json", NULL);
    char p[256];
    snprintf(p, sizeof p, "%s/m.json", dir);
    model_heads_t D;
    ck_assert_msg(heads_manifest_load(p, (size_t)-1, &D) == AR_OK, "%s", ar_error_get());
    ck_assert_str_eq(D.name, "tiny-2");
    ck_assert_uint_eq(D.nlayers, 2);
    ck_assert_uint_eq(D.ninputs, 2);
    ck_assert_uint_eq(D.n[1], 5);
    ck_assert(D.layer[0].scale == 0.5 && D.layer[1].scale == 2);
    ck_assert(D.layer[0].WQ == NULL && D.layer[0].H[0] == NULL);
    for (size_t l = 0; l < 2; l++) {
        const model_heads_layer_t *L = &D.layer[l];
        size_t w = L->nheads * L->dh;
        for (size_t i = 0; i < 2; i++)
            for (size_t h = 0; h < L->nheads; h++)
                for (size_t r = 0; r < D.n[i]; r++)
                    for (size_t c = 0; c < L->dh; c++) {
                        ck_assert(L->Q[i][r * w + h * L->dh + c] == val(l, h, i, 0, r, c));
                        ck_assert(L->K[i][r * w + h * L->dh + c] == val(l, h, i, 1, r, c));
                    }
    }
    pointset_t Q, K;
    ck_assert_int_eq(model_heads_pointsets(&D, 0, 1, 1, "t", &Q, &K), AR_OK);
    ck_assert(Q.n == 5 && Q.d == 3 && Q.x[2 * 3 + 1] == val(0, 1, 1, 0, 2, 1));
    ck_assert_ptr_nonnull(strstr(Q.provenance, "tiny-2 layer 0 head 1"));
    pointset_clear(&Q);
    pointset_clear(&K);
    model_heads_clear(&D);
    ck_assert_int_eq(heads_manifest_load(p, 1, &D), AR_OK);   /* the first input only */
    ck_assert_uint_eq(D.ninputs, 1);
    model_heads_clear(&D);
}
END_TEST

/* The manifest text of base.json (already written) with `from` replaced by
 * `to` must be refused, one line containing `needle`; with status want
 * unless want is AR_OK. */
static void load_refused(const char *from, const char *to, ar_status want, const char *needle)
{
    char p[256], *buf;
    size_t n;
    snprintf(p, sizeof p, "%s/base.json", dir);
    ck_assert_int_eq(infile_read_all(p, NULL, 1 << 20, &buf, &n), AR_OK);
    char *at = strstr(buf, from);
    ck_assert_msg(at != NULL, "no '%s' in the manifest", from);
    char out[16384];
    snprintf(out, sizeof out, "%.*s%s%s", (int)(at - buf), buf, to, at + strlen(from));
    free(buf);
    ck_assert_int_eq(test_write_file(dir, "bad.json", out, strlen(out)), 0);
    snprintf(p, sizeof p, "%s/bad.json", dir);
    model_heads_t D;
    ar_status st = heads_manifest_load(p, (size_t)-1, &D);
    ck_assert_msg(st != AR_OK, "accepted with '%s' -> '%s'", from, to);
    ck_assert_msg(want == AR_OK || st == want, "'%s' -> '%s': status %d, expected %d", from, to, st, want);
    const char *m = ar_error_get();
    ck_assert_msg(strchr(m, '\n') == NULL && strstr(m, needle), "'%s' -> '%s': message '%s'", from, to, m);
    ck_assert_uint_eq(D.nlayers, 0);
}

/* write_model, then load_refused (any failing status). */
static void refused(const char *from, const char *to, const char *needle)
{
    write_model("base.json", NULL);
    load_refused(from, to, AR_OK, needle);
}

START_TEST(manifest_refused)
{
    refused("attnrank-heads", "attnrank-head", "\"format\"");
    refused("\"version\":1", "\"version\":2", "\"version\"");
    refused("\"version\":1", "\"version\":1,\"extra\":0", "unknown key \"extra\"");
    refused("\"model\":\"tiny-2\"", "\"model\":\"tiny 2\"", "\"model\"");
    refused("\"model\":\"tiny-2\"", "\"model\":\"\"", "\"model\"");
    refused("\"heads\":2", "\"heads\":0", "\"heads\"");
    refused("\"heads\":2", "\"heads\":2.5", "\"heads\"");
    refused("\"head_dim\":3", "\"head_dim\":\"3\"", "\"head_dim\"");
    refused("\"scale\":0.5", "\"scale\":-0.5", "\"scale\"");
    refused("\"scale\":0.5", "\"scale\":0", "\"scale\"");
    refused("\"positions\":4", "\"positions\":1", "\"positions\"");
    refused("\"name\":\"first\"", "\"name\":\"f\\u00e9\"", "\"name\"");
    refused("\"name\":\"first\"", "\"name\":\"a\\nb\"", "\"name\"");
    refused("\"q\":\"sub/q000.npy\"", "\"q\":\"../q000.npy\"", "\"..\" component");
    refused("\"q\":\"sub/q000.npy\"", "\"q\":\"sub/../../etc/passwd\"", "\"..\" component");
    refused("\"q\":\"sub/q000.npy\"", "\"q\":\"/etc/passwd\"", "relative");
    refused("\"q\":\"sub/q000.npy\"", "\"q\":\"sub\\\\q000.npy\"", "backslash");
    refused("\"q\":\"sub/q000.npy\"", "\"q\":\"sub/q\\u0001.npy\"", "control character");
    refused("\"q\":\"sub/q000.npy\"", "\"q\":\"\"", "1..4096 bytes");
    refused("\"q\":\"sub/q000.npy\"", "\"q\":7", "must be strings");
    refused("{\"layer\":0,\"head\":0,\"input\":1", "{\"layer\":0,\"head\":0,\"input\":0", "a second time");
    refused("{\"layer\":1,\"head\":0,\"input\":1", "{\"layer\":1,\"head\":1,\"input\":1", "\"head\"");
    refused("{\"layer\":1,\"head\":0,\"input\":1", "{\"layer\":2,\"head\":0,\"input\":1", "\"layer\"");
    refused(",{\"layer\":1,\"head\":0,\"input\":1,\"q\":\"sub/q101.npy\",\"k\":\"./sub/k101.npy\"}", "",
            "must be an array of 6 entries");
    refused("\"layers\":[", "\"layers\":{},\"x\":[", "unknown key");
    refused("\"inputs\":[", "\"inputs\":[1,", "input 0");
    refused("{\"format\"", "{\"format\":1,\"format\"", "invalid JSON");          /* duplicate key */
    refused("\"files\":[", "\"files\":[[],", "must be an array of 6 entries");
    refused("sub/q101.npy", "sub/q100.npy", "shape 4 x 2");                       /* wrong .npy: 4 rows, 5 expected */
    refused("sub/q101.npy", "sub/none.npy", "none.npy");                          /* missing .npy */
}
END_TEST

/* Issue 21 (6): a path that passes the lexical checks but goes through a
 * symbolic link -- a linked directory pointing outside the manifest's
 * directory, a linked .npy file, or a link that stays inside -- is refused
 * with one line naming the manifest, the entry and the link (AR_EINVAL),
 * although the file behind it is a valid .npy of the right shape (which
 * the old reader loaded). */
START_TEST(manifest_symlinks)
{
    char out[64], p[256], t[256];
    snprintf(out, sizeof out, "/tmp/attnrank_outside_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(out));
    write_model("base.json", NULL);
    double x[4 * 3];
    for (size_t r = 0; r < 4; r++)
        for (size_t c = 0; c < 3; c++)
            x[r * 3 + c] = val(0, 0, 0, 0, r, c);
    snprintf(p, sizeof p, "%s/q000.npy", out);            /* outside: the same valid 4 x 3 block */
    ck_assert_int_eq(npy_write(p, x, 4, 3), AR_OK);
    snprintf(p, sizeof p, "%s/link", dir);                 /* a directory link to outside */
    ck_assert_int_eq(symlink(out, p), 0);
    snprintf(p, sizeof p, "%s/alias", dir);                /* a directory link that stays inside */
    ck_assert_int_eq(symlink("sub", p), 0);
    snprintf(p, sizeof p, "%s/sub/linked.npy", dir);       /* a file link to outside */
    snprintf(t, sizeof t, "%s/q000.npy", out);
    ck_assert_int_eq(symlink(t, p), 0);
    snprintf(p, sizeof p, "%s/sub/inner.npy", dir);        /* a file link that stays inside */
    ck_assert_int_eq(symlink("q000.npy", p), 0);
    char m[256];
    snprintf(m, sizeof m, "%s/bad.json: the file entry of layer 0 head 0 input 0, \"q\": the path 'link/q000.npy' "
             "goes through the symbolic link 'link'", dir);
    load_refused("\"q\":\"sub/q000.npy\"", "\"q\":\"link/q000.npy\"", AR_EINVAL, m);
    load_refused("\"q\":\"sub/q000.npy\"", "\"q\":\"./link//q000.npy\"", AR_EINVAL, "symbolic link 'link'");
    load_refused("\"q\":\"sub/q000.npy\"", "\"q\":\"alias/q000.npy\"", AR_EINVAL, "symbolic link 'alias'");
    snprintf(m, sizeof m, "%s/bad.json: the file entry of layer 0 head 0 input 0, \"q\": the path 'sub/linked.npy' "
             "is a symbolic link", dir);
    load_refused("\"q\":\"sub/q000.npy\"", "\"q\":\"sub/linked.npy\"", AR_EINVAL, m);
    load_refused("\"q\":\"sub/q000.npy\"", "\"q\":\"sub/inner.npy\"", AR_EINVAL, "'sub/inner.npy' is a symbolic");
    load_refused("\"k\":\"./sub/k000.npy\"", "\"k\":\"sub/linked.npy\"", AR_EINVAL, "0, \"k\": the path");
    /* a component that is a file, and a missing one: not links, the OS's reason (missing: AR_EIO) */
    load_refused("\"q\":\"sub/q000.npy\"", "\"q\":\"sub/q000.npy/x\"", AR_EINVAL, "'q000.npy' is not a directory");
    load_refused("\"q\":\"sub/q000.npy\"", "\"q\":\"nodir/q000.npy\"", AR_EIO, "cannot open 'nodir'");
    /* the outside file is untouched and still readable; the valid manifest still loads */
    model_heads_t D;
    snprintf(p, sizeof p, "%s/base.json", dir);
    ck_assert_msg(heads_manifest_load(p, (size_t)-1, &D) == AR_OK, "%s", ar_error_get());
    model_heads_clear(&D);
    snprintf(t, sizeof t, "rm -rf '%s'", out);
    ck_assert_int_eq(system(t), 0);
}
END_TEST

/* infile_handoff (what the manifest reader uses to read the descriptor it
 * opened): the next infile_open of that path takes the descriptor, once;
 * any other path is refused meanwhile; withdrawn, names open again. */
START_TEST(infile_handoff_once)
{
    char p[256], o[256];
    ck_assert_int_eq(test_write_file(dir, "a.txt", "abc", 3), 0);
    ck_assert_int_eq(test_write_file(dir, "b.txt", "xyz", 3), 0);
    snprintf(p, sizeof p, "%s/a.txt", dir);
    snprintf(o, sizeof o, "%s/b.txt", dir);
    int fd = open(o, O_RDONLY | O_CLOEXEC);                /* b's bytes, handed over under a's name */
    ck_assert_int_ge(fd, 0);
    infile_handoff(p, fd);
    char *buf;
    size_t n;
    ck_assert_int_eq(infile_read_all(o, NULL, 100, &buf, &n), AR_EINVAL);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "not the file handed over"));
    ck_assert_int_eq(infile_read_all(p, NULL, 100, &buf, &n), AR_OK);
    ck_assert(n == 3 && memcmp(buf, "xyz", 3) == 0);
    free(buf);
    ck_assert_int_eq(infile_read_all(p, NULL, 100, &buf, &n), AR_EINVAL);   /* taken: not twice */
    infile_handoff_end();
    ck_assert_int_eq(infile_read_all(p, NULL, 100, &buf, &n), AR_OK);
    ck_assert(n == 3 && memcmp(buf, "abc", 3) == 0);
    free(buf);
    fd = open(o, O_RDONLY | O_CLOEXEC);                    /* not taken: closed by infile_handoff_end */
    infile_handoff(p, fd);
    infile_handoff_end();
    ck_assert_int_eq(fcntl(fd, F_GETFD), -1);
}
END_TEST

Suite *suite_heads_manifest(void)
{
    Suite *s = suite_create("heads_manifest");
    TCase *tc = tcase_create("heads_manifest");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, manifest_valid);
    tcase_add_test(tc, manifest_refused);
    tcase_add_test(tc, manifest_symlinks);
    tcase_add_test(tc, infile_handoff_once);
    suite_add_tcase(s, tc);
    return s;
}
