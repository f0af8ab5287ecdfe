/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_install.c -- the installed copy (issue 23): `make install
 * PREFIX=$(mktemp -d)` from the repository, then examples/bracket.c
 * compiled with `pkg-config --cflags --libs attnrank` against it and run on
 * a generated instance, its bracket compared with the CLI's JSON on the same
 * file; the shared library exports the public API only (nm -D), its soname
 * is libattnrank.so.0, the man page and the Python package are installed,
 * and the package, run by /usr/bin/python3 from the prefix, finds the
 * library next to it and gives the same bracket (skipped with a printed
 * reason without numpy).  The installed man page (issue 33) has the sections
 * NAME ... SEE ALSO in order, a DESCRIPTION that is not a pasted usage text,
 * every environment variable the program's sources read in its ENVIRONMENT,
 * and no groff warning.  ATTNRANK_SRC names the repository (default: the
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

/* The installed attnrank(1) (scripts/gen_man.sh from the --help texts and doc/cli.md), rendered by
 * `man -l` (the troff source when man is absent): its sections in order, a DESCRIPTION that does
 * not restart with "Usage:", and in ENVIRONMENT every variable that the program reads by name --
 * getenv() or env_*() of a literal ATTNRANK_, OPENBLAS_ or OMP_ name in the C sources outside
 * tests/ and bench/, and os.environ of an ATTNRANK_ name in the Python package; with groff, no
 * warning from groff -ww. */
START_TEST(test_install_man_page)
{
    static char out[1 << 16], page[1 << 18], names[1 << 14];
    char cmd[4096], man[600];
    const char *src = src_dir();
    snprintf(cmd, sizeof cmd, "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C '%s' install PREFIX='%s/prefix' SAN=0",
             src, tdir);
    ck_assert_int_eq(sh_out(cmd, out, sizeof out), 0);
    snprintf(man, sizeof man, "%s/prefix/share/man/man1/attnrank.1", tdir);
    int rendered = system("command -v man > /dev/null 2>&1") == 0;
    if (rendered)
        snprintf(cmd, sizeof cmd, "MANWIDTH=100 MANPAGER=cat PAGER=cat man -l '%s'", man);
    else
        snprintf(cmd, sizeof cmd, "cat '%s'", man);
    ck_assert_int_eq(sh_out(cmd, page, sizeof page), 0);
    ck_assert_msg(strlen(page) + 1 < sizeof page, "the man page is larger than the test's buffer");
    if (!rendered)
        printf("test_install: man is not installed (Debian: man-db); the man page's troff source is checked\n");
    /* the sections, in this order */
    const char *heads[] = { "NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "ENVIRONMENT", "EXIT STATUS",
                            "EXAMPLES", "FILES", "SEE ALSO" };
    const size_t nheads = sizeof heads / sizeof heads[0];
    const char *at[sizeof heads / sizeof heads[0]];
    for (size_t i = 0; i < nheads; i++) {
        char want[64];
        if (rendered)
            snprintf(want, sizeof want, "\n%s\n", heads[i]);
        else
            snprintf(want, sizeof want, strchr(heads[i], ' ') ? ".SH \"%s\"\n" : ".SH %s\n", heads[i]);
        at[i] = strstr(page, want);
        ck_assert_msg(at[i] != NULL, "the man page has no section %s", heads[i]);
        ck_assert_msg(i == 0 || at[i] > at[i - 1], "the man page's section %s is not after %s", heads[i],
                      heads[i - 1]);
    }
    const char *d = strchr(at[2] + 1, '\n') + 1;
    d += strspn(d, " \t");
    ck_assert_msg(strncmp(d, "Usage:", 6) != 0, "the man page's DESCRIPTION restarts with Usage:");
    /* the environment variables the program reads, each in ENVIRONMENT */
    snprintf(cmd, sizeof cmd,
             "cd '%s' && { find . \\( -path ./tests -o -path ./bench -o -path './build*' -o -path './.*' \\) -prune -o "
             "\\( -name '*.c' -o -name '*.h' \\) -print | xargs grep -hoE "
             "'(getenv|env_[a-z_]+)\\(\"(ATTNRANK|OPENBLAS|OMP)_[A-Z0-9_]+\"' | sed 's/.*(\"//; s/\"$//' && "
             "grep -rhoE 'environ(\\.get)?[[(]\"ATTNRANK_[A-Z0-9_]+\"' python/attnrank | "
             "sed 's/.*[[(]\"//; s/\"$//'; } | sort -u",
             src);
    ck_assert_int_eq(sh_out(cmd, names, sizeof names), 0);
    size_t envlen = (size_t)(at[5] - at[4]);
    char *env = malloc(envlen + 1);
    ck_assert_ptr_nonnull(env);
    memcpy(env, at[4], envlen);
    env[envlen] = '\0';
    int count = 0;
    for (char *save = NULL, *name = strtok_r(names, "\n", &save); name; name = strtok_r(NULL, "\n", &save)) {
        ck_assert_msg(strstr(env, name) != NULL, "%s is read by the program but not in the man page's ENVIRONMENT",
                      name);
        count++;
    }
    free(env);
    ck_assert_msg(count >= 12, "only %d environment variables found in %s: the grep is broken", count, src);
    printf("test_install: the man page's sections in order; the %d environment variables read all in ENVIRONMENT\n",
           count);
    if (system("command -v groff > /dev/null 2>&1") != 0) {
        printf("test_install: SKIP groff -ww: groff is not installed (Debian: groff-base)\n");
        return;
    }
    snprintf(cmd, sizeof cmd, "groff -man -Tutf8 -ww -z '%s' 2>&1", man);
    ck_assert_int_eq(sh_out(cmd, out, sizeof out), 0);
    ck_assert_msg(out[0] == '\0', "groff -ww warns on the man page:\n%s", out);
}
END_TEST

Suite *suite_install(void)
{
    Suite *s = suite_create("install");
    TCase *tc = tcase_create("install");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_install_example_and_python);
    tcase_add_test(tc, test_install_man_page);
    suite_add_tcase(s, tc);
    return s;
}
