/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_path.c -- exact-length paths (base/path.h): joining with and
 * without a separator, the directory part, and PATH_MAX refused with a
 * message that says so. */
#include <check.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "base/path.h"

static void joined(const char *dir, const char *name, const char *want)
{
    char *p;
    ck_assert_int_eq(path_join(dir, name, &p), AR_OK);
    ck_assert_str_eq(p, want);
    free(p);
}

START_TEST(path_join_dir)
{
    joined("a", "b", "a/b");
    joined("a/", "b", "a/b");
    joined("", "b", "b");
    joined("/", "b", "/b");
    char *p;
    const char *dirs[][2] = { { "x/y/z.json", "x/y/" }, { "z.json", "" }, { "/z", "/" }, { "a//b", "a//" } };
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        ck_assert_int_eq(path_dir(dirs[i][0], &p), AR_OK);
        ck_assert_str_eq(p, dirs[i][1]);
        free(p);
    }
    /* PATH_MAX - 1 bytes fit, PATH_MAX do not */
    char *d = malloc(PATH_MAX);
    ck_assert_ptr_nonnull(d);
    memset(d, 'd', PATH_MAX - 3);
    d[PATH_MAX - 3] = '\0';
    ck_assert_int_eq(path_join(d, "n", &p), AR_OK);
    ck_assert_uint_eq(strlen(p), PATH_MAX - 1);
    free(p);
    p = (char *)1;
    ck_assert_int_eq(path_join(d, "nn", &p), AR_EINVAL);
    ck_assert_ptr_null(p);
    ck_assert_msg(strstr(ar_error_get(), "PATH_MAX") != NULL, "%s", ar_error_get());
    free(d);
}
END_TEST

Suite *suite_path(void)
{
    Suite *s = suite_create("path");
    TEST_TCASE(tc, "path");
    tcase_add_test(tc, path_join_dir);
    suite_add_tcase(s, tc);
    return s;
}
