/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_real.c -- the real-model layer: TF.js weights reader and
 * SentencePiece tokenizer on small files written here (always run), and the
 * USE-lite forward pass against the model's own TF.js run (tokens exactly;
 * attention inputs, q and k to relative error <= 1e-5; attention weights to
 * 1e-5), which needs `make calib-data` and is skipped with a printed reason
 * when that cache is absent (ATTNRANK_CALIB_DIR overrides .cache/calib);
 * every cached file is checked against its pinned sha256 before it is read. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "testutil.h"
#include "heads_threads.h"
#include "constructions/formats/corpus.h"
#include "constructions/formats/npy.h"
#include "constructions/models/real_model.h"
#include "constructions/models/real_pins.h"
#include "constructions/formats/spm_tokenizer.h"
#include "constructions/formats/tfjs_weights.h"

static char tmpdir[64];
static const char *wdir = tmpdir;   /* where write_file writes */

static void dir_setup(void)
{
    strcpy(tmpdir, "/tmp/attnrank_real_XXXXXX");
    ck_assert_msg(mkdtemp(tmpdir) != NULL, "mkdtemp failed");
    wdir = tmpdir;
}

static void dir_teardown(void)
{
    const char *names[] = { "model.json", "s1", "s2", "vocab.json" };
    char p[256];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", tmpdir, names[i]);
        unlink(p);
    }
    rmdir(tmpdir);
}

static void write_file(const char *name, const void *data, size_t n)
{
    ck_assert_msg(test_write_file(wdir, name, data, n) == 0, "cannot write %s/%s", wdir, name);
}

static void write_str(const char *name, const char *s) { write_file(name, s, strlen(s)); }

static const char *model_path(void)
{
    static char p[8192];
    snprintf(p, sizeof p, "%s/model.json", wdir);
    return p;
}

/* The current model.json into buf (at most cap - 1 bytes, NUL-terminated); its length. */
static size_t read_model_json(char *buf, size_t cap)
{
    FILE *f = fopen(model_path(), "rb");
    ck_assert_ptr_nonnull(f);
    size_t len = fread(buf, 1, cap - 1, f);
    fclose(f);
    buf[len] = '\0';
    return len;
}

/* ---------- TF.js weights ---------- */

static void le_f32(unsigned char *p, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    for (int k = 0; k < 4; k++)
        p[k] = (unsigned char)(u >> (8 * k));
}

/* Three weights: "a" [2,3] f32 (bytes 0..24), "i" [] int32 (24..28),
 * "b" [3] f32 (28..40); shards s1 = bytes 0..20, s2 = 20..40 (a crosses). */
static void write_synthetic(size_t s2_bytes, const char *extra_manifest)
{
    unsigned char buf[44];
    memset(buf, 0, sizeof buf);
    for (int i = 0; i < 6; i++)
        le_f32(buf + 4 * i, 0.5f * (float)i - 1.0f);
    buf[24] = 7;
    for (int i = 0; i < 3; i++)
        le_f32(buf + 28 + 4 * i, 10.0f + (float)i);
    write_file("s1", buf, 20);
    write_file("s2", buf + 20, s2_bytes);
    char js[1024];
    snprintf(js, sizeof js,
             "{\"modelTopology\": {}, \"weightsManifest\": [{\"paths\": [\"s1\", \"s2\"], \"weights\": ["
             "{\"name\": \"a\", \"shape\": [2, 3], \"dtype\": \"float32\"},"
             "{\"name\": \"i\", \"shape\": [], \"dtype\": \"int32\"},"
             "{\"name\": \"b\", \"shape\": [3], \"dtype\": \"float32\"}%s]}]}",
             extra_manifest);
    write_str("model.json", js);
}

START_TEST(weights_synthetic)
{
    write_synthetic(20, "");
    tfjs_weights_t W;
    ck_assert_int_eq(tfjs_weights_load(model_path(), &W), AR_OK);
    ck_assert_uint_eq(W.n_entries, 3);
    const tfjs_entry_t *b = tfjs_weights_find(&W, "b");
    ck_assert_ptr_nonnull(b);
    ck_assert_uint_eq(b->offset, 28);
    ck_assert_uint_eq(tfjs_weights_find(&W, "i")->offset, 24);
    ck_assert_uint_eq(tfjs_weights_find(&W, "i")->count, 1);
    double *x;
    size_t da[2] = { 2, 3 }, db[1] = { 3 };
    ck_assert_int_eq(tfjs_weights_get(&W, "a", 2, da, &x), AR_OK);
    for (int i = 0; i < 6; i++)
        ck_assert(x[i] == 0.5 * i - 1.0);
    free(x);
    ck_assert_int_eq(tfjs_weights_get(&W, "b", 1, db, &x), AR_OK);
    ck_assert(x[0] == 10.0 && x[1] == 11.0 && x[2] == 12.0);
    free(x);
    int32_t iv;
    ck_assert_int_eq(tfjs_weights_get_i32(&W, "i", &iv), AR_OK);
    ck_assert_int_eq(iv, 7);
    ck_assert_int_eq(tfjs_weights_get_i32(&W, "b", &iv), AR_EINVAL);
    /* wrong shape, int dtype, missing name */
    ck_assert_int_eq(tfjs_weights_get(&W, "b", 2, da, &x), AR_EINVAL);
    ck_assert_int_eq(tfjs_weights_get(&W, "i", 0, NULL, &x), AR_EINVAL);
    ck_assert_int_eq(tfjs_weights_get(&W, "zz", 1, db, &x), AR_EINVAL);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "zz"));
    tfjs_weights_clear(&W);
}
END_TEST

START_TEST(weights_corrupt)
{
    tfjs_weights_t W;
    /* truncated shard, padded shard */
    write_synthetic(19, "");
    ck_assert_int_eq(tfjs_weights_load(model_path(), &W), AR_EINVAL);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "truncated"));
    write_synthetic(24, "");
    ck_assert_int_eq(tfjs_weights_load(model_path(), &W), AR_EINVAL);
    /* an extra entry the shards do not hold */
    write_synthetic(20, ", {\"name\": \"c\", \"shape\": [1], \"dtype\": \"float32\"}");
    ck_assert_int_eq(tfjs_weights_load(model_path(), &W), AR_EINVAL);
    /* unsupported dtype, quantization, bad dims, duplicates */
    const char *bad[] = {
        ", {\"name\": \"c\", \"shape\": [0], \"dtype\": \"float16\"}",
        ", {\"name\": \"c\", \"shape\": [0], \"dtype\": \"float32\", \"quantization\": {}}",
        ", {\"name\": \"c\", \"shape\": [-1], \"dtype\": \"float32\"}",
        ", {\"name\": \"c\", \"shape\": [1.5], \"dtype\": \"float32\"}",
        ", {\"name\": \"c\", \"shape\": [0,1,1,1,1,1,1,1,1], \"dtype\": \"float32\"}",
        ", {\"name\": \"a\", \"shape\": [0], \"dtype\": \"float32\"}",
        ", {\"name\": 3, \"shape\": [0], \"dtype\": \"float32\"}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_synthetic(20, bad[i]);
        ck_assert_msg(tfjs_weights_load(model_path(), &W) == AR_EINVAL, "accepted case %zu", i);
        ck_assert_ptr_null(strchr(ar_error_get(), '\n'));
    }
    /* corrupt JSON, missing shard, unsafe shard path */
    write_str("model.json", "{\"weightsManifest\": [{\"paths\": [\"s1\"], \"weights\": [");
    ck_assert_int_eq(tfjs_weights_load(model_path(), &W), AR_EINVAL);
    write_str("model.json", "{\"weightsManifest\": [{\"paths\": [\"nope\"], \"weights\": []}]}");
    ck_assert_int_eq(tfjs_weights_load(model_path(), &W), AR_EIO);
    write_str("model.json", "{\"weightsManifest\": [{\"paths\": [\"../s1\"], \"weights\": []}]}");
    ck_assert_int_eq(tfjs_weights_load(model_path(), &W), AR_EINVAL);
    write_str("model.json", "{\"weightsManifest\": {}}");
    ck_assert_int_eq(tfjs_weights_load(model_path(), &W), AR_EINVAL);
    /* a NaN in the data is refused when fetched */
    write_synthetic(20, "");
    unsigned char nan4[4] = { 0, 0, 0xc0, 0x7f };
    char p[256];
    snprintf(p, sizeof p, "%s/s2", tmpdir);
    FILE *f = fopen(p, "r+b");
    ck_assert_ptr_nonnull(f);
    fseek(f, 12, SEEK_SET);   /* byte 32 overall: b[1] */
    fwrite(nan4, 1, 4, f);
    fclose(f);
    ck_assert_int_eq(tfjs_weights_load(model_path(), &W), AR_OK);
    double *x;
    size_t db[1] = { 3 };
    ck_assert_int_eq(tfjs_weights_get(&W, "b", 1, db, &x), AR_EINVAL);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "non-finite"));
    tfjs_weights_clear(&W);
}
END_TEST


/* Issue 14 item 8: a second "weightsManifest" appended inside model.json's
 * last '}' (JavaScript reads the last one, a first-key reader the first)
 * is refused, as is a duplicate key inside a weight entry. */
START_TEST(weights_duplicate_keys)
{
    write_synthetic(20, "");
    char js[2048];
    size_t len = read_model_json(js, sizeof js - 200);
    ck_assert(len > 0 && js[len - 1] == '}');
    strcpy(js + len - 1, ", \"weightsManifest\": [{\"paths\": [\"s1\"], \"weights\": []}]}");
    write_str("model.json", js);
    tfjs_weights_t W;
    ck_assert_int_eq(tfjs_weights_load(model_path(), &W), AR_EINVAL);
    ck_assert_msg(strstr(ar_error_get(), "duplicate") != NULL, "%s", ar_error_get());
    write_synthetic(20, ", {\"name\": \"c\", \"shape\": [0], \"shape\": [1], \"dtype\": \"float32\"}");
    ck_assert_int_eq(tfjs_weights_load(model_path(), &W), AR_EINVAL);
    ck_assert_msg(strstr(ar_error_get(), "duplicate") != NULL, "%s", ar_error_get());
}
END_TEST

/* Issue 14 item 7: control characters of a model file (here an OSC title
 * sequence as the dtype) reach the message only as \xNN text, on one line. */
START_TEST(weights_control_chars)
{
    write_synthetic(20, ", {\"name\": \"c\", \"shape\": [0], \"dtype\": \"\\u001b]0;pwned\\u0007\"}");
    tfjs_weights_t W;
    ck_assert_int_eq(tfjs_weights_load(model_path(), &W), AR_EINVAL);
    const char *m = ar_error_get();
    ck_assert_msg(strstr(m, "dtype '\\x1b]0;pwned\\x07'") != NULL, "message '%s'", m);
    ck_assert_msg(strstr(m, model_path()) == m, "message '%s' does not start with the file", m);
    for (const char *c = m; *c; c++)
        ck_assert_msg((unsigned char)*c >= 0x20 && *c != 0x7f, "control byte 0x%02x in the message", *c);
}
END_TEST

/* Issue 14 item 11: a vocabulary whose scores are all null is refused when
 * loaded, naming the file and what is wrong (it used to load and fail later
 * as "forward: 139 tokens ..."). */
START_TEST(vocab_all_null)
{
    write_str("vocab.json", "[[\"a\",0],[\"b\",0],[\"c\",0],[\"d\",0],[\"e\",0],[\"f\",0],"
                            "[\"\\u2581ab\",null],[\"b\",null],[\"\",-1]]");
    char p[8192];
    snprintf(p, sizeof p, "%s/vocab.json", wdir);
    spm_vocab_t V;
    ck_assert_int_eq(spm_vocab_load(p, &V), AR_EINVAL);
    ck_assert_msg(strstr(ar_error_get(), p) == ar_error_get(), "%s", ar_error_get());
    ck_assert_msg(strstr(ar_error_get(), "null") != NULL, "%s", ar_error_get());
    /* one scored piece is enough */
    write_str("vocab.json", "[[\"a\",0],[\"b\",0],[\"c\",0],[\"d\",0],[\"e\",0],[\"f\",0],"
                            "[\"\\u2581ab\",null],[\"b\",-2]]");
    ck_assert_msg(spm_vocab_load(p, &V) == AR_OK, "%s", ar_error_get());
    ck_assert_str_eq(V.path, p);
    spm_vocab_clear(&V);
}
END_TEST

/* Issue 14 item 2: model.json in a directory whose path is longer than 512
 * bytes (six nested 100-character directories).  The old reader cut the
 * path at 512 bytes and read the shards of an ancestor directory; here every
 * ancestor holds decoy shards of the right sizes with other values. */
START_TEST(weights_long_path)
{
    char cur[1024], *dirs[6];
    strcpy(cur, tmpdir);
    unsigned char decoy[20];
    memset(decoy, 0x40, sizeof decoy);    /* float32 3.0039, never a synthetic value */
    for (int level = 0; level < 6; level++) {
        wdir = level ? dirs[level - 1] : tmpdir;
        write_file("s1", decoy, 20);
        write_file("s2", decoy, 20);
        size_t L = strlen(cur);
        cur[L] = '/';
        memset(cur + L + 1, 'a' + level, 100);
        cur[L + 101] = '\0';
        ck_assert_int_eq(mkdir(cur, 0700), 0);
        dirs[level] = strdup(cur);
    }
    ck_assert_uint_gt(strlen(cur), 600);
    wdir = dirs[5];
    write_synthetic(20, "");
    tfjs_weights_t W;
    ar_status st = tfjs_weights_load(model_path(), &W);
    double a[6] = { 0 }, b[3] = { 0 };
    if (st == AR_OK) {
        double *x;
        size_t da[2] = { 2, 3 }, db[1] = { 3 };
        if (tfjs_weights_get(&W, "a", 2, da, &x) == AR_OK) { memcpy(a, x, sizeof a); free(x); }
        if (tfjs_weights_get(&W, "b", 1, db, &x) == AR_OK) { memcpy(b, x, sizeof b); free(x); }
        tfjs_weights_clear(&W);
    }
    char p[1200];
    for (int level = 5; level >= 0; level--) {
        const char *names[] = { "s1", "s2", "model.json" };
        for (size_t i = 0; i < 3; i++) {
            snprintf(p, sizeof p, "%s/%s", dirs[level], names[i]);
            unlink(p);
        }
        rmdir(dirs[level]);
        free(dirs[level]);
    }
    wdir = tmpdir;
    ck_assert_msg(st == AR_OK, "%s", ar_error_get());
    for (int i = 0; i < 6; i++)
        ck_assert_msg(a[i] == 0.5 * i - 1.0, "a[%d] = %g: shards read from another directory", i, a[i]);
    ck_assert(b[0] == 10.0 && b[1] == 11.0 && b[2] == 12.0);
}
END_TEST

/* A shard path the OS cannot take (model.json's directory spelled with
 * 1950 "./" components, plus a 250-character shard name: more than
 * PATH_MAX bytes) is refused with a message that says so. */
START_TEST(weights_path_max)
{
    char dir[4200];
    size_t k = (size_t)snprintf(dir, sizeof dir, "%s", tmpdir);
    for (int i = 0; i < 1950; i++) {
        memcpy(dir + k, "/.", 2);
        k += 2;
    }
    dir[k] = '\0';
    char name[251];
    memset(name, 's', 250);
    name[250] = '\0';
    char js[600];
    snprintf(js, sizeof js, "{\"weightsManifest\": [{\"paths\": [\"%s\"], \"weights\": []}]}", name);
    write_str("model.json", js);
    char mp[4300];
    snprintf(mp, sizeof mp, "%s/model.json", dir);
    ck_assert_uint_lt(strlen(mp), 4096);
    tfjs_weights_t W;
    ck_assert_msg(tfjs_weights_load(mp, &W) == AR_EINVAL, "%s", ar_error_get());
    ck_assert_msg(strstr(ar_error_get(), "PATH_MAX") != NULL, "%s", ar_error_get());
    ck_assert_ptr_null(strchr(ar_error_get(), '\n'));
}
END_TEST

/* Every proper prefix of a valid model.json / vocab.json is refused with a
 * one-line message; seeded random byte corruptions never crash. */
START_TEST(truncated_and_corrupt_files)
{
    write_synthetic(20, "");
    char p[256];
    char full[1024];
    size_t len = read_model_json(full, sizeof full);
    tfjs_weights_t W;
    for (size_t L = 0; L < len; L++) {
        write_file("model.json", full, L);
        ar_status st = tfjs_weights_load(model_path(), &W);
        ck_assert_msg(st == AR_EINVAL, "prefix of %zu bytes: status %d", L, (int)st);
        ck_assert_ptr_null(strchr(ar_error_get(), '\n'));
    }
    test_rng_init(test_seed());
    for (int trial = 0; trial < 300; trial++) {
        char buf[1024];
        memcpy(buf, full, len);
        int flips = (int)test_irand(1, 4);
        for (int k = 0; k < flips; k++)
            buf[test_irand(0, (long)len - 1)] = (char)test_irand(1, 255);
        write_file("model.json", buf, len);
        if (tfjs_weights_load(model_path(), &W) == AR_OK)
            tfjs_weights_clear(&W);
        else
            ck_assert_ptr_null(strchr(ar_error_get(), '\n'));
    }
    const char *voc = "[[\"\\ufffd\",0],[\"<s>\",0],[\"</s>\",0],[\"x1\",0],[\"x2\",0],[\"x3\",0],"
                      "[\"\\u2581ab\",-1.0],[\"b\",null]]";
    size_t vl = strlen(voc);
    snprintf(p, sizeof p, "%s/vocab.json", tmpdir);
    spm_vocab_t V;
    write_file("vocab.json", voc, vl);
    ck_assert_int_eq(spm_vocab_load(p, &V), AR_OK);
    ck_assert(V.score[7] == 0.0);   /* null score reads as 0, as in the package */
    spm_vocab_clear(&V);
    for (size_t L = 0; L < vl; L++) {
        write_file("vocab.json", voc, L);
        ck_assert_msg(spm_vocab_load(p, &V) == AR_EINVAL, "vocab prefix %zu accepted", L);
    }
}
END_TEST

/* ---------- tokenizer ---------- */

static ar_status encode(const spm_vocab_t *V, const char *s, int **ids, size_t *n)
{
    return spm_encode(V, s, ids, n);
}

START_TEST(tokenizer_synthetic)
{
    /* reserved 0..5; then pieces with log-probs */
    write_str("vocab.json",
              "[[\"\\ufffd\",0],[\"<s>\",0],[\"</s>\",0],[\"x1\",0],[\"x2\",0],[\"x3\",0],"
              "[\"\\u2581ab\",-1.0],[\"\\u2581a\",-1.5],[\"b\",-1.0],[\"c\",-2.0],[\"bc\",-2.5],"
              "[\"\\u2581\",-3.0],[\"\\u2581a\",-0.1]]");
    char p[256];
    snprintf(p, sizeof p, "%s/vocab.json", tmpdir);
    spm_vocab_t V;
    ck_assert_int_eq(spm_vocab_load(p, &V), AR_OK);
    ck_assert_uint_eq(V.n, 13);
    int *ids;
    size_t n;
    /* "abc": paths (_ab)(c) = -3.0, (_a)(bc) with the later duplicate id 12
     * = -2.6, (_a)(b)(c) = -3.1 -> best is [12, 10] */
    ck_assert_int_eq(encode(&V, "abc", &ids, &n), AR_OK);
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(ids[0], 12);
    ck_assert_int_eq(ids[1], 10);
    free(ids);
    /* unknown characters: "a zzb" -> _a, _, z?, z? (collapsed to one 0), b */
    ck_assert_int_eq(encode(&V, "a zzb", &ids, &n), AR_OK);
    ck_assert_uint_eq(n, 4);
    ck_assert_int_eq(ids[0], 12);
    ck_assert_int_eq(ids[1], 11);
    ck_assert_int_eq(ids[2], 0);
    ck_assert_int_eq(ids[3], 8);
    free(ids);
    ck_assert_int_eq(encode(&V, "", &ids, &n), AR_EINVAL);
    ck_assert_int_eq(encode(&V, "caf\xc3\xa9", &ids, &n), AR_EINVAL);
    ck_assert_int_eq(encode(&V, "a\tb", &ids, &n), AR_EINVAL);
    spm_vocab_clear(&V);
    /* malformed vocabularies */
    const char *bad[] = { "{}", "[[\"a\",0]]", "[[\"a\",0],[\"b\",0],[\"c\",0],[\"d\",0],[\"e\",0],[\"f\",0],[\"g\"]]",
                          "[[\"a\",0],[\"b\",0],[\"c\",0],[\"d\",0],[\"e\",0],[\"f\",0],[1,2]]" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_str("vocab.json", bad[i]);
        ck_assert_msg(spm_vocab_load(p, &V) == AR_EINVAL, "accepted vocabulary %zu", i);
    }
    /* a piece longer than SPM_MAX_PIECE characters */
    char longv[600];
    int k = snprintf(longv, sizeof longv, "[[\"a\",0],[\"b\",0],[\"c\",0],[\"d\",0],[\"e\",0],[\"f\",0],[\"");
    memset(longv + k, 'x', SPM_MAX_PIECE + 1);
    snprintf(longv + k + SPM_MAX_PIECE + 1, sizeof longv - (size_t)k - SPM_MAX_PIECE - 1, "\",-1]]");
    write_str("vocab.json", longv);
    ck_assert_int_eq(spm_vocab_load(p, &V), AR_EINVAL);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "longer than"));
}
END_TEST

/* ---------- the real model against its TF.js reference ---------- */

static const char *calib_dir(void)
{
    const char *e = getenv("ATTNRANK_CALIB_DIR");
    return e && *e ? e : ".cache/calib";
}

/* 1 when the cache is there (else why says what is absent); a cache that
 * is there must hold exactly the pinned files (model and reference), which
 * are checked before anything is read. */
static int have_reference(char *why, size_t n)
{
    char p[600];
    struct stat sb;
    snprintf(p, sizeof p, "%s/model/package/dist/model.json", calib_dir());
    if (stat(p, &sb) != 0) {
        snprintf(why, n, "%s absent", p);
        return 0;
    }
    size_t np;
    const real_pin_t *pins = real_pins_model(&np);
    ck_assert_msg(real_pins_verify(calib_dir(), pins, np) == AR_OK, "%s", ar_error_get());
    pins = real_pins_reference(&np);
    ck_assert_msg(real_pins_verify(calib_dir(), pins, np) == AR_OK, "%s", ar_error_get());
    return 1;
}

/* max |x - ref| / max |ref| over an n x c block (x with row stride sx). */
static double rel_err(const double *x, size_t sx, const double *ref, size_t n, size_t c)
{
    double num = 0, den = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < c; j++) {
            num = fmax(num, fabs(x[i * sx + j] - ref[i * c + j]));
            den = fmax(den, fabs(ref[i * c + j]));
        }
    return num / den;
}

static double *load_ref(size_t s, size_t l, const char *what, size_t rows, size_t cols)
{
    char p[700];
    snprintf(p, sizeof p, "%s/ref/s%zu_L%zu_%s.npy", calib_dir(), s, l, what);
    double *x;
    size_t r, c;
    ck_assert_msg(npy_read(p, &x, &r, &c) == AR_OK, "%s", ar_error_get());
    ck_assert_msg(r == rows && c == cols, "%s: shape %zux%zu, expected %zux%zu", p, r, c, rows, cols);
    return x;
}

/* issue 35: real_model_heads runs its sentences side by side; the heads (digest of every number)
 * are the same for 1..64 threads, and of two failing sentences (empty, too long) the first in order
 * is reported, whatever the thread count. */
typedef struct {
    const real_model_t *M;
    const corpus_t *C;
} real_job_t;

static ar_status real_job(void *ctx, model_heads_t *D)
{
    real_job_t *j = ctx;
    return real_model_heads(j->M, j->C, D);
}

START_TEST(real_heads_thread_counts)
{
    char why[700];
    if (!have_reference(why, sizeof why)) {
        printf("test_real: SKIP thread counts: %s (run 'make calib-data')\n", why);
        return;
    }
    real_model_t M;
    ck_assert_msg(real_pins_load(calib_dir(), &M) == AR_OK, "%s", ar_error_get());
    char *text[] = { "The licence grants every user the same rights.", "Attention is a weighted average.",
                     "Copies must keep this notice.", "No warranty is given, to the extent the law allows.",
                     "Each head sees queries and keys.", "Modified versions must be marked as such." };
    corpus_t C = { .n = 6, .text = text, .entry = NULL };
    real_job_t job = {.M = &M, .C = &C};
    check_heads_thread_counts(real_job, &job);
    static char longer[5001];
    memset(longer, 'a', 5000);
    char *bad[] = { "A full sentence comes first.", "", "Another full sentence.", longer };
    corpus_t B = { .n = 4, .text = bad, .entry = NULL };
    for (size_t t = 0; t < TEST_NTHREAD_COUNTS; t++) {
        ar_config_t cfg;
        const ar_config_t *prev = test_threads_install(&cfg, TEST_THREAD_COUNTS[t]);
        model_heads_t D;
        ar_status st = real_model_heads(&M, &B, &D);
        ar_config_install(prev);
        ck_assert_int_eq(st, AR_EINVAL);
        ck_assert_msg(strstr(ar_error_get(), "(got 0)") != NULL, "%d threads: %s", TEST_THREAD_COUNTS[t],
                      ar_error_get());
    }
    real_model_clear(&M);
}
END_TEST

START_TEST(real_against_tfjs)
{
    char why[700];
    if (!have_reference(why, sizeof why)) {
        printf("test_real: SKIP comparison with the TF.js reference: %s (run 'make calib-data')\n", why);
        return;
    }
    char p[700];
    real_model_t M;
    ck_assert_msg(real_pins_load(calib_dir(), &M) == AR_OK, "%s", ar_error_get());
    snprintf(p, sizeof p, "%s/ref/sentences.txt", calib_dir());
    FILE *f = fopen(p, "r");
    ck_assert_ptr_nonnull(f);
    char line[4096];
    size_t s = 0;
    double worst = 0, worst_attn = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        int *ids;
        size_t n;
        ck_assert_msg(spm_encode(&M.vocab, line, &ids, &n) == AR_OK, "%s", ar_error_get());
        /* token ids exactly as the package's tokenizer */
        snprintf(p, sizeof p, "%s/ref/s%zu.ids", calib_dir(), s);
        FILE *g = fopen(p, "r");
        ck_assert_ptr_nonnull(g);
        size_t k = 0;
        int id;
        while (fscanf(g, "%d", &id) == 1) {
            ck_assert_msg(k < n && ids[k] == id, "sentence %zu token %zu: C %d, reference %d", s, k,
                          k < n ? ids[k] : -1, id);
            k++;
        }
        fclose(g);
        ck_assert_uint_eq(k, n);
        real_acts_t A;
        ck_assert_msg(real_model_forward(&M, ids, n, &A) == AR_OK, "%s", ar_error_get());
        for (size_t l = 0; l < REAL_LAYERS; l++) {
            const real_layer_t *L = &M.layer[l];
            double *h = load_ref(s, l, "ln", n, L->d_in), *q = load_ref(s, l, "q", n, L->d),
                   *kk = load_ref(s, l, "k", n, L->d);
            double eh = rel_err(A.h[l], L->d_in, h, n, L->d_in);
            double eq = rel_err(A.q[l], L->d, q, n, L->d);
            double ek = rel_err(A.k[l], L->d, kk, n, L->d);
            printf("test_real: sentence %zu (%zu tokens) layer %zu: rel err ln %.2e q %.2e k %.2e\n", s, n, l,
                   eh, eq, ek);
            ck_assert_msg(eh <= 1e-5 && eq <= 1e-5 && ek <= 1e-5,
                          "sentence %zu layer %zu: rel err ln %.3e q %.3e k %.3e > 1e-5", s, l, eh, eq, ek);
            worst = fmax(worst, fmax(eh, fmax(eq, ek)));
            /* attention weights per head from the point sets */
            size_t dh = real_model_head_dim(&M, l);
            double *att = load_ref(s, l, "attn", REAL_HEADS * n, n);
            for (size_t hd = 0; hd < REAL_HEADS; hd++) {
                pointset_t Q, K;
                ck_assert_int_eq(real_head_pointsets(&M, &A, l, hd, "test", &Q, &K), AR_OK);
                for (size_t i = 0; i < n; i++) {
                    double row[512], mx = -INFINITY, tot = 0;
                    for (size_t j = 0; j < n; j++) {
                        double a = 0;
                        for (size_t c = 0; c < dh; c++)
                            a += Q.x[i * dh + c] * K.x[j * dh + c];
                        row[j] = a * L->scale;
                        mx = fmax(mx, row[j]);
                    }
                    for (size_t j = 0; j < n; j++)
                        tot += (row[j] = exp(row[j] - mx));
                    for (size_t j = 0; j < n; j++)
                        worst_attn = fmax(worst_attn, fabs(row[j] / tot - att[(hd * n + i) * n + j]));
                }
                pointset_clear(&Q);
                pointset_clear(&K);
            }
            free(att);
            free(h); free(q); free(kk);
        }
        real_acts_clear(&A);
        free(ids);
        s++;
    }
    fclose(f);
    printf("test_real: %zu sentences, worst rel err %.2e, worst attention abs err %.2e\n", s, worst, worst_attn);
    ck_assert_uint_ge(s, 3);
    ck_assert_msg(worst_attn <= 1e-5, "attention weights differ by %.3e", worst_attn);
    /* the key bias of layer 1 head 2 (columns d + 2 dh .. of the qkv bias) */
    double mxbk = 0;
    for (size_t c = 0; c < 128; c++)
        mxbk = fmax(mxbk, fabs(M.layer[1].qkv_bias[512 + 2 * 128 + c]));
    ck_assert(mxbk < 1e-4);   /* the key bias is ~0 in this model */
    ck_assert_uint_eq(M.max_tokens, 128);
    int many[129] = { 0 };
    real_acts_t A2;
    ck_assert_int_eq(real_model_forward(&M, many, 129, &A2), AR_EINVAL);
    many[0] = 8002;
    ck_assert_int_eq(real_model_forward(&M, many, 3, &A2), AR_EINVAL);
    real_model_clear(&M);
}
END_TEST

START_TEST(real_model_errors)
{
    real_model_t M;
    ck_assert_int_eq(real_model_load("/nonexistent_attnrank_dir", &M), AR_EIO);
    /* a model.json that lacks the USE-lite tensors */
    write_synthetic(20, "");
    write_str("vocab.json", "[[\"a\",0],[\"b\",0],[\"c\",0],[\"d\",0],[\"e\",0],[\"f\",0],[\"g\",-1]]");
    ck_assert_int_eq(real_model_load(tmpdir, &M), AR_EINVAL);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "Embeddings_en"));
}
END_TEST

Suite *suite_real(void)
{
    Suite *s = suite_create("real");
    TEST_TCASE(tc, "files");
    tcase_add_checked_fixture(tc, dir_setup, dir_teardown);
    tcase_add_test(tc, weights_synthetic);
    tcase_add_test(tc, weights_corrupt);
    tcase_add_test(tc, weights_duplicate_keys);
    tcase_add_test(tc, weights_control_chars);
    tcase_add_test(tc, vocab_all_null);
    tcase_add_test(tc, weights_long_path);
    tcase_add_test(tc, weights_path_max);
    tcase_add_test(tc, truncated_and_corrupt_files);
    tcase_add_test(tc, tokenizer_synthetic);
    tcase_add_test(tc, real_model_errors);
    suite_add_tcase(s, tc);
    TEST_TCASE(tr, "reference");
    tcase_add_test(tr, real_against_tfjs);
    tcase_add_test(tr, real_heads_thread_counts);
    suite_add_tcase(s, tr);
    return s;
}
