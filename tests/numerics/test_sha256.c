/* test_sha256.c -- SHA-256 (nettle) against the FIPS 180-4 / NIST example
 * vectors and lengths around the padding boundary against sha256sum's
 * values; files hashed in chunks (sha256_file_hex) against the same values,
 * and unreadable files refused. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "testutil.h"
#include "numerics/sha256.h"

START_TEST(sha256_vectors)
{
    char h[65];
    sha256_hex("", 0, h);
    ck_assert_str_eq(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    sha256_hex("abc", 3, h);
    ck_assert_str_eq(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    sha256_hex(m, strlen(m), h);
    ck_assert_str_eq(h, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    char a[1000];
    memset(a, 'a', sizeof a);
    /* 55, 56, 64 and 1000 bytes of 'a' (values from coreutils sha256sum) */
    sha256_hex(a, 55, h);
    ck_assert_str_eq(h, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
    sha256_hex(a, 56, h);
    ck_assert_str_eq(h, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
    sha256_hex(a, 64, h);
    ck_assert_str_eq(h, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
    sha256_hex(a, 1000, h);
    ck_assert_str_eq(h, "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
}
END_TEST

START_TEST(sha256_files)
{
    char path[] = "/tmp/attnrank_sha_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "wb");
    ck_assert_ptr_nonnull(f);
    char h[65], g[65];
    ck_assert_int_eq(sha256_file_hex(path, "test file", h), AR_OK);
    ck_assert_str_eq(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    /* 200000 bytes of 'a': several 64 KiB chunks (value from coreutils sha256sum) */
    char *a = malloc(200000);
    ck_assert_ptr_nonnull(a);
    memset(a, 'a', 200000);
    ck_assert_uint_eq(fwrite(a, 1, 200000, f), 200000);
    fclose(f);
    ck_assert_int_eq(sha256_file_hex(path, "test file", h), AR_OK);
    ck_assert_str_eq(h, "2287d207f24a941ff3b56c04c8a25ad56b63e3023207b3bb5b4ac0c9869d74be");
    sha256_hex(a, 200000, g);
    ck_assert_str_eq(h, g);
    free(a);
    unlink(path);
    ck_assert_int_eq(sha256_file_hex(path, "test file", h), AR_EIO);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), path));
    ck_assert_int_eq(sha256_file_hex("/tmp", "test file", h), AR_EINVAL);
}
END_TEST

Suite *suite_sha256(void)
{
    Suite *s = suite_create("sha256");
    TEST_TCASE(tc, "vectors");
    tcase_add_test(tc, sha256_vectors);
    tcase_add_test(tc, sha256_files);
    suite_add_tcase(s, tc);
    return s;
}
