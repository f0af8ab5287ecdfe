/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_install.c -- the installed copy (issue 23): `make install
 * PREFIX=$(mktemp -d)` from the repository, then examples/bracket.c
 * compiled with `pkg-config --cflags --libs attnrank` against it and run on
 * a generated instance, its bracket compared with the CLI's JSON on the same
 * file; the shared library exports the public API only (nm -D), its soname
 * is libattnrank.so.0, the man page and the Python package are installed,
 * and the package, run by /usr/bin/python3 from the prefix, finds the
 * library next to it and gives the same bracket (skipped with a printed
 * reason without numpy).  ATTNRANK_SRC names the repository (default: the
 * working directory). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "testutil.h"
#include "cli/cliutil.h"

static char tdir[256];

static void setup(void)
{
    cli_tmpdir_make(tdir, sizeof tdir, "install");
}

static void teardown(void)
{
    cli_tmpdir_remove(tdir);
}

/* Run cmd through sh with stdout to tdir/out.txt (stderr to tdir/err.txt); its exit status, stdout in out. */
static int sh_out(const char *cmd, char *out, size_t cap)
{
    char full[4096], path[512];
    snprintf(full, sizeof full, "{ %s ; } > '%s/out.txt' 2> '%s/err.txt'", cmd, tdir, tdir);
    int rc = system(full);
    snprintf(path, sizeof path, "%s/out.txt", tdir);
    cli_slurp(path, out, cap);
    if (rc != 0) {
        char err[4096];
        snprintf(path, sizeof path, "%s/err.txt", tdir);
        cli_slurp(path, err, sizeof err);
        fprintf(stderr, "test_install: '%s' failed:\n%s\n", cmd, err);
    }
    return rc;
}

static const char *src_dir(void)
{
    const char *s = getenv("ATTNRANK_SRC");
    return s && *s ? s : ".";
}

START_TEST(test_install_example_and_python)
{
    static char out[1 << 16];
    char cmd[4096];
    const char *src = src_dir();
    /* the plain build (SAN=0: an instrumented library cannot be loaded by an uninstrumented
     * program), whatever flags the make that runs this suite was given */
    snprintf(cmd, sizeof cmd, "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C '%s' install PREFIX='%s/prefix' SAN=0",
             src, tdir);
    ck_assert_int_eq(sh_out(cmd, out, sizeof out), 0);
    const char *inst[] = { "bin/attnrank", "include/attnrank.h", "lib/libattnrank.so.0", "lib/libattnrank.so",
                           "lib/libattnrank.a", "lib/pkgconfig/attnrank.pc", "share/man/man1/attnrank.1",
                           "lib/python3/dist-packages/attnrank/__init__.py" };
    for (size_t i = 0; i < sizeof inst / sizeof inst[0]; i++) {
        snprintf(cmd, sizeof cmd, "test -e '%s/prefix/%s'", tdir, inst[i]);
        ck_assert_msg(system(cmd) == 0, "not installed: %s", inst[i]);
    }
    /* exported symbols: the public API only */
    snprintf(cmd, sizeof cmd, "nm -D --defined-only '%s/prefix/lib/libattnrank.so.0' | awk '{print $3}' | "
             "grep -v -e '^attnrank_' -e '^ATTNRANK_0$' | wc -l", tdir);
    ck_assert_int_eq(sh_out(cmd, out, sizeof out), 0);
    ck_assert_int_eq(atoi(out), 0);
    snprintf(cmd, sizeof cmd, "readelf -d '%s/prefix/lib/libattnrank.so.0' | grep SONAME", tdir);
    ck_assert_int_eq(sh_out(cmd, out, sizeof out), 0);
    ck_assert_ptr_nonnull(strstr(out, "[libattnrank.so.0]"));
    /* the example against the installed copy */
    snprintf(cmd, sizeof cmd, "PKG_CONFIG_PATH='%s/prefix/lib/pkgconfig' && export PKG_CONFIG_PATH && "
             "cc -std=c11 -o '%s/bracket' '%s/examples/bracket.c' $(pkg-config --cflags --libs attnrank)",
             tdir, tdir, src);
    ck_assert_int_eq(sh_out(cmd, out, sizeof out), 0);
    snprintf(cmd, sizeof cmd, "'%s/prefix/bin/attnrank' generate --geometry sphere --family uniform --d 3 --n 600 "
             "--seed 5 --out '%s/X.npy'", tdir, tdir);
    ck_assert_int_eq(sh_out(cmd, out, sizeof out), 0);
    snprintf(cmd, sizeof cmd, "'%s/bracket' '%s/X.npy' 20 0.1", tdir, tdir);
    ck_assert_int_eq(sh_out(cmd, out, sizeof out), 0);
    static char example[1 << 16];
    memcpy(example, out, sizeof example);
    snprintf(cmd, sizeof cmd, "'%s/prefix/bin/attnrank' bracket --points '%s/X.npy' --beta 20 --eps 0.1 --format json",
             tdir, tdir);
    ck_assert_int_eq(sh_out(cmd, out, sizeof out), 0);
    json_error_t je;
    json_t *j = json_loads(out, 0, &je);
    ck_assert_ptr_nonnull(j);
    static char want[4096];
    snprintf(want, sizeof want, "%lld %lld %s %s/%s %s/%s %.17g %lld\n",
             (long long)json_integer_value(json_object_get(j, "lower")),
             (long long)json_integer_value(json_object_get(j, "upper")),
             json_string_value(json_object_get(j, "status")), json_string_value(json_object_get(j, "lower_route")),
             json_string_value(json_object_get(j, "lower_certificate")),
             json_string_value(json_object_get(j, "upper_route")),
             json_string_value(json_object_get(j, "upper_certificate")),
             json_real_value(json_object_get(j, "upper_err_bound")),
             (long long)json_integer_value(json_object_get(j, "n")));
    json_decref(j);
    ck_assert_str_eq(example, want);
    printf("test_install: example and CLI agree: %s", example);
    /* the Python package from the prefix, finding the library next to it */
    if (system("/usr/bin/python3 -c 'import numpy' > /dev/null 2>&1") != 0) {
        printf("test_install: SKIP the Python package: /usr/bin/python3 cannot import numpy "
               "(Debian: apt-get install python3-numpy)\n");
        return;
    }
    snprintf(cmd, sizeof cmd, "cd '%s' && env -u ATTNRANK_LIBRARY PYTHONPATH='%s/prefix/lib/python3/dist-packages' "
             "/usr/bin/python3 -c \"import attnrank, numpy as np; r = attnrank.bracket(np.load('X.npy'), None, 20, 0.1); "
             "print(r.lower, r.upper, r.status, r.lower_route + '/' + r.lower_certificate, "
             "r.upper_route + '/' + r.upper_certificate, '%%.17g' %% r.upper_err_bound, r.n); "
             "print(attnrank.library_path())\"", tdir, tdir);
    ck_assert_int_eq(sh_out(cmd, out, sizeof out), 0);
    ck_assert_msg(strncmp(out, want, strlen(want)) == 0, "python: %s\nCLI: %s", out, want);
    char libpath[600];
    snprintf(libpath, sizeof libpath, "%s/prefix/lib/libattnrank.so.0", tdir);
    ck_assert_msg(strstr(out, "/prefix/lib/libattnrank.so.0") != NULL, "python loaded %s, not %s", out, libpath);
    /* the package built and installed by pip (offline, from a copy of python/: pip writes its build
     * directory into the source), loading the installed library through ATTNRANK_LIBRARY */
    if (system("/usr/bin/python3 -m pip --version > /dev/null 2>&1") != 0) {
        printf("test_install: SKIP pip install ./python: /usr/bin/python3 has no pip (Debian: python3-pip)\n");
        return;
    }
    snprintf(cmd, sizeof cmd, "cp -r '%s/python' '%s/pysrc' && /usr/bin/python3 -m pip install -q --no-build-isolation "
             "--no-deps --no-index --target '%s/pip' '%s/pysrc' 2>&1", src, tdir, tdir, tdir);
    ck_assert_int_eq(sh_out(cmd, out, sizeof out), 0);
    snprintf(cmd, sizeof cmd, "cd '%s' && ATTNRANK_LIBRARY='%s' PYTHONPATH='%s/pip' /usr/bin/python3 -c \"import attnrank, "
             "numpy as np; assert attnrank.__file__.startswith('%s/pip/'); r = attnrank.bracket(np.load('X.npy'), None, 20, "
             "0.1); print(r.lower, r.upper, r.status, r.lower_route + '/' + r.lower_certificate, "
             "r.upper_route + '/' + r.upper_certificate, '%%.17g' %% r.upper_err_bound, r.n)\"", tdir, libpath, tdir, tdir);
    ck_assert_int_eq(sh_out(cmd, out, sizeof out), 0);
    ck_assert_str_eq(out, want);
    printf("test_install: pip-installed package and CLI agree\n");
}
END_TEST

Suite *suite_install(void)
{
    Suite *s = suite_create("install");
    TCase *tc = tcase_create("install");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_install_example_and_python);
    suite_add_tcase(s, tc);
    return s;
}
