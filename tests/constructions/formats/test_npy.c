/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_npy.c -- .npy and multiplicity files: round trips, hand-made
 * byte-level files (float32, Fortran order, big-endian, format 2.0/3.0,
 * (r,) shapes) compared exactly, and every malformed case rejected with a
 * one-line message that starts with the path. */
#include <check.h>
#include <dirent.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <flint/fmpz_vec.h>
#include "testutil.h"
#include "base/config.h"
#include "constructions/formats/npy.h"
#include "numerics/rng.h"

static char tmpdir[64];

static void dir_setup(void)
{
    strcpy(tmpdir, "/tmp/attnrank_npy_XXXXXX");
    ck_assert_msg(mkdtemp(tmpdir) != NULL, "mkdtemp failed");
}

static void dir_teardown(void)
{
    DIR *d = opendir(tmpdir);
    if (!d)
        return;
    struct dirent *e;
    char p[512];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(p, sizeof p, "%s/%s", tmpdir, e->d_name);
        unlink(p);
    }
    closedir(d);
    rmdir(tmpdir);
}

static const char *tpath(const char *name)
{
    static char buf[4][256];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
    return buf[k];
}

static void write_bytes(const char *path, const void *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    ck_assert_msg(f != NULL, "cannot create %s", path);
    ck_assert(fwrite(b, 1, n, f) == n);
    ck_assert(fclose(f) == 0);
}

/* A .npy image: magic, version, header length, dict text padded with
 * spaces and a newline to a multiple of 64, then the data bytes. */
static size_t make_npy(unsigned char *out, int major, const char *dict, const void *data, size_t nbytes)
{
    size_t pre = major == 1 ? 10 : 12, dl = strlen(dict);
    size_t hlen = dl + 1;
    hlen += (64 - (pre + hlen) % 64) % 64;
    memcpy(out, "\x93NUMPY", 6);
    out[6] = (unsigned char)major;
    out[7] = 0;
    out[8] = (unsigned char)(hlen & 0xff);
    out[9] = (unsigned char)(hlen >> 8);
    if (major != 1) {
        out[10] = (unsigned char)(hlen >> 16);
        out[11] = (unsigned char)(hlen >> 24);
    }
    memcpy(out + pre, dict, dl);
    memset(out + pre + dl, ' ', hlen - dl - 1);
    out[pre + hlen - 1] = '\n';
    if (nbytes)
        memcpy(out + pre + hlen, data, nbytes);
    return pre + hlen + nbytes;
}

static void put_f8(unsigned char *p, double v, int big)
{
    uint64_t u;
    memcpy(&u, &v, 8);
    for (int b = 0; b < 8; b++)
        p[big ? 7 - b : b] = (unsigned char)(u >> (8 * b));
}

static void put_f4(unsigned char *p, float v, int big)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    for (int b = 0; b < 4; b++)
        p[big ? 3 - b : b] = (unsigned char)(u >> (8 * b));
}

static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* The last error is one line starting with "path: ". */
static void check_message(const char *path)
{
    const char *m = ar_error_get();
    size_t pl = strlen(path);
    ck_assert_msg(strncmp(m, path, pl) == 0 && m[pl] == ':' && m[pl + 1] == ' ',
                  "message does not start with the path: '%s'", m);
    ck_assert_msg(strchr(m, '\n') == NULL && strlen(m) > pl + 3, "bad message '%s'", m);
}

START_TEST(test_roundtrip)
{
    uint64_t seed = test_seed() + 1;
    rng_t r;
    rng_init(&r, seed);
    const double special[] = { -0.0, 0.0, DBL_MIN, 4.9406564584124654e-324, DBL_MAX, -DBL_MAX, 1.0, -1e-300 };
    for (int rep = 0; rep < 40; rep++) {
        size_t rows = 1 + (size_t)(rng_u64(&r) % 20), cols = 1 + (size_t)(rng_u64(&r) % 10);
        double *x = malloc(rows * cols * sizeof *x);
        for (size_t i = 0; i < rows * cols; i++) {
            uint64_t k = rng_u64(&r) % 10;
            x[i] = k < 8 && rng_u64(&r) % 4 == 0 ? special[k] : ldexp(rng_normal(&r), (int)(rng_u64(&r) % 200) - 100);
        }
        const char *p = tpath("rt.npy");
        ck_assert_int_eq(npy_write(p, x, rows, cols), AR_OK);
        /* header layout: version 1.0, data aligned to 64 bytes */
        FILE *f = fopen(p, "rb");
        unsigned char pre[10];
        ck_assert(fread(pre, 1, 10, f) == 10);
        fseek(f, 0, SEEK_END);
        long fsz = ftell(f);
        fclose(f);
        size_t hlen = pre[8] | (size_t)pre[9] << 8;
        ck_assert(memcmp(pre, "\x93NUMPY\x01\x00", 8) == 0);
        ck_assert_msg((10 + hlen) % 64 == 0 && (size_t)fsz == 10 + hlen + 8 * rows * cols,
                      "header length %zu, file size %ld", hlen, fsz);
        double *y;
        size_t rr, cc;
        ck_assert_int_eq(npy_read(p, &y, &rr, &cc), AR_OK);
        ck_assert_msg(rr == rows && cc == cols, "seed %llu rep %d: shape %zux%zu read as %zux%zu",
                      (unsigned long long)seed, rep, rows, cols, rr, cc);
        for (size_t i = 0; i < rows * cols; i++)
            ck_assert_msg(same_bits(x[i], y[i]), "seed %llu rep %d entry %zu: %.17g read as %.17g",
                          (unsigned long long)seed, rep, i, x[i], y[i]);
        free(x);
        free(y);
    }
    double bad[2] = { 1.0, NAN };
    ck_assert_int_eq(npy_write(tpath("bad.npy"), bad, 1, 2), AR_EINVAL);
    ck_assert_int_eq(npy_write(tpath("bad.npy"), bad, 0, 2), AR_EINVAL);
}
END_TEST

/* Read a hand-made file and compare with the expected r x c values. */
static void expect_read(const char *name, const unsigned char *img, size_t len, size_t r, size_t c, const double *want)
{
    const char *p = tpath(name);
    write_bytes(p, img, len);
    double *y = NULL;
    size_t rr, cc;
    ar_status st = npy_read(p, &y, &rr, &cc);
    ck_assert_msg(st == AR_OK, "%s: status %d (%s)", name, st, ar_error_get());
    ck_assert_msg(rr == r && cc == c, "%s: shape %zux%zu, want %zux%zu", name, rr, cc, r, c);
    for (size_t i = 0; i < r * c; i++)
        ck_assert_msg(same_bits(y[i], want[i]), "%s entry (%zu,%zu): %.17g want %.17g", name, i / c, i % c, y[i], want[i]);
    free(y);
}

START_TEST(test_handmade)
{
    unsigned char img[1024], dat[256];
    /* float32 little-endian, C order, 2 x 3 */
    const float f[6] = { 0.1f, -3.5f, 1e-40f, FLT_MAX, -0.0f, 16777217.0f };
    double fw[6];
    for (int i = 0; i < 6; i++) {
        put_f4(dat + 4 * i, f[i], 0);
        fw[i] = (double)f[i];
    }
    size_t n = make_npy(img, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", dat, 24);
    expect_read("f4.npy", img, n, 2, 3, fw);
    /* float32 big-endian */
    for (int i = 0; i < 6; i++)
        put_f4(dat + 4 * i, f[i], 1);
    n = make_npy(img, 1, "{'descr': '>f4', 'fortran_order': False, 'shape': (2, 3), }", dat, 24);
    expect_read("f4be.npy", img, n, 2, 3, fw);
    /* float32 Fortran order 3 x 2: stored column by column */
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < 3; i++)
            put_f4(dat + 4 * (j * 3 + i), f[i * 2 + j], 0);
    n = make_npy(img, 1, "{'descr': '<f4', 'fortran_order': True, 'shape': (3, 2), }", dat, 24);
    expect_read("f4fort.npy", img, n, 3, 2, fw);
    /* float64 big-endian C order 2 x 2 */
    const double d[6] = { M_PI, -1e300, 5e-324, 0.5, 1.0 / 3.0, -7.25 };
    for (int i = 0; i < 4; i++)
        put_f8(dat + 8 * i, d[i], 1);
    n = make_npy(img, 1, "{'descr': '>f8', 'fortran_order': False, 'shape': (2, 2), }", dat, 32);
    expect_read("f8be.npy", img, n, 2, 2, d);
    /* float64 Fortran order 2 x 3 */
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 2; i++)
            put_f8(dat + 8 * (j * 2 + i), d[i * 3 + j], 0);
    n = make_npy(img, 1, "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }", dat, 48);
    expect_read("f8fort.npy", img, n, 2, 3, d);
    /* Fortran, big-endian, 1 x 3 */
    for (int i = 0; i < 3; i++)
        put_f8(dat + 8 * i, d[i], 1);
    n = make_npy(img, 1, "{'descr': '>f8', 'fortran_order': True, 'shape': (1, 3), }", dat, 24);
    expect_read("f8fortbe.npy", img, n, 1, 3, d);
    /* (r,) shape, version 2.0 header */
    for (int i = 0; i < 6; i++)
        put_f8(dat + 8 * i, d[i], 0);
    n = make_npy(img, 2, "{'descr': '<f8', 'fortran_order': False, 'shape': (6,), }", dat, 48);
    expect_read("v2.npy", img, n, 6, 1, d);
    /* version 3.0 */
    n = make_npy(img, 3, "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }", dat, 48);
    expect_read("v3.npy", img, n, 3, 2, d);
    /* keys in another order, double quotes, spaces, '=' byte order, no trailing comma */
    n = make_npy(img, 1, "{ \"shape\" : ( 3 , 2 , ) ,\"fortran_order\":False , 'descr':'=f8'}", dat, 48);
    expect_read("order.npy", img, n, 3, 2, d);
    /* Python 2 long suffix, no byte-order character */
    n = make_npy(img, 1, "{'descr': 'f8', 'fortran_order': False, 'shape': (2L, 3L), }", dat, 48);
    expect_read("py2.npy", img, n, 2, 3, d);
}
END_TEST

/* Expect status st from reading the image; message checked. */
static void expect_fail(const char *name, const unsigned char *img, size_t len, ar_status st, const char *needle)
{
    const char *p = tpath(name);
    write_bytes(p, img, len);
    double *y = (double *)1;
    size_t rr = 7, cc = 7;
    ar_status got = npy_read(p, &y, &rr, &cc);
    ck_assert_msg(got == st, "%s: status %d, want %d (%s)", name, got, st, ar_error_get());
    ck_assert_msg(y == NULL && rr == 0 && cc == 0, "%s: outputs not reset on failure", name);
    check_message(p);
    if (needle)
        ck_assert_msg(strstr(ar_error_get(), needle) != NULL, "%s: message '%s' lacks '%s'", name, ar_error_get(), needle);
}

START_TEST(test_malformed)
{
    unsigned char img[1024], dat[256];
    for (int i = 0; i < 12; i++)
        put_f8(dat + 8 * i, i + 0.5, 0);
    const char *good = "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }";
    size_t n = make_npy(img, 1, good, dat, 48);
    expect_read("good.npy", img, n, 3, 2, (const double[]){ 0.5, 1.5, 2.5, 3.5, 4.5, 5.5 });

    expect_fail("empty.npy", img, 0, AR_EINVAL, "empty");
    expect_fail("short.npy", img, 7, AR_EINVAL, NULL);
    expect_fail("prefix.npy", img, 9, AR_EINVAL, "truncated header");
    expect_fail("trunchdr.npy", img, 40, AR_EINVAL, "truncated header");
    expect_fail("truncdata.npy", img, n - 1, AR_EINVAL, "truncated data");
    expect_fail("nodata.npy", img, n - 48, AR_EINVAL, "truncated data");
    unsigned char big[1100];
    memcpy(big, img, n);
    big[n] = 0;
    expect_fail("trailing.npy", big, n + 1, AR_EINVAL, "trailing");
    memcpy(big, img, n);
    big[3] = 'X';
    expect_fail("magic.npy", big, n, AR_EINVAL, "magic");
    memcpy(big, img, n);
    big[6] = 4;
    expect_fail("v4.npy", big, n, AR_EINVAL, "version");
    memcpy(big, img, n);
    big[7] = 1;
    expect_fail("v11.npy", big, n, AR_EINVAL, "version");
    /* header length beyond the file */
    memcpy(big, img, n);
    big[9] = 0x7f;
    expect_fail("hlen.npy", big, n, AR_EINVAL, "truncated header");

    struct { const char *name, *dict; size_t nbytes; const char *needle; } bad[] = {
        { "b1.npy", "{'descr': '|b1', 'fortran_order': False, 'shape': (3, 2), }", 6, "dtype" },
        { "u3.npy", "{'descr': '<u3', 'fortran_order': False, 'shape': (3, 2), }", 18, "dtype" },
        { "pipei8.npy", "{'descr': '|i8', 'fortran_order': False, 'shape': (3, 2), }", 48, "dtype" },
        { "obj.npy", "{'descr': '|O', 'fortran_order': False, 'shape': (3, 2), }", 48, "dtype" },
        { "c16.npy", "{'descr': '<c16', 'fortran_order': False, 'shape': (3, 1), }", 48, "dtype" },
        { "pipef8.npy", "{'descr': '|f8', 'fortran_order': False, 'shape': (3, 2), }", 48, "dtype" },
        { "rec.npy", "{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (3, 2), }", 48, "dtype" },
        { "3d.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2, 1), }", 48, "dimension" },
        { "0d.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (), }", 8, NULL },
        { "zerorows.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (0, 2), }", 0, "zero" },
        { "zerocols.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 0), }", 0, "zero" },
        { "zero1.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (0,), }", 0, "zero" },
        { "notuple.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (6), }", 48, "tuple" },
        { "neg.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (-3, 2), }", 48, NULL },
        { "ovf1.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (18446744073709551615, 2), }", 48, "overflow" },
        { "ovf2.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904, 4), }", 48, "overflow" },
        { "ovf3.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999999, 1), }", 48, "overflow" },
        { "huge.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000, 100000), }", 48, "truncated data" },
        { "nokey.npy", "{'descr': '<f8', 'shape': (3, 2), }", 48, "fortran_order" },
        { "dupkey.npy", "{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }", 48, "duplicate" },
        { "extrakey.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), 'x': 1, }", 48, "unexpected key" },
        { "fo.npy", "{'descr': '<f8', 'fortran_order': 0, 'shape': (3, 2), }", 48, "fortran_order" },
        { "unterminated.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), ", 48, NULL },
        { "after.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), } x", 48, "after" },
        { "quote.npy", "{'descr': '<f8\", 'fortran_order': False, 'shape': (3, 2), }", 48, NULL },
        { "nobrace.npy", "'descr': '<f8', 'fortran_order': False, 'shape': (3, 2)", 48, NULL },
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        n = make_npy(img, 1, bad[k].dict, dat, bad[k].nbytes);
        expect_fail(bad[k].name, img, n, AR_EINVAL, bad[k].needle);
    }
    /* NaN and Inf entries: the message names row and column */
    put_f8(dat + 8 * 5, NAN, 0);
    n = make_npy(img, 1, good, dat, 48);
    expect_fail("nan.npy", img, n, AR_EINVAL, "NaN value at row 2, column 1");
    put_f8(dat + 8 * 5, 5.5, 0);
    put_f8(dat + 8 * 1, -INFINITY, 0);
    n = make_npy(img, 1, good, dat, 48);
    expect_fail("inf.npy", img, n, AR_EINVAL, "infinite value at row 0, column 1");
    /* Inf in Fortran-ordered float32: file element 1 is (1, 0) */
    unsigned char f4[24];
    for (int i = 0; i < 6; i++)
        put_f4(f4 + 4 * i, i == 1 ? INFINITY : 1.0f, 0);
    n = make_npy(img, 1, "{'descr': '<f4', 'fortran_order': True, 'shape': (3, 2), }", f4, 24);
    expect_fail("inff4.npy", img, n, AR_EINVAL, "row 1, column 0");
    /* missing file */
    double *y;
    size_t rr, cc;
    const char *missing = tpath("does-not-exist.npy");
    ck_assert_int_eq(npy_read(missing, &y, &rr, &cc), AR_EIO);
    check_message(missing);
}
END_TEST

/* An array within the file but beyond the allocation limit gives AR_ENOMEM. */
START_TEST(test_alloc_limit)
{
    const char *p = tpath("big.npy");
    size_t rows = 400, cols = 400;
    double *x = calloc(rows * cols, sizeof *x);
    ck_assert_int_eq(npy_write(p, x, rows, cols), AR_OK);
    ar_config_t cfg;
    ar_config_default(&cfg);
    cfg.max_alloc_bytes = (size_t)(0.0001 * 1073741824.0);   /* ~107 kB < 1.28 MB */
    ar_config_install(&cfg);
    double *y;
    size_t rr, cc;
    ar_status st = npy_read(p, &y, &rr, &cc);
    ar_config_install(NULL);
    ck_assert_msg(st == AR_ENOMEM, "status %d (%s)", st, ar_error_get());
    check_message(p);
    ck_assert_int_eq(npy_read(p, &y, &rr, &cc), AR_OK);
    free(y);
    free(x);
}
END_TEST

START_TEST(test_mult_roundtrip)
{
    uint64_t seed = test_seed() + 2;
    flint_rand_t fr;
    flint_randinit(fr);
    flint_randseed(fr, (ulong)seed, (ulong)seed * 3 + 1);
    size_t n = 60;
    fmpz *w = _fmpz_vec_init((slong)n);
    for (size_t i = 0; i < n; i++) {
        fmpz_randbits(w + i, fr, 1 + (flint_bitcnt_t)n_randint(fr, 1400));
        fmpz_abs(w + i, w + i);
        fmpz_add_ui(w + i, w + i, 1);
    }
    /* a 400-digit number: 10^399 + 123456789 */
    fmpz_set_ui(w + 7, 10);
    fmpz_pow_ui(w + 7, w + 7, 399);
    fmpz_add_ui(w + 7, w + 7, 123456789);
    char *digits = fmpz_get_str(NULL, 10, w + 7);
    ck_assert_int_eq(strlen(digits), 400);
    flint_free(digits);
    const char *p = tpath("w.txt");
    ck_assert_int_eq(mult_write(p, w, n), AR_OK);
    fmpz *v;
    size_t m;
    ck_assert_int_eq(mult_read(p, &v, &m), AR_OK);
    ck_assert_msg(m == n, "read %zu of %zu", m, n);
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(fmpz_equal(v + i, w + i), "seed %llu entry %zu differs", (unsigned long long)seed, i);
    _fmpz_vec_clear(v, (slong)m);
    /* surrounding blanks, CRLF, no final newline, leading zeros */
    const char *txt = "  12 \n\t7\r\n0003\n18446744073709551617";
    write_bytes(p, txt, strlen(txt));
    ck_assert_int_eq(mult_read(p, &v, &m), AR_OK);
    ck_assert_int_eq(m, 4);
    ck_assert(fmpz_equal_ui(v + 0, 12) && fmpz_equal_ui(v + 1, 7) && fmpz_equal_ui(v + 2, 3));
    fmpz_t e;
    fmpz_init(e);
    fmpz_set_ui(e, 1);
    fmpz_mul_2exp(e, e, 64);
    fmpz_add_ui(e, e, 1);
    ck_assert(fmpz_equal(v + 3, e));
    fmpz_clear(e);
    _fmpz_vec_clear(v, (slong)m);
    /* writer refuses multiplicities < 1 */
    fmpz_zero(w + 3);
    ck_assert_int_eq(mult_write(p, w, n), AR_EINVAL);
    check_message(p);
    _fmpz_vec_clear(w, (slong)n);
    flint_randclear(fr);
}
END_TEST

START_TEST(test_mult_bad)
{
    struct { const char *txt; size_t len; const char *needle; } bad[] = {
        { "", 0, "empty" },
        { "\n", 1, "line 1:" },
        { "5\n\n6\n", 6, "line 2:" },
        { "5\n6\n\n", 5, "line 3:" },
        { "5\n  \n", 5, "line 2:" },
        { "+5\n", 3, "line 1:" },
        { "4\n-5\n", 5, "line 2:" },
        { "0\n", 2, "line 1:" },
        { "1\n2\n000\n", 8, "line 3:" },
        { "1e5\n", 4, "line 1:" },
        { "12a\n", 4, "line 1:" },
        { "1 2\n", 4, "line 1:" },
        { "7\n0x10\n", 7, "line 2:" },
        { "3.0\n", 4, "line 1:" },
        { "# comment\n3\n", 12, "line 1:" },
        { "1\0002\n", 4, "line 1:" },
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        char name[32];
        snprintf(name, sizeof name, "bad%zu.txt", k);
        const char *p = tpath(name);
        write_bytes(p, bad[k].txt, bad[k].len);
        fmpz *v = (fmpz *)1;
        size_t m = 9;
        ar_status st = mult_read(p, &v, &m);
        ck_assert_msg(st == AR_EINVAL, "case %zu: status %d", k, st);
        ck_assert_msg(v == NULL && m == 0, "case %zu: outputs not reset", k);
        check_message(p);
        ck_assert_msg(strstr(ar_error_get(), bad[k].needle) != NULL, "case %zu: message '%s' lacks '%s'",
                      k, ar_error_get(), bad[k].needle);
    }
    fmpz *v;
    size_t m;
    ck_assert_int_eq(mult_read(tpath("missing.txt"), &v, &m), AR_EIO);
}
END_TEST

START_TEST(test_pointset_read)
{
    double x[15];
    for (int i = 0; i < 15; i++)
        x[i] = i * 0.25 - 1;
    const char *np = tpath("p.npy"), *wp = tpath("p.txt"), *wbad = tpath("q.txt");
    ck_assert_int_eq(npy_write(np, x, 5, 3), AR_OK);
    write_bytes(wp, "1\n2\n3\n4\n99999999999999999999999999\n", 35);
    write_bytes(wbad, "1\n2\n3\n4\n", 8);
    pointset_t P;
    ck_assert_int_eq(pointset_read(&P, np, NULL), AR_OK);
    ck_assert(P.n == 5 && P.d == 3 && P.w == NULL && memcmp(P.x, x, sizeof x) == 0);
    ck_assert_msg(strstr(P.provenance, np) != NULL, "provenance '%s'", P.provenance);
    pointset_clear(&P);
    ck_assert_int_eq(pointset_read(&P, np, wp), AR_OK);
    ck_assert(P.n == 5 && P.w != NULL && fmpz_equal_ui(P.w + 3, 4));
    ck_assert_int_eq(pointset_validate(&P), AR_OK);
    fmpz_t N;
    fmpz_init(N);
    pointset_total_multiplicity(N, &P);
    fmpz_t E;
    fmpz_init(E);
    fmpz_set_str(E, "100000000000000000000000009", 10);
    ck_assert_msg(fmpz_equal(N, E), "wrong total multiplicity");
    fmpz_clear(E);
    fmpz_clear(N);
    pointset_clear(&P);
    /* count mismatch */
    ck_assert_int_eq(pointset_read(&P, np, wbad), AR_EINVAL);
    check_message(wbad);
    ck_assert(P.x == NULL && P.w == NULL && P.n == 0);
    /* bad point file */
    write_bytes(tpath("e.npy"), "", 0);
    ck_assert_int_eq(pointset_read(&P, tpath("e.npy"), wp), AR_EINVAL);
    ck_assert(P.x == NULL);
}
END_TEST

/* issue 10.2: an endless stream of bad bytes is refused at the first byte,
 * not after growing a buffer to the allocation limit. */
START_TEST(test_mult_dev_zero)
{
    ar_config_t cfg;
    ar_config_default(&cfg);
    cfg.max_alloc_bytes = (size_t)1 << 28;        /* 0.25 GiB: a bound for the unfixed reader */
    ar_config_install(&cfg);
    fmpz *v = (fmpz *)1;
    size_t m = 9;
    ar_status st = mult_read("/dev/zero", &v, &m);
    ar_config_install(NULL);
    ck_assert_int_eq(st, AR_EINVAL);
    ck_assert(v == NULL && m == 0);
    check_message("/dev/zero");
    ck_assert_msg(strstr(ar_error_get(), "line 1: invalid byte 0x00") != NULL, "message '%s'", ar_error_get());
}
END_TEST

/* issue 10.6: directories are named as such. */
START_TEST(test_directory)
{
    double *x;
    size_t r, c, m;
    fmpz *v;
    ck_assert_int_eq(npy_read(tmpdir, &x, &r, &c), AR_EINVAL);
    ck_assert_msg(strstr(ar_error_get(), "is a directory") != NULL, "message '%s'", ar_error_get());
    ck_assert_int_eq(mult_read(tmpdir, &v, &m), AR_EINVAL);
    ck_assert_msg(strstr(ar_error_get(), "is a directory") != NULL, "message '%s'", ar_error_get());
}
END_TEST

/* issue 10.2: when memory runs out while reading, mult_read fails with
 * AR_ENOMEM; it never returns the part read so far as the whole file.  The
 * file "1" + 20,000,000 spaces + "\n2\n" is read in a child whose address
 * space may grow by only 24 MiB, then by 64 MiB.  Skipped under
 * AddressSanitizer (its shadow memory cannot live under RLIMIT_AS). */
START_TEST(test_mult_memory_limit)
{
#ifdef TEST_HAVE_ASAN
    fprintf(stderr, "test_mult_memory_limit: skipped under AddressSanitizer (RLIMIT_AS cannot be used)\n");
#else
    const char *p = tpath("w.txt");
    FILE *f = fopen(p, "wb");
    ck_assert(f != NULL);
    fputc('1', f);
    for (int i = 0; i < 20000000; i++)
        fputc(' ', f);
    fputs("\n2\n", f);
    ck_assert(fclose(f) == 0);
    const unsigned long long margin[] = { 8u << 20, 24u << 20, 64u << 20 };
    for (int k = 0; k < 3; k++) {
        pid_t pid = fork();
        ck_assert(pid >= 0);
        if (pid == 0) {
            unsigned long long lim = test_vm_size() + margin[k];
            struct rlimit rl = { (rlim_t)lim, (rlim_t)lim };
            if (test_vm_size() == 0 || setrlimit(RLIMIT_AS, &rl) != 0)
                _exit(9);
            fmpz *v;
            size_t m;
            ar_status st = mult_read(p, &v, &m);
            if (st == AR_ENOMEM)
                _exit(strstr(ar_error_get(), "out of memory") && strstr(ar_error_get(), p) ? 0 : 3);
            if (st == AR_OK)
                _exit(m == 2 && fmpz_equal_ui(v, 1) && fmpz_equal_ui(v + 1, 2) ? 1 : 2);
            _exit(4);
        }
        int ws;
        ck_assert(waitpid(pid, &ws, 0) == pid);
        ck_assert_msg(WIFEXITED(ws), "margin %llu MiB: child died (signal %d)", margin[k] >> 20, WTERMSIG(ws));
        int rc = WEXITSTATUS(ws);
        ck_assert_msg(rc != 2, "margin %llu MiB: a truncated file was returned as the whole file", margin[k] >> 20);
        ck_assert_msg(rc == 0 || rc == 1, "margin %llu MiB: child exit %d", margin[k] >> 20, rc);
    }
#endif
}
END_TEST

/* Integer and float16 files (issue 33: the CLI refused int64 that Python took): read exactly, in
 * both byte orders; an integer beyond 2^53 that is not a double is refused, naming its place. */
START_TEST(test_int_and_half)
{
    unsigned char img[1024], dat[64];
    /* int64 little-endian 3 x 2: -5, 7, 2^53, -(2^53), 2^62 (exact: a power of two), 1 */
    int64_t iv[6] = { -5, 7, INT64_C(1) << 53, -(INT64_C(1) << 53), INT64_C(1) << 62, 1 };
    double want[6];
    for (int k = 0; k < 6; k++) {
        want[k] = (double)iv[k];
        for (int b = 0; b < 8; b++)
            dat[8 * k + b] = (unsigned char)((uint64_t)iv[k] >> (8 * b));
    }
    size_t n = make_npy(img, 1, "{'descr': '<i8', 'fortran_order': False, 'shape': (3, 2), }", dat, 48);
    expect_read("i8.npy", img, n, 3, 2, want);
    /* big-endian int16 and unsigned bytes */
    int16_t sv[6] = { -300, 2, 0, 32767, -32768, 5 };
    for (int k = 0; k < 6; k++) {
        want[k] = (double)sv[k];
        dat[2 * k] = (unsigned char)((uint16_t)sv[k] >> 8);
        dat[2 * k + 1] = (unsigned char)((uint16_t)sv[k] & 0xff);
    }
    n = make_npy(img, 1, "{'descr': '>i2', 'fortran_order': False, 'shape': (3, 2), }", dat, 12);
    expect_read("i2be.npy", img, n, 3, 2, want);
    unsigned char uv[6] = { 0, 1, 2, 128, 254, 255 };
    for (int k = 0; k < 6; k++)
        want[k] = (double)uv[k];
    n = make_npy(img, 1, "{'descr': '|u1', 'fortran_order': False, 'shape': (6,), }", uv, 6);
    expect_read("u1.npy", img, n, 6, 1, want);
    /* float16: 1.0 (0x3c00), -2.5 (0xc100), the least subnormal 2^-24 (0x0001), 65504 (0x7bff) */
    uint16_t hv[4] = { 0x3c00, 0xc100, 0x0001, 0x7bff };
    double hw[4] = { 1.0, -2.5, 0x1p-24, 65504.0 };
    for (int k = 0; k < 4; k++) {
        dat[2 * k] = (unsigned char)(hv[k] & 0xff);
        dat[2 * k + 1] = (unsigned char)(hv[k] >> 8);
    }
    n = make_npy(img, 1, "{'descr': '<f2', 'fortran_order': False, 'shape': (2, 2), }", dat, 8);
    expect_read("f2.npy", img, n, 2, 2, hw);
    /* 2^53 + 1 is no double */
    int64_t big = (INT64_C(1) << 53) + 1;
    for (int b = 0; b < 8; b++)
        dat[8 + b] = (unsigned char)((uint64_t)big >> (8 * b));
    memset(dat, 0, 8);
    n = make_npy(img, 1, "{'descr': '<i8', 'fortran_order': False, 'shape': (2, 1), }", dat, 16);
    expect_fail("inexact.npy", img, n, AR_EINVAL, "row 1, column 0 is not an exact double");
}
END_TEST

Suite *suite_npy(void)
{
    Suite *s = suite_create("npy");
    TEST_TCASE(tc, "core");
    tcase_add_checked_fixture(tc, dir_setup, dir_teardown);
    tcase_add_test(tc, test_roundtrip);
    tcase_add_test(tc, test_handmade);
    tcase_add_test(tc, test_malformed);
    tcase_add_test(tc, test_int_and_half);
    tcase_add_test(tc, test_alloc_limit);
    tcase_add_test(tc, test_mult_roundtrip);
    tcase_add_test(tc, test_mult_bad);
    tcase_add_test(tc, test_pointset_read);
    tcase_add_test(tc, test_mult_dev_zero);
    tcase_add_test(tc, test_directory);
    tcase_add_test(tc, test_mult_memory_limit);
    suite_add_tcase(s, tc);
    return s;
}
