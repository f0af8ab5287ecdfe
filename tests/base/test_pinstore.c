/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_pinstore.c -- pinned loads read only the bytes that were hashed
 * (base/pinstore.h, the check-then-read race of issue 14): a file
 * verified in a scope and then overwritten on disk is still served with
 * its verified bytes; a path that was not verified, and any streamed open,
 * are refused inside the scope; a wrong digest is refused with the
 * expected and the actual digest; paths match after lexical normalisation;
 * scopes do not nest and close cleanly. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "testutil.h"
#include "base/infile.h"
#include "base/pinstore.h"
#include "base/sha256.h"

static char pdir[64];

static void psetup(void)
{
    strcpy(pdir, "/tmp/attnrank_pinstore_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(pdir));
}

static void pteardown(void)
{
    pinset_end();
    char p[128];
    const char *names[] = { "a.bin", "b.bin" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", pdir, names[i]);
        unlink(p);
    }
    rmdir(pdir);
}

START_TEST(pinstore_serves_verified_bytes)
{
    const char *good = "the pinned bytes";
    const char *evil = "bytes written after the check!";
    char hex[65], p[128], q[160];
    ck_assert_int_eq(test_write_file(pdir, "a.bin", good, strlen(good)), 0);
    ck_assert_int_eq(test_write_file(pdir, "b.bin", evil, strlen(evil)), 0);
    sha256_hex(good, strlen(good), hex);
    snprintf(p, sizeof p, "%s/a.bin", pdir);

    ck_assert_int_eq(pinset_active(), 0);
    ck_assert_int_eq(pinstore_verify(p, hex, 1024, "pinned file"), AR_EINVAL);   /* no scope */
    ck_assert_int_eq(pinset_begin(), AR_OK);
    ck_assert_int_eq(pinset_begin(), AR_EINVAL);                              /* no nesting */
    ck_assert_int_eq(pinset_active(), 1);
    ck_assert_msg(pinstore_verify(p, hex, 1024, "pinned file") == AR_OK, "%s", ar_error_get());

    /* a writer replaces the file between the check and the parse */
    ck_assert_int_eq(test_write_file(pdir, "a.bin", evil, strlen(evil)), 0);
    char *buf;
    size_t n;
    ck_assert_int_eq(infile_read_all(p, "pinned file", 1024, &buf, &n), AR_OK);
    ck_assert_uint_eq(n, strlen(good));
    ck_assert_int_eq(memcmp(buf, good, n), 0);
    ck_assert_int_eq(buf[n], '\0');
    free(buf);

    /* the same path spelt differently is the same file */
    snprintf(q, sizeof q, "%s//./a.bin", pdir);
    ck_assert_int_eq(infile_read_all(q, "pinned file", 1024, &buf, &n), AR_OK);
    ck_assert_int_eq(memcmp(buf, good, n), 0);
    free(buf);
    /* the size limit still holds for kept bytes */
    ck_assert_int_eq(infile_read_all(p, "pinned file", 4, &buf, &n), AR_EINVAL);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "too large"));

    /* an unpinned file is refused, and nothing may be streamed from disk */
    snprintf(q, sizeof q, "%s/b.bin", pdir);
    ck_assert_int_eq(infile_read_all(q, "model file", 1024, &buf, &n), AR_EINVAL);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "not among the pinned files"));
    ck_assert_ptr_null(strchr(ar_error_get(), '\n'));
    FILE *f;
    ck_assert_int_eq(infile_open(p, "model file", INFILE_ANY, &f, NULL), AR_EINVAL);
    ck_assert_ptr_null(f);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "pinned load"));

    /* the tampered file on disk is refused by a fresh check */
    ck_assert_int_eq(pinstore_verify(p, hex, 1024, "pinned file"), AR_EINVAL);
    char want[90];
    snprintf(want, sizeof want, "expected %s, got ", hex);
    ck_assert_msg(strstr(ar_error_get(), want) != NULL, "%s", ar_error_get());

    pinset_end();
    ck_assert_int_eq(pinset_active(), 0);
    /* outside the scope the disk is read again */
    ck_assert_int_eq(infile_read_all(p, "file", 1024, &buf, &n), AR_OK);
    ck_assert_int_eq(memcmp(buf, evil, n), 0);
    free(buf);
    ck_assert_int_eq(pinset_begin(), AR_OK);                                  /* reopens after end */
    ck_assert_int_eq(infile_read_all(p, "file", 1024, &buf, &n), AR_EINVAL);    /* nothing kept */
    pinset_end();
}
END_TEST

Suite *suite_pinstore(void)
{
    Suite *s = suite_create("pinstore");
    TEST_TCASE(tc, "pinstore");
    tcase_add_checked_fixture(tc, psetup, pteardown);
    tcase_add_test(tc, pinstore_serves_verified_bytes);
    suite_add_tcase(s, tc);
    return s;
}
